/**
 * The outline engine is not SysRS's: any outline in the format of schemas/sysrs-outline.json (described
 * by schemas/outline.schema.json) is checked with positions, under any rule-id prefix, with the
 * outline's own name in messages. Through the engine API: validate and compile the outline, build the
 * model of a body, run the outline rules of a prefix over it.
 */
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { splitFrontmatter } from '../src/parse/frontmatter.js';
import { checkOutlineData } from '../src/project/outline-files.js';
import { compileRuleFile } from '../src/project/schemas.js';
import { analyzeDocument } from '../src/engine/analyze-file.js';
import { customKind } from '../src/kinds/custom/kind.js';
import { compileOutline, OutlineDataError } from '../src/parse/outline/data.js';
import type { OutlineData } from '../src/parse/outline/data.js';
import { buildOutlineModel } from '../src/parse/outline/build.js';
import { checkOutlineBody, outlineRules } from '../src/rules/outline/index.js';
import { fixture, runCli } from './helpers.js';

const ADR: OutlineData = {
  name: 'ADR',
  h1Prefix: 'ADR: ',
  sections: [
    { heading: 'Context', level: 2, mandatory: true, content: 'prose' },
    { heading: 'Decision', level: 2, mandatory: true, content: 'prose' },
  ],
};

/** A file's body checked against the ADR outline under `adr`, as `line:column rule message` lines. */
function lint(text: string, outline: OutlineData = ADR, defaultName = 'adr'): { lines: string[]; title: string | null; body: unknown } {
  const split = splitFrontmatter(text);
  const r = checkOutlineBody(split.body, split.bodyLineOffset, compileOutline(checkOutlineData(outline), null), { prefix: 'adr', name: defaultName });
  return { lines: r.diagnostics.map((d) => `${d.line}:${d.column} ${d.rule} ${d.message}`), title: r.title, body: r.body };
}

const FRONT = '---\nid: adr-1\n---\n\n';

/** Temporary folders of this file, removed at the end. */
const temporary: string[] = [];
function tempDir(prefix: string): string {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  temporary.push(dir);
  return dir;
}
afterAll(() => {
  for (const dir of temporary) rmSync(dir, { recursive: true, force: true });
});

describe('a user outline of two sections under the prefix `adr`', () => {
  it('has the outline rules under its own prefix', () => {
    const ids = outlineRules('adr').map((r) => r.id);
    expect(ids).toContain('adr-h1');
    expect(ids).toContain('adr-missing-section');
    expect(ids.every((id) => id.startsWith('adr-'))).toBe(true);
  });

  it('passes a valid document and parses its body by the outline keys', () => {
    const r = lint(`${FRONT}# ADR: Use a queue\n\n## Context\n\nOrders get lost.\n\n## Decision\n\nWe use a queue.\n`);
    expect(r.lines).toEqual([]);
    expect(r.title).toBe('ADR: Use a queue');
    expect(r.body).toEqual({ context: { text: 'Orders get lost.', line: 7 }, decision: { text: 'We use a queue.', line: 11 } });
  });

  it('reports a missing H1 and a missing section at their positions on disk', () => {
    expect(lint(`${FRONT}## Context\n\nOrders get lost.\n`).lines).toEqual([
      '5:1 adr-h1 Unexpected `## Context`, expected `# ADR: <title>` first',
      '7:1 adr-missing-section Unexpected end of document, expected `## Decision`',
    ]);
  });

  it('names the outline in messages: its `name`, else the name the caller gives', () => {
    const text = `${FRONT}# ADR: Queue\n\n## Context\n\nx\n\n## Status\n\ny\n\n## Decision\n\nz\n`;
    expect(lint(text).lines).toEqual(['11:1 adr-unknown-heading Unexpected heading `## Status`, expected a section heading of the ADR outline']);
    const unnamed: OutlineData = { h1Prefix: ADR.h1Prefix, sections: ADR.sections };
    expect(lint(text, unnamed, 'adr').lines).toEqual([
      '11:1 adr-unknown-heading Unexpected heading `## Status`, expected a section heading of the adr outline',
    ]);
  });

  it('reports sections out of order and repeated, each once', () => {
    expect(lint(`${FRONT}# ADR: Queue\n\n## Decision\n\nz\n\n## Context\n\nx\n\n## Context\n\nagain\n`).lines).toEqual([
      '11:1 adr-heading-order Unexpected `## Context` after `## Decision`, expected it before `## Decision`',
      '15:1 adr-heading-duplicate Unexpected second `## Context`, expected each section once',
    ]);
  });

  it('builds the model once for any prefix: the model is structure, the rules make the messages', () => {
    const split = splitFrontmatter(`${FRONT}# Wrong\n\n## Context\n\nx\n`);
    const model = buildOutlineModel(split.body, split.bodyLineOffset, compileOutline(checkOutlineData(ADR), null), 'adr');
    expect(model.h1s).toHaveLength(1);
    expect(model.levels[0]!.missing.map((m) => m.node.heading)).toEqual(['Decision']);
    expect(JSON.stringify(model.body)).toBe('{"context":{"text":"x","line":7}}');
  });
});

