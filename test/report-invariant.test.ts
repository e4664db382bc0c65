import { XMLParser } from 'fast-xml-parser';
import { describe, expect, it } from 'vitest';
import { VERSION } from '../src/io/version.js';
import { FORMATTERS } from '../src/report/index.js';
import type { SarifLog } from '../src/report/sarif.js';
import { fixture, lintRoot } from './helpers.js';

/*
 * SPEC §3: the `error` text of a file is byte-identical wherever it appears. Every report format is
 * read back here the way its consumer reads it, and each file's error text is rebuilt from it.
 */

const CTX = { color: false, version: VERSION };
type ErrorsByPath = Map<string, string>;

function append(map: ErrorsByPath, path: string, line: string): void {
  const prev = map.get(path);
  map.set(path, prev === undefined ? line : `${prev}\n${line}`);
}

/** stylish: a path line, then its error lines indented by two spaces, then a blank line. */
function fromStylish(text: string): ErrorsByPath {
  const out: ErrorsByPath = new Map();
  const blocks = text.split('\n\n').slice(0, -1);
  for (const block of blocks) {
    const [path, ...lines] = block.split('\n');
    for (const l of lines) {
      expect(l.startsWith('  ')).toBe(true);
      append(out, path!, l.slice(2));
    }
  }
  return out;
}

function fromJson(text: string): ErrorsByPath {
  const report = JSON.parse(text) as { results: { path: string; error: string }[] };
  return new Map(report.results.map((r) => [r.path, r.error]));
}

const DATA_CODES: Record<string, string> = { '%25': '%', '%0D': '\r', '%0A': '\n', '%3A': ':', '%2C': ',' };
const unescaped = (s: string, codes: RegExp): string => s.replace(codes, (m) => DATA_CODES[m]!);

/** github: each `::error` line's message, un-escaped, joined per `file` with `\n`. */
function fromGithub(text: string): ErrorsByPath {
  const out: ErrorsByPath = new Map();
  for (const line of text.split('\n')) {
    const m = /^::error ([^:]*)::(.*)$/.exec(line);
    if (!m) continue;
    const file = /(?:^|,)file=([^,]*)/.exec(m[1]!)![1]!;
    append(out, unescaped(file, /%(?:25|0D|0A|3A|2C)/g), unescaped(m[2]!, /%(?:25|0D|0A)/g));
  }
  return out;
}

/** sarif: result messages joined per artifact uri with `\n`. */
function fromSarif(text: string): ErrorsByPath {
  const out: ErrorsByPath = new Map();
  const log = JSON.parse(text) as SarifLog;
  for (const r of log.runs[0]!.results) append(out, decodeURIComponent(r.locations[0]!.physicalLocation.artifactLocation.uri), r.message.text);
  return out;
}

/** junit: the text of each testcase's `<failure>`. */
function fromJunit(text: string): ErrorsByPath {
  const parser = new XMLParser({
    ignoreAttributes: false,
    attributeNamePrefix: '@_',
    trimValues: false,
    parseTagValue: false,
    isArray: (name) => name === 'testsuite' || name === 'testcase',
  });
  type Case = { '@_name': string; failure?: { '#text': string } };
  const doc = parser.parse(text) as { testsuites: { testsuite: { testcase: Case[] }[] } };
  const out: ErrorsByPath = new Map();
  for (const s of doc.testsuites.testsuite) for (const c of s.testcase) if (c.failure) out.set(c['@_name'], c.failure['#text']);
  return out;
}

describe('the error text is the same in every report format', () => {
  const run = lintRoot(fixture('ci-root'));
  const expected: ErrorsByPath = new Map(run.results.map((r) => [r.path, r.error]));

  it('the fixture root has failures of every kind, with several diagnostics in some files', () => {
    expect(new Set(run.results.map((r) => r.kind))).toEqual(new Set(['template', 'framework', 'process', 'sysrs']));
    expect(run.results.some((r) => r.diagnostics.length > 1)).toBe(true);
    expect(run.checked.length).toBeGreaterThan(run.results.length);
  });

  const readers: [string, (text: string) => ErrorsByPath][] = [
    ['stylish', fromStylish],
    ['json', fromJson],
    ['github', fromGithub],
    ['sarif', fromSarif],
    ['junit', fromJunit],
  ];
  for (const [format, read] of readers) {
    it(`${format}: byte for byte`, () => {
      const got = read(FORMATTERS[format]!(run, CTX));
      expect([...got.keys()].sort()).toEqual([...expected.keys()].sort());
      for (const [path, error] of expected) expect(got.get(path), path).toBe(error);
    });
  }
});
