import { spawn } from 'node:child_process';
import type { ChildProcessWithoutNullStreams } from 'node:child_process';
import { createHash } from 'node:crypto';
import { cpSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, describe, expect, it } from 'vitest';
import { BIN, REPO } from './helpers.js';

const tmp = mkdtempSync(join(tmpdir(), 'docgate-mcp-robust-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

/** The raw server: lines in, lines out, no SDK in between. */
class RawServer {
  readonly proc: ChildProcessWithoutNullStreams;
  readonly lines: string[] = [];
  private buffer = '';
  private waiters: (() => void)[] = [];

  constructor(root: string) {
    this.proc = spawn(process.execPath, [BIN, 'mcp', '--root', root], { stdio: ['pipe', 'pipe', 'pipe'] });
    this.proc.stdout.setEncoding('utf8');
    this.proc.stdout.on('data', (chunk: string) => {
      this.buffer += chunk;
      let nl: number;
      while ((nl = this.buffer.indexOf('\n')) !== -1) {
        this.lines.push(this.buffer.slice(0, nl));
        this.buffer = this.buffer.slice(nl + 1);
      }
      for (const w of this.waiters.splice(0)) w();
    });
  }

  write(line: string): void {
    this.proc.stdin.write(`${line}\n`);
  }

  send(message: object): void {
    this.write(JSON.stringify(message));
  }

  messages(): { id?: unknown; result?: Record<string, unknown>; error?: { code: number; message: string } }[] {
    return this.lines.map((l) => JSON.parse(l));
  }

  /** Waits until a response with this id arrived (bounded by the test timeout). */
  async response(id: unknown): Promise<{ id?: unknown; result?: Record<string, unknown>; error?: { code: number; message: string } }> {
    for (;;) {
      const found = this.messages().find((m) => m.id === id && ('result' in m || 'error' in m));
      if (found) return found;
      await new Promise<void>((resolve) => this.waiters.push(resolve));
    }
  }

  stop(): void {
    this.proc.kill();
  }
}

async function initialize(s: RawServer): Promise<void> {
  s.send({
    jsonrpc: '2.0',
    id: 'init',
    method: 'initialize',
    params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'raw', version: '0' } },
  });
  await s.response('init');
  s.send({ jsonrpc: '2.0', method: 'notifications/initialized' });
}

describe('MCP server under bad input (raw stdio)', () => {
  it('answers malformed lines, invalid requests, unknown methods, wrong types and 1 MB arguments, and keeps serving', async () => {
    const s = new RawServer(REPO);
    try {
      await initialize(s);
      s.write('{this is not json');
      s.write('[1, 2, 3');
      s.send({ jsonrpc: '2.0', id: 2, method: 'no/such/method', params: {} });
      s.send({ jsonrpc: '2.0', id: 3, method: 42 });
      s.send({ jsonrpc: '2.0', id: 4, method: 'tools/call', params: { name: 'get_sysrs', arguments: { id: 42, raw: 'yes' } } });
      s.send({ jsonrpc: '2.0', id: 5, method: 'tools/call', params: { name: 'search_processes', arguments: { query: 'x'.repeat(1024 * 1024) } } });
      s.send({
        jsonrpc: '2.0',
        id: 6,
        method: 'tools/call',
        params: { name: 'parse_sysrs', arguments: { content: `---\nid: nope\n---\n${'# a\n'.repeat(200_000)}` } },
      });
      s.send({ jsonrpc: '2.0', id: 7, method: 'tools/call', params: { name: 'no_such_tool', arguments: {} } });
      s.send({ jsonrpc: '2.0', id: 8, method: 'tools/call', params: { name: 'list_templates', arguments: {} } });

      expect((await s.response(2)).error?.code).toBe(-32601);
      expect((await s.response(3)).error?.code).toBe(-32600);
      const wrongTypes = (await s.response(4)).result as unknown as CallToolResult;
      expect(wrongTypes.isError).toBe(true);
      expect(wrongTypes.structuredContent).toBeUndefined();
      const big = (await s.response(5)).result as unknown as CallToolResult;
      expect(big.isError).toBe(true);
      expect((big.content[0] as { text: string }).text).toMatch(/query/);
      const parsed = (await s.response(6)).result as unknown as CallToolResult;
      expect(parsed.isError).toBeFalsy();
      expect(JSON.stringify(parsed.structuredContent)).toContain('invalid-value');
      expect(((await s.response(7)).result as unknown as CallToolResult).isError).toBe(true);
      const normal = (await s.response(8)).result as unknown as CallToolResult;
      expect((normal.content[0] as { text: string }).text).toMatch(/^Available POWER Framework Templates:\n\n/);

      const parseErrors = s.messages().filter((m) => m.id === null && m.error?.code === -32700);
      expect(parseErrors.length).toBe(2);
      // Every line on stdout is JSON-RPC.
      for (const line of s.lines) expect(JSON.parse(line).jsonrpc).toBe('2.0');
    } finally {
      s.stop();
    }
  });
});