describe('a configured kind with that outline (src/kinds/custom)', () => {
  const dir = tempDir('docgate-adr-');
  writeFileSync(join(dir, 'adr.schema.json'), JSON.stringify({ type: 'object', properties: { id: { type: 'string' } }, required: ['id'] }));
  const kind = customKind('adr', { include: ['docs/adr/*.md'], id: 'frontmatter', frontmatter: 'adr.schema.json', outline: 'adr-outline.json' });
  const data = { schema: compileRuleFile(join(dir, 'adr.schema.json'), 'adr.schema.json'), outline: ADR, headingTables: new Map(), fileName: null };
  const analyze = (text: string) => analyzeDocument(kind, data, { path: 'docs/adr/queue.md', lang: null }, new TextEncoder().encode(text));

  it("checks the body with positions under the kind's prefix, and names the outline in messages", () => {
    const a = analyze(`${FRONT}# ADR: Queue\n\n## Decision\n\nz\n\n## Status\n\ny\n`);
    expect(a.diagnostics.map((d) => `${d.line}:${d.column} ${d.rule} ${d.message}`)).toEqual([
      '7:1 adr-missing-section Unexpected `## Decision`, expected `## Context`',
      '11:1 adr-unknown-heading Unexpected heading `## Status`, expected a section heading of the ADR outline',
    ]);
    expect(a.doc).toBeNull();
  });

  it('hands a valid document to MCP clients with its title and parsed body', () => {
    const a = analyze(`${FRONT}# ADR: Queue\n\n## Context\n\nx\n\n## Decision\n\nz\n`);
    expect(a.diagnostics).toEqual([]);
    expect(a.doc).toMatchObject({
      kind: 'adr',
      id: 'adr-1',
      title: 'ADR: Queue',
      body: { context: { text: 'x', line: 7 }, decision: { text: 'z', line: 11 } },
    });
  });
});

