import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rulesOf } from '../src/kinds/index.js';
import { CONTENT, copyRoot, startMcp, resultOf, structuredOf } from './fixtures/mcp/harness.js';
import type { McpSession } from './fixtures/mcp/harness.js';
import { asServed, runCli, treeHash } from './helpers.js';

/**
 * The agent's repair loop over MCP (SPEC §11), through the SDK client over stdio: failing get answers
 * carry the text, check_content checks proposed text for every kind against the live repository,
 * failed list rows keep a valid id, every rule is a resource, and the prompt `repair` ties them up.
 * The server never writes: the root's hash is the same before and after every call here.
 */
const ALPHA = '11111111-1111-4111-8111-111111111111';
const BROKEN = '33333333-3333-4333-8333-333333333333';

/** A kind of the root's own (SPEC §9): architecture decision records. */
const ADR_FILES: Record<string, string> = {
  'docgate.config.yaml': 'kinds:\n  adr:\n    include: ["docs/adr/*.md"]\n    id: frontmatter\n    frontmatter: adr.schema.json\n',
  'schemas/adr.schema.json': JSON.stringify(
    {
      $schema: 'https://json-schema.org/draft/2020-12/schema',
      type: 'object',
      properties: { id: { type: 'string', pattern: '^ADR-[0-9]{4}$' }, status: { enum: ['proposed', 'accepted'] } },
      required: ['id', 'status'],
      additionalProperties: false,
    },
    null,
    2,
  ),
  'docs/adr/0001-use-docgate.md': '---\nid: ADR-0001\nstatus: accepted\n---\n\n# ADR: Use docgate\n\nLint the content.\n',
};

let root: string;
let s: McpSession;
let hashBefore: string;

const text = (rel: string): string => readFileSync(join(root, rel), 'utf8');

beforeAll(async () => {
  root = copyRoot(CONTENT, 'docgate-mcp-repair-');
  for (const [path, body] of Object.entries(ADR_FILES)) {
    mkdirSync(dirname(join(root, path)), { recursive: true });
    writeFileSync(join(root, path), body);
  }
  hashBefore = treeHash(root);
  s = await startMcp(root);
});

afterAll(async () => {
  await s.close();
  rmSync(root, { recursive: true, force: true });
});

interface Failure {
  id: string;
  path: string;
  kind: string;
  error: string;
  diagnostics: { line: number; column: number; rule: string; message: string; fix?: unknown }[];
  content?: string;
  fixed_content?: string;
}

/** lint's own result for one path of the root (json report). */
function lintResult(path: string): Failure | undefined {
  const r = runCli(['lint', '--root', root, '--format', 'json', path], { cwd: root });
  const found = (JSON.parse(r.stdout) as { results: Failure[] }).results.find((x) => x.path === path);
  return found && asServed(found);
}

async function check(path: string, content: string): Promise<Failure & { valid?: true; warnings?: string }> {
  return structuredOf<Failure & { valid?: true }>(await s.call('check_content', { path, content }));
}

describe('failing get answers carry the text to repair', () => {
  it('get_process, get_template, get_sysrs, get_framework and get_document: the ParseFailureResult plus content', async () => {
    const process = resultOf<Failure>(await s.call('get_process', { name: 'broken-key' }));
    expect(process.content).toBe(text('processes/broken-key.md'));
    expect(process.error).toBe(lintResult('processes/broken-key.md')!.error);
    const template = structuredOf<{ result: Failure }>(await s.call('get_template', { template_name: 'broken' })).result;
    expect(template.content).toBe(text('templates/power/broken.txt'));
    expect(template.kind).toBe('template');
    const sysrs = structuredOf<{ result: Failure }>(await s.call('get_sysrs', { id: BROKEN })).result;
    expect(sysrs.content).toBe(text('docs/sysrs/broken-outline.md'));
    const framework = structuredOf<{ result: Failure }>(await s.call('get_framework', { name: 'Broken.md' })).result;
    expect(framework.content).toBe(text('frameworks/Broken.md'));
    const doc = structuredOf<{ result: Failure }>(await s.call('get_document', { kind: 'process', id: 'broken-key' })).result;
    expect(doc).toEqual(process);
    // A document that parses has no such field added.
    expect(resultOf<Record<string, unknown>>(await s.call('get_process', { name: 'code-review' }))).not.toHaveProperty('error');
  });
});