describe('MCP server and oversized messages', () => {
  it('answers a line over 16 MiB with an error, skips it, and serves the next request', async () => {
    const s = new RawServer(REPO);
    try {
      await initialize(s);
      s.write(`{"jsonrpc":"2.0","id":"huge","method":"tools/call","params":{"name":"parse_sysrs","arguments":{"content":"${'a'.repeat(17 * 1024 * 1024)}"}}}`);
      s.send({ jsonrpc: '2.0', id: 'after', method: 'tools/call', params: { name: 'list_frameworks', arguments: {} } });
      const after = (await s.response('after')).result as unknown as CallToolResult;
      expect((after.content[0] as { text: string }).text).toMatch(/^Available Framework Documentation:/);
      const refused = s.messages().find((m) => m.id === null && m.error?.code === -32600);
      expect(refused?.error?.message).toMatch(/larger than 16777216 bytes/);
      expect(s.messages().some((m) => m.id === 'huge')).toBe(false);
    } finally {
      s.stop();
    }
  });
});

function rssKb(pid: number): number {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  return Number(/VmRSS:\s+(\d+) kB/.exec(status)![1]);
}

describe('MCP server under load', () => {
  it('answers 100 concurrent calls correctly and its memory after the burst stays within 2x of before', async () => {
    const transport = new StdioClientTransport({ command: process.execPath, args: [BIN, 'mcp', '--root', REPO], stderr: 'pipe' });
    const client = new Client({ name: 'burst', version: '0' });
    await client.connect(transport);
    try {
      const pid = transport.pid!;
      // Warm every kind once, then take the baseline.
      const { structuredContent } = (await client.callTool({ name: 'list_sysrs', arguments: {} })) as CallToolResult;
      const id = (structuredContent as { results: { id: string }[] }).results[0]!.id;
      await client.callTool({ name: 'list_processes', arguments: {} });
      await client.callTool({ name: 'list_templates', arguments: {} });
      const before = rssKb(pid);
      const calls = Array.from({ length: 100 }, (_, i) => {
        switch (i % 5) {
          case 0:
            return {
              name: 'get_sysrs',
              arguments: { id },
              check: (r: CallToolResult) => (r.structuredContent as { result: { frontmatter: { id: string } } }).result.frontmatter.id === id,
            };
          case 1:
            return {
              name: 'get_process',
              arguments: { name: 'code-review' },
              check: (r: CallToolResult) =>
                (r.structuredContent as { result?: { slug: string }; slug?: string }).slug === 'code-review' ||
                (r.structuredContent as { result?: { slug: string } }).result?.slug === 'code-review',
            };
          case 2:
            return {
              name: 'search_processes',
              arguments: { query: 'review' },
              check: (r: CallToolResult) => (r.structuredContent as { count: number }).count > 0,
            };
          case 3:
            return { name: 'get_sysrs', arguments: { id: 'NOT-A-UUID' }, check: (r: CallToolResult) => r.isError === true };
          default:
            return { name: 'validate', arguments: {}, check: (r: CallToolResult) => (r.structuredContent as { problemCount: number }).problemCount === 0 };
        }
      });
      const results = await Promise.all(calls.map((c) => client.callTool({ name: c.name, arguments: c.arguments }) as Promise<CallToolResult>));
      results.forEach((r, i) => expect(calls[i]!.check(r), `${calls[i]!.name} #${i}: ${JSON.stringify(r).slice(0, 300)}`).toBe(true));
      const after = rssKb(pid);
      expect(after).toBeLessThanOrEqual(2 * before);
      // Still serving.
      const again = (await client.callTool({ name: 'list_frameworks', arguments: {} })) as CallToolResult;
      expect((again.content[0] as { text: string }).text).toMatch(/^Available Framework Documentation:/);
    } finally {
      await client.close();
    }
  });
});

