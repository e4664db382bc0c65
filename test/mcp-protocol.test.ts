import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BIN, CONTENT, REPO, startMcp, structuredOf, textOf } from './fixtures/mcp/harness.js';
import type { McpSession } from './fixtures/mcp/harness.js';

const TOOL_NAMES = [
  'list_templates',
  'get_template',
  'list_frameworks',
  'get_framework',
  'list_processes',
  'get_process',
  'search_processes',
  'list_sysrs',
  'get_sysrs',
  'parse_sysrs',
  'list_documents',
  'get_document',
  'validate',
  'check_content',
];

const ALPHA = '11111111-1111-4111-8111-111111111111';
const BROKEN = '33333333-3333-4333-8333-333333333333';

/** Calls covering every tool and every kind of answer it gives (document, failure, not found, empty). */
const CALLS: [string, Record<string, unknown>][] = [
  ['list_templates', {}],
  ['get_template', { template_name: 'alpha' }],
  ['get_template', { template_name: 'broken' }],
  ['get_template', { template_name: 'nope' }],
  ['list_frameworks', {}],
  ['get_framework', { name: 'COSTAR.md' }],
  ['get_framework', { name: 'Broken.md' }],
  ['get_framework', { name: 'Nope.md' }],
  ['list_processes', {}],
  ['get_process', { name: 'code-review' }],
  ['get_process', { name: 'broken-key' }],
  ['get_process', { name: 'nope' }],
  ['search_processes', { query: 'deploy' }],
  ['search_processes', { query: 'zzz-nothing' }],
  ['list_sysrs', {}],
  ['list_sysrs', { language: 'de', glob: '1*' }],
  ['get_sysrs', { id: ALPHA }],
  ['get_sysrs', { id: ALPHA, raw: true, offset: 2, limit: 2, numbered: true }],
  ['get_sysrs', { id: BROKEN }],
  ['get_sysrs', { id: BROKEN, raw: true }],
  ['parse_sysrs', { content: readFileSync(join(CONTENT, 'docs/sysrs/alpha.md'), 'utf8') }],
  ['parse_sysrs', { content: 'not a document' }],
  ['list_documents', { kind: 'process' }],
  ['get_document', { kind: 'process', id: 'code-review' }],
  ['get_document', { kind: 'process', id: 'broken-key' }],
  ['validate', {}],
  ['validate', { paths: ['processes'] }],
  ['check_content', { path: 'processes/code-review.md', content: readFileSync(join(CONTENT, 'processes/code-review.md'), 'utf8') }],
  ['check_content', { path: 'processes/new.md', content: '---\nname: New\ndescription: 2025-11-02 07:34:29.518Z\n---\n\n# New\n' }],
];

let s: McpSession;
beforeAll(async () => {
  s = await startMcp(CONTENT);
});
afterAll(async () => {
  await s.close();
});

describe('docgate mcp: tools/list and schemas', () => {
  it('names all fourteen tools, each with an object input schema that has additionalProperties false', () => {
    expect(s.tools.map((t) => t.name).sort()).toEqual([...TOOL_NAMES].sort());
    for (const t of s.tools) {
      expect(t.inputSchema.type, t.name).toBe('object');
      expect((t.inputSchema as { additionalProperties?: unknown }).additionalProperties, t.name).toBe(false);
      expect(t.description?.length ?? 0, t.name).toBeGreaterThan(40);
      expect(t.annotations?.readOnlyHint, t.name).toBe(true);
    }
  });

  it('gives every tool an output schema that compiles under draft 2020-12 in strict mode', () => {
    const ajv = new Ajv2020({ strict: true, allErrors: true });
    for (const t of s.tools) {
      expect(t.outputSchema, t.name).toBeDefined();
      expect(t.outputSchema!.type, t.name).toBe('object');
      expect(() => ajv.compile(t.outputSchema!), t.name).not.toThrow();
    }
  });

  it('answers one text item plus structuredContent that validates against the tool output schema', async () => {
    const ajv = new Ajv2020({ strict: true, allErrors: true });
    const validators = new Map(s.tools.map((t) => [t.name, ajv.compile(t.outputSchema!)]));
    const covered = new Set<string>();
    for (const [name, args] of CALLS) {
      const r = await s.call(name, args);
      expect(r.isError ?? false, `${name} ${JSON.stringify(args)}: ${textOf(r)}`).toBe(false);
      expect(r.content).toHaveLength(1);
      expect(r.content[0]!.type).toBe('text');
      const validate = validators.get(name)!;
      const ok = validate(structuredOf(r));
      expect(ok, `${name} ${JSON.stringify(args)}: ${ajv.errorsText(validate.errors)}`).toBe(true);
      covered.add(name);
    }
    expect([...covered].sort()).toEqual([...TOOL_NAMES].sort());
  });
});