describe('check_content', () => {
  it('answers {valid: true} for the text of a valid document of each kind', async () => {
    for (const path of [
      'templates/power/alpha.txt',
      'frameworks/COSTAR.md',
      'processes/code-review.md',
      'docs/sysrs/alpha.md',
      'docs/adr/0001-use-docgate.md',
    ]) {
      expect(await check(path, text(path)), path).toEqual({ valid: true });
    }
  });

  it("answers lint's very result for the bytes on disk of a failing document of each kind", async () => {
    for (const path of [
      'templates/power/broken.txt',
      'frameworks/Broken.md',
      'processes/broken-key.md',
      'docs/sysrs/broken-outline.md',
      'processes/dup-two.md',
    ]) {
      const lintOwn = lintResult(path)!;
      const answer = await check(path, text(path));
      expect(answer, path).toEqual(lintOwn);
    }
    const adr = await check('docs/adr/0002-new.md', '---\nid: ADR-2\nstatus: accepted\n---\n\n# ADR: New\n');
    expect(adr.kind).toBe('adr');
    expect(adr.diagnostics.map((d) => d.rule)).toEqual(['invalid-value']);
  });

  it('finds clashes with the live repository before the file is written (a duplicate name, id or store_as)', async () => {
    const process = await check('processes/peer-review.md', '---\nname: Peer Check\n---\n\n# Peer Check\n\nAnother one.\n');
    expect(process.diagnostics.map((d) => d.rule)).toContain('process-duplicate-name');
    const sysrs = await check('docs/sysrs/gamma.md', text('docs/sysrs/alpha.md'));
    expect(sysrs.diagnostics.map((d) => d.rule)).toContain('sysrs-duplicate-id');
    const template = await check('templates/power/gamma.txt', text('templates/power/alpha.txt').replace('ALPHA.md', 'GAMMA.md'));
    expect(template.diagnostics.map((d) => d.rule)).toContain('template-duplicate-store-as');
    const adr = await check('docs/adr/0002-again.md', ADR_FILES['docs/adr/0001-use-docgate.md']!);
    expect(adr.diagnostics.map((d) => d.rule)).toEqual(['adr-duplicate-id']);
    // Checking the same text at its own path is no clash.
    expect(await check('docs/adr/0001-use-docgate.md', ADR_FILES['docs/adr/0001-use-docgate.md']!)).toEqual({ valid: true });
  });

  it('adds fixed_content when fixes apply, for each kind, and that text checks valid', async () => {
    const cases: [string, string][] = [
      ['templates/power/alpha.txt', text('templates/power/alpha.txt').replace('framework: POWER', 'Framework: POWER')],
      ['frameworks/COSTAR.md', `\uFEFF${text('frameworks/COSTAR.md')}`],
      ['processes/code-review.md', text('processes/code-review.md').replace(/^description: (.*)$/m, 'description: 2025-11-02 07:34:29.518Z')],
      ['docs/sysrs/alpha.md', text('docs/sysrs/alpha.md').replace(/^- REQ ([0-9a-f-]{36})/m, (_m, id: string) => `- REQ ${id.toUpperCase()}`)],
      ['docs/adr/0001-use-docgate.md', `\uFEFF${ADR_FILES['docs/adr/0001-use-docgate.md']!}`],
    ];
    for (const [path, proposed] of cases) {
      const answer = await check(path, proposed);
      expect(answer.error, path).toBeDefined();
      expect(
        answer.diagnostics.some((d) => d.fix !== undefined),
        path,
      ).toBe(true);
      expect(answer.fixed_content, path).toBeDefined();
      expect(await check(path, answer.fixed_content!), path).toEqual({ valid: true });
    }
  });

  it('refuses a path that is no document, or not a root-relative path, before reading anything', async () => {
    for (const path of ['../outside.md', '/etc/passwd', 'processes/../secret.md', 'notes/readme.md', 'processes\\x.md']) {
      const r = await s.call('check_content', { path, content: 'x' });
      expect(r.isError, path).toBe(true);
    }
  });
});

describe('failed list rows keep a valid id', () => {
  it('list_sysrs and list_documents carry the frontmatter id of a failed row when it is a valid UUID, null otherwise', async () => {
    const rows = structuredOf<{ results: { path: string; id: string | null; error: string | null }[] }>(await s.call('list_sysrs')).results;
    expect(rows.find((r) => r.path === 'docs/sysrs/broken-outline.md')).toMatchObject({ id: BROKEN, error: expect.any(String) });
    expect(rows.find((r) => r.path === 'docs/sysrs/no-id.md')).toMatchObject({ id: null });
    const docs = structuredOf<{ results: { path: string; id: string | null }[] }>(await s.call('list_documents', { kind: 'sysrs' })).results;
    expect(docs.find((r) => r.path === 'docs/sysrs/broken-outline.md')!.id).toBe(BROKEN);
    // The advice of the description can be followed: the id reads the full result.
    const full = structuredOf<{ result: Failure }>(await s.call('get_sysrs', { id: BROKEN })).result;
    expect(full.error).toBe(rows.find((r) => r.path === 'docs/sysrs/broken-outline.md')!.error);
    expect(structuredOf<{ results: { id: string }[] }>(await s.call('list_sysrs', { glob: '*' })).results.map((r) => r.id)).toEqual([
      ALPHA,
      '22222222-2222-4222-8222-222222222222',
    ]);
  });
});

