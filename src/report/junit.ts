import { escapeCandidates } from '../model/hidden-unicode.js';
import type { LintRun } from '../lint/run.js';
import type { Kind, ParseFailureResult } from '../model/types.js';
import { BUILTIN_KINDS } from '../kinds/index.js';

/** Suites in the order of the project's kinds (the registry's order, then configured ones), then any other by name. */
function kindOrder(kinds: Iterable<string>, project?: readonly string[]): string[] {
  const builtin = project ?? BUILTIN_KINDS.map((k) => k.name);
  return [...builtin, ...[...new Set(kinds)].filter((k) => !builtin.includes(k)).sort()];
}

/** Characters XML 1.0 does not allow at all (not even as references): they are dropped. */
const ILLEGAL_XML = /[^\t\n\r\u0020-\uD7FF\uE000-\uFFFD\u{10000}-\u{10FFFF}]/gu;

/** A hidden character as a character reference: the same text for an XML reader, none of it raw. */
const xmlReference = (cp: number): string => `&#x${cp.toString(16).toUpperCase()};`;

/**
 * Text content: `&`, `<`, `>` escaped; `\r` as a reference so that XML line-end normalization keeps it;
 * hidden characters as references.
 */
export function xmlText(s: string): string {
  return escapeCandidates(s.replace(ILLEGAL_XML, '').replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/\r/g, '&#13;'), xmlReference);
}

/** Attribute value (in double quotes): also `"`, `'`, and tab/newline/CR as references, which survive attribute normalization. */
export function xmlAttr(s: string): string {
  return xmlText(s).replace(/"/g, '&quot;').replace(/'/g, '&apos;').replace(/\t/g, '&#9;').replace(/\n/g, '&#10;');
}

interface Case {
  path: string;
  kind: Kind;
  failure: ParseFailureResult | undefined;
  /** A document that passes with warnings: its `error` lines go to `<system-out>`. */
  warnings: ParseFailureResult | undefined;
}

/**
 * The `junit` format (docs/formats.md, "Reports"): one `<testsuite>` per kind among the files checked, one `<testcase>` per file
 * checked (classname = kind, name = path), and for a failing file a `<failure>` whose `message` is the
 * first line of its `error` and whose text is the whole `error`. A document with warnings only passes:
 * its lines go to the testcase's `<system-out>` (docs/formats.md, "Severities and warnings").
 */
export function junit(run: LintRun): string {
  const failures = new Map(run.results.map((r) => [r.path, r]));
  const warned = new Map((run.warnings ?? []).map((r) => [r.path, r]));
  const cases: Case[] = run.checked.map((c) => ({ path: c.path, kind: c.kind, failure: failures.get(c.path), warnings: warned.get(c.path) }));
  // A result for a file not listed as checked (a hand-made run) still gets its testcase.
  const listed = new Set(run.checked.map((c) => c.path));
  for (const r of run.results) if (!listed.has(r.path)) cases.push({ path: r.path, kind: r.kind, failure: r, warnings: undefined });

  const suites: string[] = [];
  for (const kind of kindOrder(
    cases.map((c) => c.kind),
    run.kinds,
  )) {
    const mine = cases.filter((c) => c.kind === kind);
    if (mine.length === 0) continue;
    const failed = mine.filter((c) => c.failure).length;
    const lines = [`  <testsuite name="${kind}" tests="${mine.length}" failures="${failed}" errors="0" skipped="0">`];
    for (const c of mine) {
      const open = `    <testcase classname="${kind}" name="${xmlAttr(c.path)}"`;
      if (!c.failure) {
        if (c.warnings) lines.push(`${open}>`, `      <system-out>${xmlText(c.warnings.error)}</system-out>`, '    </testcase>');
        else lines.push(`${open}/>`);
        continue;
      }
      const error = c.failure.error;
      const first = error.split('\n', 1)[0] ?? '';
      lines.push(`${open}>`, `      <failure message="${xmlAttr(first)}" type="docgate">${xmlText(error)}</failure>`, '    </testcase>');
    }
    lines.push('  </testsuite>');
    suites.push(lines.join('\n'));
  }
  const total = cases.length;
  const failed = cases.filter((c) => c.failure).length;
  return [
    '<?xml version="1.0" encoding="UTF-8"?>',
    `<testsuites name="docgate" tests="${total}" failures="${failed}" errors="0">`,
    ...suites,
    '</testsuites>',
    '',
  ].join('\n');
}
