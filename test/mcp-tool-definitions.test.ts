import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Ajv2020 } from 'ajv/dist/2020.js';
import type { Tool } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CONTENT, resultOf, startMcp, structuredOf, textOf } from './fixtures/mcp/harness.js';
import type { McpSession } from './fixtures/mcp/harness.js';
import { REPO } from './helpers.js';

/**
 * Tool definitions an agent can choose between (docs/mcp-tool-quality.md): what `tools/list` tells a
 * client, checked for the parts the Tool Definition Quality Score rewards, and output schemas that
 * describe every branch and hold the real answers of kinds of your own and of presets.
 */
const ALPHA = '11111111-1111-4111-8111-111111111111';
const OWN = join(REPO, 'test', 'fixtures', 'mcp-own-kinds', 'issue');
const PRESET = join(REPO, 'test', 'fixtures', 'presets', 'agent-skills');

interface Schema {
  description?: string;
  properties?: Record<string, Schema>;
  items?: Schema;
  anyOf?: Schema[];
  enum?: unknown[];
  const?: unknown;
  default?: unknown;
  maxLength?: number;
  minLength?: number;
}
interface Failure {
  id: string;
  path: string;
  kind: string;
  error: string;
}
interface Row {
  id: string | null;
  path: string;
  error: string | null;
}

const lines = (t: Tool) => (t.description ?? '').split('\n');
/** The tool names a text mentions: every word shaped like one of the server's verbs and a noun. */
const toolWords = (text: string) => text.match(/\b(?:list|get|search|parse|check|create|update|edit)_[a-z_]+\b|\bvalidate\b/g) ?? [];

let s: McpSession;
beforeAll(async () => {
  // With the write tools: their definitions are held to the same parts.
  s = await startMcp(CONTENT, {}, ['--allow-writes']);
});
afterAll(async () => {
  await s.close();
});

describe('issue 30: every tool description has the parts an agent chooses by', () => {
  it('opens with one purpose sentence on its own line: a verb, what it acts on, at most 200 characters', () => {
    expect(s.tools.map((t) => t.name)).toEqual(expect.arrayContaining(['create_document', 'update_document', 'edit_document']));
    for (const t of s.tools) {
      const [purpose] = lines(t);
      expect(purpose, t.name).toMatch(/^(List|Get|Read|Search|Parse|Lint|Check|Create|Replace) [a-z]/);
      expect(purpose!.length, t.name).toBeLessThanOrEqual(200);
      // One sentence: it ends the line, and no other sentence ends inside it.
      expect(purpose, t.name).toMatch(/\.$/);
      expect(purpose!.slice(0, -1), t.name).not.toMatch(/[.;] [A-Z]/);
    }
  });

  it('has a second line "Use X instead …" naming a sibling tool that exists, and names no tool that does not', () => {
    const names = new Set(s.tools.map((t) => t.name));
    for (const t of s.tools) {
      const instead = lines(t)[1] ?? '';
      expect(instead, t.name).toMatch(/^Use [a-z_]+(, [a-z_]+)*( or [a-z_]+)? instead (when|for|to) /);
      const siblings = toolWords(instead).filter((w) => w !== t.name);
      expect(siblings.length, t.name).toBeGreaterThan(0);
      for (const w of toolWords(t.description ?? '')) expect(names.has(w), `${t.name} names ${w}`).toBe(true);
    }
  });

  it('restates no output schema: no structuredContent, no brace list but an argument form, short sentences', () => {
    for (const t of s.tools) {
      const d = t.description ?? '';
      expect(d, t.name).not.toContain('structuredContent');
      const inputs = Object.keys(t.inputSchema.properties ?? {});
      for (const group of d.match(/\{[^{}]*\}/g) ?? []) {
        const keys = group
          .slice(1, -1)
          .split(',')
          .map((part) => part.split(':')[0]!.trim().replace(/\?$/, ''));
        for (const k of keys) expect(inputs, `${t.name}: ${group}`).toContain(k);
      }
      for (const sentence of d.split(/(?<=[.;])\s+/)) expect(sentence.length, `${t.name}: ${sentence}`).toBeLessThanOrEqual(250);
      expect(d.length, t.name).toBeLessThanOrEqual(900);
    }
  });

  it('describes every parameter without restating its schema: no default the schema has, no length limit it sets', () => {
    for (const t of s.tools) {
      for (const [name, p] of Object.entries((t.inputSchema.properties ?? {}) as Record<string, Schema>)) {
        expect(p.description?.length ?? 0, `${t.name}.${name}`).toBeGreaterThan(10);
        if (p.default !== undefined) expect(p.description, `${t.name}.${name}`).not.toMatch(/\bdefault\b/i);
        if (p.maxLength !== undefined || p.minLength !== undefined)
          expect(p.description, `${t.name}.${name}`).not.toMatch(/at most [\d,]+ characters|not empty/);
      }
    }
  });

  it('says what a failing document answers in every tool that reads documents, and how to page in every list tool', () => {
    for (const t of s.tools) {
      expect(t.description, t.name).toMatch(/fail/);
      if (t.name.startsWith('list_')) {
        expect(t.description, t.name).toMatch(/\boffset\b/);
        expect(t.description, t.name).toMatch(/\btruncated\b/);
      }
    }
  });

  it('says how a failed row with a null id is opened, and the advice works: get_document by its path', async () => {
    const tool = (name: string) => s.tools.find((t) => t.name === name)!;
    for (const name of ['list_sysrs', 'list_documents', 'get_sysrs']) expect(tool(name).description, name).toMatch(/null id.*get_document by (its )?path/s);
    const rows = structuredOf<{ results: Row[] }>(await s.call('list_sysrs')).results;
    const failed = rows.find((r) => r.id === null && r.error !== null)!;
    expect(failed.path).toBe('docs/sysrs/no-id.md');
    const opened = resultOf<Failure>(await s.call('get_document', { path: failed.path }));
    expect(opened).toMatchObject({ path: failed.path, kind: 'sysrs', error: failed.error });
  });

  it('sends parse_sysrs users to check_content, not validate, for rules across files, and check_content finds what parse_sysrs cannot', async () => {
    const parse = s.tools.find((t) => t.name === 'parse_sysrs')!;
    expect(lines(parse)[1]).toMatch(/^Use check_content instead /);
    expect(parse.description).not.toContain('validate');
    expect(s.tools.find((t) => t.name === 'validate')!.description).toMatch(/^Lint the files as they are on disk/);
    // The text of alpha.md under another name: parsing alone passes it, the live repository has its id already.
    const copy = readFileSync(join(CONTENT, 'docs/sysrs/alpha.md'), 'utf8');
    expect(resultOf(await s.call('parse_sysrs', { content: copy }))).toHaveProperty('frontmatter.id', ALPHA);
    const checked = structuredOf<Failure>(await s.call('check_content', { path: 'docs/sysrs/alpha-copy.md', content: copy }));
    expect(checked.error).toContain('[sysrs-duplicate-id]');
  });
});