describe('docgate mcp: resources', () => {
  it('publishes every JSON file of schemas/ as docgate://schemas/<file> and reads it verbatim', async () => {
    const { resources } = await s.client.listResources();
    const uris = resources.map((r) => r.uri);
    for (const file of [
      'power-template.schema.json',
      'process-frontmatter.schema.json',
      'sysrs-frontmatter.schema.json',
      'sysrs-outline.json',
      'sysrs-headings.de.json',
    ]) {
      expect(uris).toContain(`docgate://schemas/${file}`);
      const read = await s.client.readResource({ uri: `docgate://schemas/${file}` });
      expect(read.contents).toHaveLength(1);
      expect((read.contents[0] as { text: string }).text).toBe(readFileSync(join(REPO, 'schemas', file), 'utf8'));
      expect(read.contents[0]!.mimeType).toBe('application/json');
    }
  });

  it('refuses an unknown or path-like resource with a JSON-RPC error and keeps serving', async () => {
    await expect(s.client.readResource({ uri: 'docgate://schemas/../package.json' })).rejects.toThrow(/Unknown resource/);
    await expect(s.client.readResource({ uri: 'docgate://schemas/nope.json' })).rejects.toThrow(/Unknown resource/);
    expect(structuredOf(await s.call('list_templates')).templates).toHaveLength(2);
  });
});

describe('docgate mcp: robustness', () => {
  it('answers bad arguments and an unknown tool with isError (no structuredContent), then serves a normal call', async () => {
    const bad: [string, Record<string, unknown>, RegExp][] = [
      ['get_sysrs', { id: 42 }, /^Invalid arguments for get_sysrs: argument 'id' must be of type string\.$/],
      ['list_sysrs', { max_results: 'ten' }, /argument 'max_results' must be of type integer/],
      ['list_sysrs', { offset: 1.5 }, /argument 'offset' must be of type integer/],
      ['get_template', {}, /missing required argument 'template_name'/],
      ['get_template', { template_name: 'alpha', extra: true }, /unknown argument 'extra'; allowed: template_name/],
      ['list_templates', { x: 1 }, /unknown argument 'x'; allowed: max_results, offset/],
      ['validate', { paths: 'processes' }, /argument 'paths' must be of type array/],
      ['get_sysrs', { id: ALPHA, raw: 'yes' }, /argument 'raw' must be of type boolean/],
    ];
    for (const [name, args, message] of bad) {
      const r = await s.call(name, args);
      expect(r.isError, name).toBe(true);
      expect(r.structuredContent, name).toBeUndefined();
      expect(textOf(r)).toMatch(message);
    }
    const unknown = await s.call('no_such_tool', {});
    expect(unknown.isError).toBe(true);
    expect(unknown.structuredContent).toBeUndefined();
    expect(textOf(unknown)).toMatch(/^Unknown tool 'no_such_tool'\. Available tools: list_templates, .*validate, check_content\.$/);
    const ok = await s.call('get_template', { template_name: 'alpha' });
    expect(ok.isError ?? false).toBe(false);
    expect(textOf(ok)).toBe(`=== ALPHA Template ===\n\n${readFileSync(join(CONTENT, 'templates/power/alpha.txt'), 'utf8')}`);
  });

  it('answers 32 concurrent calls, each with its own correct result', async () => {
    const calls: [string, Record<string, unknown>][] = [];
    for (let i = 0; i < 32; i++) calls.push(CALLS[i % CALLS.length]!);
    const expected = [];
    for (const [name, args] of calls) expected.push(await s.call(name, args));
    const got = await Promise.all(calls.map(([name, args]) => s.call(name, args)));
    expect(got).toHaveLength(32);
    for (let i = 0; i < 32; i++) expect(got[i], `${calls[i]![0]} #${i}`).toEqual(expected[i]);
  });

  it('keeps serving a fresh server after bad arguments, an unknown tool and a malformed resource read', async () => {
    const t = await startMcp(CONTENT);
    try {
      expect((await t.call('get_sysrs', { id: ['x'] })).isError).toBe(true);
      expect((await t.call('nope')).isError).toBe(true);
      await expect(t.client.readResource({ uri: 'file:///etc/passwd' })).rejects.toThrow();
      const r = await t.call('list_sysrs', {});
      expect(structuredOf<{ total: number }>(r).total).toBe(5);
    } finally {
      await t.close();
    }
  });
});