describe('rules as resources, and the prompt repair', () => {
  it("lists docgate://rules/<id> for every rule of the registry and of the root's kinds, and reads each from the registry", async () => {
    const { resources } = await s.client.listResources();
    const uris = new Set(resources.map((r) => r.uri));
    for (const id of rulesOf().keys()) expect(uris.has(`docgate://rules/${id}`), id).toBe(true);
    expect(uris.has('docgate://rules/adr-duplicate-id')).toBe(true);
    const read = await s.client.readResource({ uri: 'docgate://rules/template-field-order' });
    const rule = JSON.parse((read.contents[0] as { text: string }).text) as {
      id: string;
      description: string;
      fixable: boolean;
      examples: { notOk: { output?: string }[] };
    };
    const entry = rulesOf().get('template-field-order')!;
    expect(rule).toMatchObject({ id: 'template-field-order', description: entry.rule.description, fixable: true, kinds: ['template'] });
    expect(rule.examples.notOk[0]!.output).toBe(entry.rule.examples.notOk[0]!.output);
    // A rule that is off unless configured reads as off, as docs/rules.md says it.
    const off = await s.client.readResource({ uri: 'docgate://rules/link-target' });
    expect(JSON.parse((off.contents[0] as { text: string }).text)).toMatchObject({ id: 'link-target', severity: 'off' });
    await expect(s.client.readResource({ uri: 'docgate://rules/no-such-rule' })).rejects.toThrow(/Unknown resource/);
  });

  it('lists the prompt repair and gives the document, its diagnostics and the rules they cite', async () => {
    const { prompts } = await s.client.listPrompts();
    expect(prompts.map((p) => p.name)).toEqual(['repair']);
    expect(prompts[0]!.arguments).toEqual([expect.objectContaining({ name: 'path', required: true })]);
    const got = await s.client.getPrompt({ name: 'repair', arguments: { path: 'processes/broken-key.md' } });
    expect(got.messages).toHaveLength(1);
    const message = got.messages[0]!;
    expect(message.role).toBe('user');
    const body = (message.content as { type: 'text'; text: string }).text;
    expect(body).toContain(text('processes/broken-key.md'));
    expect(body).toContain(lintResult('processes/broken-key.md')!.error);
    expect(body).toContain(`\`unknown-key\`: ${rulesOf().get('unknown-key')!.rule.description}`);
    expect(body).toContain('docgate://rules/unknown-key');
    expect(body).toContain('check_content');
    await expect(s.client.getPrompt({ name: 'repair', arguments: { path: '../x.md' } })).rejects.toThrow(/Invalid path/);
    await expect(s.client.getPrompt({ name: 'nope', arguments: {} })).rejects.toThrow(/Unknown prompt/);
  });

  it('wrote nothing: the root hashes as before', () => {
    expect(treeHash(root)).toBe(hashBefore);
  });
});

describe('the repair prompt calls fixable only what check_content fixes in that document', () => {
  let r: McpSession;
  let dir: string;
  beforeAll(async () => {
    dir = copyRoot(CONTENT, 'docgate-mcp-repair-fixable-');
    mkdirSync(join(dir, 'schemas'), { recursive: true });
    writeFileSync(
      join(dir, 'schemas', 'process-frontmatter.schema.json'),
      '{\n  "$ref": "https://docgate.dev/schemas/process-frontmatter.schema.json",\n  "properties": { "description": { "maxLength": 20 } },\n  "unevaluatedProperties": false\n}\n',
    );
    writeFileSync(
      join(dir, 'processes', 'too-long.md'),
      '---\nname: Too long\ndescription: Ships the web app to production, then tells the team\n---\n\n# Too long\n\nDo it.\n',
    );
    r = await startMcp(dir);
  });
  afterAll(async () => {
    await r.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('an invalid-value with no fix is not called fixable (check_content gives no fixed_content for it)', async () => {
    const got = await r.client.getPrompt({ name: 'repair', arguments: { path: 'processes/too-long.md' } });
    const body = (got.messages[0]!.content as { type: 'text'; text: string }).text;
    expect(body).toContain(`- \`invalid-value\`: ${rulesOf().get('invalid-value')!.rule.description}. More: docgate://rules/invalid-value`);
    expect(body).not.toContain('(fixable');
    const checked = structuredOf<{ fixed_content?: string }>(
      await r.call('check_content', { path: 'processes/too-long.md', content: readFileSync(join(dir, 'processes', 'too-long.md'), 'utf8') }),
    );
    expect(checked.fixed_content).toBeUndefined();
  });
});