describe('outline data is checked by schemas/outline.schema.json, then for what a schema cannot say', () => {
  const problem = (data: unknown): { message: string; instancePath: string } => {
    try {
      compileOutline(checkOutlineData(data), null);
    } catch (e) {
      if (e instanceof OutlineDataError) return { message: e.message, instancePath: e.instancePath };
      throw e;
    }
    throw new Error('accepted');
  };

  it('accepts the bundled SysRS outline and the two-section outline', () => {
    const sysrs = JSON.parse(readFileSync(fileURLToPath(new URL('../schemas/sysrs-outline.json', import.meta.url)), 'utf8')) as unknown;
    expect(() => compileOutline(checkOutlineData(sysrs), null)).not.toThrow();
    expect(() => compileOutline(checkOutlineData(ADR), null)).not.toThrow();
  });

  it('refuses shapes with the pointer of the value at fault', () => {
    expect(problem(null)).toEqual({ message: 'the outline is not an object', instancePath: '' });
    expect(problem({})).toEqual({ message: 'h1Prefix is not a non-empty string', instancePath: '' });
    expect(problem({ ...ADR, sections: [ADR.sections[0], { ...ADR.sections[1], level: 3 }] })).toEqual({
      message: 'sections[1].level is 3, not 2',
      instancePath: '/sections/1/level',
    });
    expect(problem({ ...ADR, sections: [{ heading: 'A', level: 2, content: 'table' }] })).toEqual({
      message: 'sections[0].content is not one of prose, list, bullets, updates',
      instancePath: '/sections/0/content',
    });
    expect(problem({ ...ADR, sections: [{ heading: 'A', level: 2, content: 'list' }] })).toEqual({
      message: 'sections[0].tags is not a non-empty array of tags',
      instancePath: '/sections/0',
    });
    expect(problem({ ...ADR, sections: [{ heading: 'A', level: 2, content: 'prose', tags: ['X'] }] }).instancePath).toBe('/sections/0/tags');
    expect(problem({ ...ADR, sections: [{ heading: 'A', level: 2, content: 'prose', mandatroy: true }] }).message).toBe(
      'sections[0].mandatroy is not allowed (not a field of an outline section)',
    );
  });

  it('refuses in code what the schema cannot say: repeated headings and keys, minChildren beyond the children', () => {
    expect(problem({ ...ADR, sections: [ADR.sections[0], ADR.sections[0]] })).toEqual({
      message: 'sections[1] repeats heading "Context"',
      instancePath: '/sections/1',
    });
    const container = { heading: 'C', level: 2, minChildren: 2, children: [{ heading: 'D', level: 3, content: 'prose' }] };
    expect(problem({ ...ADR, sections: [container] })).toEqual({
      message: 'sections[0].minChildren exceeds its children',
      instancePath: '/sections/0/minChildren',
    });
  });
});

describe("a root's own outline file, through the CLI", () => {
  const sysrsOutline = JSON.parse(readFileSync(fileURLToPath(new URL('../schemas/sysrs-outline.json', import.meta.url)), 'utf8')) as OutlineData;
  function rootWith(outline: unknown): string {
    const root = tempDir('docgate-outline-');
    cpSync(fixture('rules', 'sysrs-valid'), root, { recursive: true });
    mkdirSync(join(root, 'schemas'));
    writeFileSync(join(root, 'schemas', 'sysrs-outline.json'), JSON.stringify(outline, null, 2));
    return root;
  }

  it('is checked by the outline schema when rules load: a misspelt field is exit 2 naming the file', () => {
    const bad = structuredClone(sysrsOutline) as unknown as { sections: Record<string, unknown>[] };
    bad.sections[0]!['mandatroy'] = true;
    const run = runCli(['lint', '--root', rootWith(bad)]);
    expect(run.stderr).toBe(
      'docgate: schemas/sysrs-outline.json:10:7 outline is invalid: sections[0].mandatroy is not allowed (not a field of an outline section)\n',
    );
    expect(run.code).toBe(2);
    expect(run.stdout).toBe('');
  });

  it('names itself in messages through its `name`', () => {
    const root = rootWith({ ...sysrsOutline, name: 'Spec' });
    const doc = join(root, 'docs', 'sysrs', 'fixture.md');
    writeFileSync(doc, readFileSync(doc, 'utf8').replace(/\n## System Scope\n/, '\n## Scope Notes\n\nx\n\n## System Scope\n'));
    const run = runCli(['lint', '--root', root, '--format', 'json']);
    expect(run.code, run.stderr).toBe(1);
    const report = JSON.parse(run.stdout) as { results: { diagnostics: { rule: string; message: string }[] }[] };
    expect(report.results.flatMap((r) => r.diagnostics).map((d) => `${d.rule} ${d.message}`)).toEqual([
      'sysrs-unknown-heading Unexpected heading `## Scope Notes`, expected a section heading of the Spec outline',
    ]);
  });
});