function hashTree(root: string): Map<string, string> {
  const out = new Map<string, string>();
  const walk = (dir: string) => {
    for (const name of readdirSync(dir)) {
      const abs = join(dir, name);
      const st = statSync(abs);
      if (st.isDirectory()) walk(abs);
      else out.set(relative(root, abs), createHash('sha256').update(readFileSync(abs)).digest('hex'));
    }
  };
  walk(root);
  return out;
}

describe('MCP server whose repository thread ends as it starts', () => {
  it('answers each repository call with the reason (no hang, no crash) and keeps serving pings and pure tools', async () => {
    // `docgate mcp` starts the repository thread before it loads the server's code. Under this fault the
    // thread ends before the server listens to it (the server starts another, which ends after it does):
    // both ends are answered.
    const transport = new StdioClientTransport({
      command: process.execPath,
      args: [BIN, 'mcp', '--root', REPO],
      stderr: 'pipe',
      env: { ...process.env, DOCGATE_TEST_FAULT: 'repository-thread-exit' } as Record<string, string>,
    });
    const client = new Client({ name: 'early-exit', version: '0' });
    await client.connect(transport);
    try {
      for (const name of ['list_templates', 'list_sysrs']) {
        const r = (await client.callTool({ name, arguments: {} })) as CallToolResult;
        expect(r.isError, name).toBe(true);
        expect((r.content[0] as { text: string }).text).toBe(`${name} could not run: its worker thread stopped (exit code 3)`);
      }
      await expect(client.ping()).resolves.toEqual({});
      const parsed = (await client.callTool({ name: 'parse_sysrs', arguments: { content: '# x\n' } })) as CallToolResult;
      // The pure thread parses: its ParseFailureResult names the missing id.
      expect((parsed.content[0] as { text: string }).text).toContain('1:1 Unexpected missing key `id`');
    } finally {
      await client.close();
    }
  });
});

describe('MCP reads stay inside the root', () => {
  it('refuses documents that are symlinks to files outside the root in every tool, and never writes', async () => {
    const outside = join(tmp, 'outside');
    mkdirSync(outside, { recursive: true });
    const secret = 'SECRET-TOKEN-7f3a';
    writeFileSync(join(outside, 'secret.md'), `---\nname: Leak\n---\n# Leak\n\n${secret}\n`);
    writeFileSync(join(outside, 'secret.txt'), `framework: POWER\npurpose: ${secret}.\n`);
    const root = join(tmp, 'root');
    for (const d of ['processes', 'frameworks', 'templates', 'docs']) cpSync(join(REPO, d), join(root, d), { recursive: true });
    symlinkSync(join(outside, 'secret.md'), join(root, 'processes', 'leak.md'));
    symlinkSync(join(outside, 'secret.md'), join(root, 'frameworks', 'Leak.md'));
    symlinkSync(join(outside, 'secret.txt'), join(root, 'templates', 'power', 'leak.txt'));
    symlinkSync(join(outside, 'secret.md'), join(root, 'docs', 'sysrs', 'leak.md'));
    const before = hashTree(root);

    const transport = new StdioClientTransport({ command: process.execPath, args: [BIN, 'mcp', '--root', root], stderr: 'pipe' });
    const client = new Client({ name: 'leak', version: '0' });
    await client.connect(transport);
    try {
      const calls: [string, Record<string, unknown>][] = [
        ['list_processes', {}],
        ['get_process', { name: 'leak' }],
        ['search_processes', { query: 'SECRET' }],
        ['list_frameworks', {}],
        ['get_framework', { name: 'Leak.md' }],
        ['list_templates', {}],
        ['get_template', { template_name: 'leak' }],
        ['list_sysrs', { max_results: 100 }],
        ['validate', {}],
      ];
      for (const [name, args] of calls) {
        const r = (await client.callTool({ name, arguments: args })) as CallToolResult;
        expect(JSON.stringify(r), name).not.toContain(secret);
      }
      const leak = (await client.callTool({ name: 'get_process', arguments: { name: 'leak' } })) as CallToolResult;
      expect(JSON.stringify(leak.structuredContent)).toContain('file-symlink');
    } finally {
      await client.close();
    }
    expect(hashTree(root)).toEqual(before);
  });
});
