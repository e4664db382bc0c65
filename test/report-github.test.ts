import { describe, expect, it } from 'vitest';
import type { LintRun } from '../src/lint/run.js';
import { formatDiagnostic } from '../src/model/result.js';
import type { Diagnostic, ParseFailureResult } from '../src/model/types.js';
import { github, githubStepSummary, markdownCell } from '../src/report/github.js';
import { fixture, lintRoot } from './helpers.js';

/* ---- The reader side of GitHub's workflow commands, written from its documented escaping ---- */

const DATA_CODES: Record<string, string> = { '%25': '%', '%0D': '\r', '%0A': '\n' };
const PROPERTY_CODES: Record<string, string> = { ...DATA_CODES, '%3A': ':', '%2C': ',' };

function unescapeData(s: string): string {
  return s.replace(/%(?:25|0D|0A)/g, (m) => DATA_CODES[m]!);
}

function unescapeProperty(s: string): string {
  return s.replace(/%(?:25|0D|0A|3A|2C)/g, (m) => PROPERTY_CODES[m]!);
}

interface Annotation {
  command: string;
  properties: Record<string, string>;
  message: string;
}

/** Parses one `::command k=v,k=v::data` line the way the runner does. */
function parseCommand(line: string): Annotation {
  const m = /^::([a-z]+) ([^:]*)::(.*)$/s.exec(line);
  if (!m) throw new Error(`not a workflow command: ${line}`);
  const properties: Record<string, string> = {};
  for (const part of m[2]!.split(',')) {
    const eq = part.indexOf('=');
    properties[part.slice(0, eq)] = unescapeProperty(part.slice(eq + 1));
  }
  return { command: m[1]!, properties, message: unescapeData(m[3]!) };
}

function runOf(results: ParseFailureResult[], checkedExtra: LintRun['checked'] = []): LintRun {
  return {
    root: '/tmp/synthetic',
    results,
    filesChecked: results.length + checkedExtra.length,
    problemCount: results.reduce((n, r) => n + r.diagnostics.length, 0),
    checked: [...results.map((r) => ({ path: r.path, kind: r.kind })), ...checkedExtra],
  };
}

function failure(path: string, kind: ParseFailureResult['kind'], diagnostics: Diagnostic[]): ParseFailureResult {
  return { id: path, path, kind, error: diagnostics.map(formatDiagnostic).join('\n'), diagnostics };
}

/** Messages and paths that need every escape: `%`, `:`, `,`, CR, LF, and text that looks like escapes. */
const TRICKY = runOf([
  failure('docs/sysrs/a,b:c.md', 'sysrs', [
    { line: 3, column: 7, rule: 'invalid-value', message: 'Unexpected `status` value `50%`, expected one of: `draft`, `review`' },
    { line: 4, column: 1, rule: 'yaml-syntax', message: 'first line\nsecond line\r\nthird: line, with %0A and %25 and ::' },
    { line: 9, column: 2, endLine: 9, endColumn: 14, rule: 'sysrs-list-uuid', message: '::error file=x::nested, 100%' },
  ]),
  failure('templates/power/p%20q.txt', 'template', [{ line: 1, column: 1, rule: 'odd:rule,id', message: 'a\rb' }]),
]);