/** Every schema inside one, the schema itself first. */
function* walk(schema: Schema): Generator<Schema> {
  yield schema;
  for (const p of Object.values(schema.properties ?? {})) yield* walk(p);
  if (schema.items) yield* walk(schema.items);
  for (const b of schema.anyOf ?? []) yield* walk(b);
}

describe('issue 30: output schemas describe every branch and hold every real answer', () => {
  it('gives every branch of every output schema a description, and no ParseFailureResult kind an enum', () => {
    for (const t of s.tools) {
      for (const node of walk(t.outputSchema as Schema)) {
        for (const b of node.anyOf ?? []) expect(b.description?.length ?? 0, `${t.name}: ${JSON.stringify(b).slice(0, 80)}`).toBeGreaterThan(10);
        if (node.properties?.diagnostics && node.properties.kind) {
          expect(node.properties.kind.enum, t.name).toBeUndefined();
          expect(node.properties.kind.const, t.name).toBeUndefined();
        }
      }
    }
  });

  it('get_process answers in structuredContent.result like the other get tools, its text the JSON of the answer as before', async () => {
    const get = s.tools.find((t) => t.name === 'get_process')!;
    expect((get.outputSchema as { required?: string[] }).required).toEqual(['result']);
    const body = readFileSync(join(CONTENT, 'processes/code-review.md'), 'utf8').split('---\n\n')[1];
    const doc = { name: 'Code Review', slug: 'code-review', description: 'Standard procedure for code reviews', content: body };
    for (const [name, expected] of [
      ['code-review', doc],
      ['nope', { error: 'PROCESS_NOT_FOUND', message: "Process 'nope' not found." }],
      ['broken-key', { id: 'broken-key', path: 'processes/broken-key.md', kind: 'process' }],
    ] as const) {
      const r = await s.call('get_process', { name });
      expect(Object.keys(r.structuredContent ?? {}), name).toEqual(['result']);
      expect(resultOf(r), name).toMatchObject(expected);
      expect(textOf(r), name).toBe(JSON.stringify(resultOf(r), null, 2));
    }
    expect(textOf(await s.call('get_process', { name: 'code-review' }))).toBe(JSON.stringify(doc, null, 2));
  });

  it('holds the answers for a kind of your own and a preset kind, passing and failing, in every tool that gives one (ajv, strict)', async () => {
    for (const root of [OWN, PRESET]) {
      const t = await startMcp(root);
      try {
        const ajv = new Ajv2020({ strict: true, allErrors: true });
        const check = async (name: string, args: Record<string, unknown>) => {
          const r = await t.call(name, args);
          expect(r.isError ?? false, `${name} ${textOf(r)}`).toBe(false);
          const validate = ajv.compile(t.tools.find((x) => x.name === name)!.outputSchema!);
          expect(validate(r.structuredContent), `${root} ${name}: ${ajv.errorsText(validate.errors)}`).toBe(true);
          return r;
        };
        const rows = structuredOf<{ results: Row[] }>(await check('list_documents', { kind: 'skill' })).results;
        const passing = rows.find((r) => r.error === null)!;
        const failing = rows.find((r) => r.error !== null)!;
        expect(resultOf<{ kind: string }>(await check('get_document', { path: passing.path })).kind).toBe('skill');
        const failure = resultOf<Failure>(await check('get_document', { path: failing.path }));
        expect([failure.kind, failure.error]).toEqual(['skill', failing.error]);
        const text = readFileSync(join(root, failing.path), 'utf8');
        expect(structuredOf<Failure>(await check('check_content', { path: failing.path, content: text })).kind).toBe('skill');
        const report = structuredOf<{ results: Failure[] }>(await check('validate', {}));
        expect(report.results.find((r) => r.path === failing.path)?.kind).toBe('skill');
      } finally {
        await t.close();
      }
    }
  });
});
