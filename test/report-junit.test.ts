import { XMLParser, XMLValidator } from 'fast-xml-parser';
import { describe, expect, it } from 'vitest';
import type { LintRun } from '../src/lint/run.js';
import { formatDiagnostic } from '../src/model/result.js';
import type { Diagnostic, ParseFailureResult } from '../src/model/types.js';
import { junit, xmlAttr, xmlText } from '../src/report/junit.js';
import { fixture, lintRoot } from './helpers.js';

interface XmlFailure {
  '#text'?: string;
  '@_message': string;
  '@_type': string;
}
interface XmlCase {
  '@_classname': string;
  '@_name': string;
  failure?: XmlFailure[];
}
interface XmlSuite {
  '@_name': string;
  '@_tests': string;
  '@_failures': string;
  testcase?: XmlCase[];
}
interface XmlDoc {
  testsuites: { '@_tests': string; '@_failures': string; testsuite?: XmlSuite[] };
}

/** Parses the report as XML: well-formedness first, then a tree with every entity decoded and no trimming. */
function parseJunit(xml: string): XmlDoc {
  const valid = XMLValidator.validate(xml);
  expect(valid).toBe(true);
  const parser = new XMLParser({
    ignoreAttributes: false,
    attributeNamePrefix: '@_',
    parseAttributeValue: false,
    parseTagValue: false,
    trimValues: false,
    processEntities: true,
    htmlEntities: true,
    isArray: (name) => name === 'testsuite' || name === 'testcase' || name === 'failure',
  });
  return parser.parse(xml) as XmlDoc;
}

function failure(path: string, kind: ParseFailureResult['kind'], diagnostics: Diagnostic[]): ParseFailureResult {
  return { id: path, path, kind, error: diagnostics.map(formatDiagnostic).join('\n'), diagnostics };
}

describe('junit format', () => {
  it('parses as XML with one testcase per file checked, one testsuite per kind (fixture root)', () => {
    const run = lintRoot(fixture('ci-root'));
    const xml = junit(run);
    expect(xml.startsWith('<?xml version="1.0" encoding="UTF-8"?>\n<testsuites ')).toBe(true);
    const doc = parseJunit(xml);
    const suites = doc.testsuites.testsuite ?? [];
    expect(suites.map((s) => s['@_name'])).toEqual(['template', 'framework', 'process', 'sysrs']);
    const cases = suites.flatMap((s) => s.testcase ?? []);
    expect(cases).toHaveLength(run.filesChecked);
    expect(cases.map((c) => c['@_name']).sort()).toEqual(run.checked.map((c) => c.path).sort());
    expect(Number(doc.testsuites['@_tests'])).toBe(run.filesChecked);
    expect(Number(doc.testsuites['@_failures'])).toBe(run.results.length);
    for (const s of suites) {
      const mine = run.checked.filter((c) => c.kind === s['@_name']);
      expect(Number(s['@_tests'])).toBe(mine.length);
      expect(Number(s['@_failures'])).toBe(run.results.filter((r) => r.kind === s['@_name']).length);
      for (const c of s.testcase ?? []) expect(c['@_classname']).toBe(s['@_name']);
    }
  });

  it('gives a failing file a <failure> with the first error line as message and the whole error as text', () => {
    const run = lintRoot(fixture('ci-root'));
    const cases = (parseJunit(junit(run)).testsuites.testsuite ?? []).flatMap((s) => s.testcase ?? []);
    const byPath = new Map(cases.map((c) => [c['@_name'], c]));
    for (const c of run.checked) {
      const r = run.results.find((x) => x.path === c.path);
      const tc = byPath.get(c.path)!;
      if (!r) {
        expect(tc.failure).toBeUndefined();
        continue;
      }
      expect(tc.failure).toHaveLength(1);
      const f = tc.failure![0]!;
      expect(f['@_type']).toBe('docgate');
      expect(f['@_message']).toBe(r.error.split('\n')[0]);
      expect(f['#text']).toBe(r.error);
    }
  });

  it('lists only the kinds present, and passing files as empty testcases', () => {
    const run: LintRun = { root: '/x', results: [], filesChecked: 1, problemCount: 0, checked: [{ path: 'frameworks/POWER.md', kind: 'framework' }] };
    expect(junit(run)).toBe(
      [
        '<?xml version="1.0" encoding="UTF-8"?>',
        '<testsuites name="docgate" tests="1" failures="0" errors="0">',
        '  <testsuite name="framework" tests="1" failures="0" errors="0" skipped="0">',
        '    <testcase classname="framework" name="frameworks/POWER.md"/>',
        '  </testsuite>',
        '</testsuites>',
        '',
      ].join('\n'),
    );
  });

  it('escapes attributes and text, and drops characters XML 1.0 forbids', () => {
    const nasty = 'a <b> & "c" \'d\' ]]> \u0001\u0008\u000b\u000c\u001f\uFFFE\uFFFF \uD800 ok \u{1F600}\ttab';
    const kept = 'a <b> & "c" \'d\' ]]>   ok \u{1F600}\ttab';
    const r = failure('processes/<a&"b">.md', 'process', [
      { line: 1, column: 1, rule: 'unknown-key', message: nasty },
      { line: 2, column: 1, rule: 'yaml-syntax', message: 'second & last' },
    ]);
    const run: LintRun = { root: '/x', results: [r], filesChecked: 1, problemCount: 2, checked: [{ path: r.path, kind: 'process' }] };
    const xml = junit(run);
    expect(xml).not.toMatch(/[\u0001\u0008\u000b\u000c\u001f\uFFFE\uFFFF]/);
    const tc = parseJunit(xml).testsuites.testsuite![0]!.testcase![0]!;
    expect(tc['@_name']).toBe('processes/<a&"b">.md');
    expect(tc.failure![0]!['@_message']).toBe(`1:1 ${kept} [unknown-key]`);
    expect(tc.failure![0]!['#text']).toBe(`1:1 ${kept} [unknown-key]\n2:1 second & last [yaml-syntax]`);
  });

  it('writes the escapes it promises', () => {
    expect(xmlText('a<b>&c\r\n')).toBe('a&lt;b&gt;&amp;c&#13;\n');
    expect(xmlAttr('"x"\'y\'\t\n')).toBe('&quot;x&quot;&apos;y&apos;&#9;&#10;');
    expect(xmlText('\u0000\u0002x\uDC00')).toBe('x');
  });
});