describe('github format', () => {
  it('writes one ::error command per diagnostic, then the summary line', () => {
    const out = github(TRICKY);
    const lines = out.split('\n');
    expect(out.endsWith('\n')).toBe(true);
    expect(lines).toHaveLength(4 + 1 + 1);
    expect(lines.slice(0, 4).every((l) => l.startsWith('::error '))).toBe(true);
    expect(lines[4]).toBe('4 problems in 2 files (2 files checked)');
    // No raw CR or LF inside a command: each annotation is exactly one line.
    expect(out.split('\n').slice(0, 4).join('')).not.toMatch(/\r/);
  });

  it('parses back to the same path, line, column, rule and message after un-escaping', () => {
    const commands = github(TRICKY).split('\n').slice(0, 4).map(parseCommand);
    const expected = TRICKY.results.flatMap((r) => r.diagnostics.map((d) => ({ path: r.path, d })));
    expect(commands).toHaveLength(expected.length);
    commands.forEach((c, i) => {
      const { path, d } = expected[i]!;
      expect(c.command).toBe('error');
      expect(c.properties.file).toBe(path);
      expect(Number(c.properties.line)).toBe(d.line);
      expect(Number(c.properties.col)).toBe(d.column);
      expect(c.properties.title).toBe(d.rule);
      expect(c.message).toBe(formatDiagnostic(d));
      expect(c.message).toContain(d.message);
      if (d.endLine !== undefined) expect(Number(c.properties.endLine)).toBe(d.endLine);
      if (d.endColumn !== undefined) expect(Number(c.properties.endColumn)).toBe(d.endColumn);
    });
  });

  it('escapes exactly as the workflow-command rules say', () => {
    const [first, second, third, fourth] = github(TRICKY).split('\n');
    expect(first).toBe(
      '::error file=docs/sysrs/a%2Cb%3Ac.md,line=3,col=7,title=invalid-value::3:7 Unexpected `status` value `50%25`, expected one of: `draft`, `review` [invalid-value]',
    );
    expect(second).toBe(
      '::error file=docs/sysrs/a%2Cb%3Ac.md,line=4,col=1,title=yaml-syntax::4:1 first line%0Asecond line%0D%0Athird: line, with %250A and %2525 and :: [yaml-syntax]',
    );
    expect(third).toBe(
      '::error file=docs/sysrs/a%2Cb%3Ac.md,line=9,col=2,endLine=9,endColumn=14,title=sysrs-list-uuid::9:2 ::error file=x::nested, 100%25 [sysrs-list-uuid]',
    );
    expect(fourth).toBe('::error file=templates/power/p%2520q.txt,line=1,col=1,title=odd%3Arule%2Cid::1:1 a%0Db [odd:rule,id]');
  });

  it('prints only the summary line for a clean run', () => {
    expect(github(runOf([], [{ path: 'frameworks/POWER.md', kind: 'framework' }]))).toBe('0 problems in 0 files (1 file checked)\n');
  });

  it('annotates every failure of the fixture root (every kind) with its file, position and rule', () => {
    const run = lintRoot(fixture('ci-root'));
    const lines = github(run).trimEnd().split('\n');
    const commands = lines.slice(0, -1).map(parseCommand);
    expect(commands).toHaveLength(run.problemCount);
    expect(new Set(run.results.map((r) => r.kind))).toEqual(new Set(['template', 'framework', 'process', 'sysrs']));
    expect(lines.at(-1)).toBe(`${run.problemCount} problems in ${run.results.length} files (${run.filesChecked} files checked)`);
    const back = commands.map((c) => `${c.properties.file}|${c.properties.line}:${c.properties.col}|${c.properties.title}|${c.message}`);
    const want = run.results.flatMap((r) => r.diagnostics.map((d) => `${r.path}|${d.line}:${d.column}|${d.rule}|${formatDiagnostic(d)}`));
    expect(back).toEqual(want);
  });
});

describe('github step summary (Markdown)', () => {
  it('is a table of failures: path, line:col, rule, message, with `|` and markup escaped', () => {
    const md = githubStepSummary(TRICKY);
    const lines = md.split('\n');
    expect(lines.slice(0, 6)).toEqual([
      '## docgate',
      '',
      '4 problems in 2 files (2 files checked)',
      '',
      '| File | Line:Col | Rule | Message |',
      '| --- | --- | --- | --- |',
    ]);
    const rows = lines.filter((l) => l.startsWith('| ') && !l.startsWith('| File') && !l.startsWith('| ---'));
    expect(rows).toHaveLength(4);
    // A row splits into exactly 4 cells at unescaped pipes, whatever the message holds.
    for (const row of rows) expect(row.slice(1, -1).split(/(?<!\\)\|/)).toHaveLength(4);
    expect(rows[0]).toBe('| docs/sysrs/a,b:c.md | 3:7 | invalid-value | Unexpected \\`status\\` value \\`50%\\`, expected one of: \\`draft\\`, \\`review\\` |');
    // Newlines in a message cannot break the row.
    expect(rows[1]).toContain('first line second line third: line, with %0A and %25 and ::');
  });

  it('escapes a pipe so it cannot start a new cell, and markup so that it renders as text', () => {
    expect(markdownCell('a | b')).toBe('a \\| b');
    expect(markdownCell('<script>&amp;*x*_y_[z](u) ~s~ $m$ @team `c` \\')).toBe(
      '\\<script\\>\\&amp;\\*x\\*\\_y\\_\\[z\\](u) \\~s\\~ \\$m\\$ \\@team \\`c\\` \\\\',
    );
    expect(markdownCell('plain text 123')).toBe('plain text 123');
  });

  it('says so, without a table, when nothing failed', () => {
    const md = githubStepSummary(runOf([], [{ path: 'frameworks/POWER.md', kind: 'framework' }]));
    expect(md).toBe('## docgate\n\n0 problems in 0 files (1 file checked)\n\n');
    expect(md).not.toContain('|');
  });

  it('lists every failure of the fixture root', () => {
    const run = lintRoot(fixture('ci-root'));
    const rows = githubStepSummary(run)
      .split('\n')
      .filter((l) => /^\| (?!File |---)/.test(l));
    expect(rows).toHaveLength(run.problemCount);
    expect(
      rows.some((r) =>
        r.startsWith('| frameworks/Notes.md | 1:1 | framework-heading | Unexpected first line \\`Notes without a heading: 50% done, see below.\\`'),
      ),
    ).toBe(true);
  });
});