describe('docgate mcp: a client that is gone', () => {
  it('ends the server when its answers cannot be written, rather than failing to log the failure forever', async () => {
    const child = spawn(process.execPath, [BIN, 'mcp', '--root', CONTENT], { cwd: REPO, stdio: ['pipe', 'pipe', 'pipe'] });
    try {
      const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
      await new Promise<void>((resolve) => child.stderr.on('data', (c: Buffer) => String(c).includes('docgate mcp: serving') && resolve()));
      // The client's ends of stdout and stderr are gone (it died), its end of stdin not yet.
      child.stdout.destroy();
      child.stderr.destroy();
      child.stdin.write(`${JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'ping' })}\n`);
      // Before, the answer's EPIPE became an uncaught exception whose log line failed the same way, round
      // and round at 100 % CPU: the server never ended. A bound, not a measurement: it ends at once.
      const ended = await Promise.race([exited, new Promise<'running'>((resolve) => setTimeout(() => resolve('running'), 20_000))]);
      expect(ended).toBe(0);
    } finally {
      child.kill('SIGKILL');
    }
  });
});

describe('docgate mcp: stdout carries nothing but protocol', () => {
  it('writes only JSON lines to stdout, logs to stderr, and survives a malformed line', async () => {
    const child = spawn(process.execPath, [BIN, 'mcp', '--root', CONTENT], { cwd: REPO, stdio: ['pipe', 'pipe', 'pipe'] });
    let out = '';
    let err = '';
    child.stderr.on('data', (c: Buffer) => (err += c.toString('utf8')));
    const lastId = 9;
    const done = new Promise<void>((resolve) => {
      child.stdout.on('data', (c: Buffer) => {
        out += c.toString('utf8');
        if (out.split('\n').some((l) => l.includes(`"id":${lastId}`))) resolve();
      });
    });
    const send = (m: unknown): void => {
      child.stdin.write(`${JSON.stringify(m)}\n`);
    };
    send({
      jsonrpc: '2.0',
      id: 1,
      method: 'initialize',
      params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'raw', version: '0' } },
    });
    send({ jsonrpc: '2.0', method: 'notifications/initialized' });
    send({ jsonrpc: '2.0', id: 2, method: 'tools/list' });
    child.stdin.write('{this is not json\n');
    send({ jsonrpc: '2.0', id: 3, method: 'tools/call', params: { name: 'get_sysrs', arguments: { id: '../../etc/passwd' } } });
    send({ jsonrpc: '2.0', id: 4, method: 'tools/call', params: { name: 'nope', arguments: {} } });
    send({ jsonrpc: '2.0', id: 5, method: 'no/such/method' });
    send({ jsonrpc: '2.0', id: 6, method: 'resources/list' });
    send({ jsonrpc: '2.0', id: 7, method: 'tools/call', params: { name: 'validate', arguments: {} } });
    send({ jsonrpc: '2.0', id: 8, method: 'tools/call', params: { name: 'get_sysrs', arguments: { id: BROKEN, raw: true } } });
    send({ jsonrpc: '2.0', id: lastId, method: 'tools/call', params: { name: 'list_sysrs', arguments: {} } });
    await done;
    child.stdin.end();
    await new Promise((r) => child.on('close', r));
    expect(out.endsWith('\n')).toBe(true);
    const lines = out.split('\n').slice(0, -1);
    const ids = new Set<unknown>();
    for (const line of lines) {
      const msg = JSON.parse(line) as { jsonrpc: string; id?: unknown };
      expect(msg.jsonrpc).toBe('2.0');
      ids.add(msg.id);
    }
    for (let id = 1; id <= lastId; id++) expect(ids.has(id), `response ${id}`).toBe(true);
    expect(err).toMatch(/docgate mcp: serving /);
  });
});
