/**
 * Issue 11, the MCP server's part: long work never blocks the protocol (item 11), a replaced content
 * folder is never answered stale (12), every request received before stdin closes is answered (14), and
 * the protocol edges of item 15 (batches, malformed params, back-pressure) plus stylish's printing of
 * file names. Every test runs the BUILT server (or CLI) as a child process and asserts answers and their
 * order, never times.
 */
import { spawnSync } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import type { ProcessDoc } from '../src/model/analysis.js';
import type { Repository } from '../src/lint/repository.js';
import { loadProject } from '../src/project/project.js';
import { parseSysrs } from '../src/mcp/tools/sysrs/parse_sysrs.js';
import { foldCase } from '../src/mcp/substring.js';
import { scoreProcess } from '../src/mcp/tools/process/search_processes.js';
import { BIN, CONTENT, FS_SPY, REPO, startMcp, structuredOf } from './fixtures/mcp/harness.js';
import { RawMcp, call } from './fixtures/mcp/raw.js';
import { asValidate, runCli } from './helpers.js';

const tmp = mkdtempSync(join(tmpdir(), 'docgate-hardening-mcp-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));
const MIB2 = 2 * 1024 * 1024;
const ping = (id: unknown) => ({ jsonrpc: '2.0', id, method: 'ping' });

/** A SysRS of about `size` bytes whose body is `### x` headings (349,000 in 2 MiB), each one a finding: slow to parse. */
function headingsSysrs(size: number): string {
  const head = '---\nid: 7d1f3c2a-9b8e-4f6d-a5c4-3b2a1f0e9d8c\n---\n\n# System Requirements Specification: Stall\n\n';
  return `${head}${'### x\n'.repeat(Math.floor((size - head.length) / 6))}`;
}

/** What a tool answers for `parse_sysrs {content}` on `root`, computed in this process by the tool itself. */
function parsedHere(root: string, content: string): { text: string; structured: unknown } {
  const ctx = { root, repo: null as unknown as Repository, project: () => loadProject(root) };
  const out = parseSysrs.handler({ content }, ctx);
  return { text: out.text, structured: out.structured };
}

describe('item 11: long work does not block the protocol', () => {
  it('answers a ping sent with five 2 MiB parse_sysrs calls before any of them, and answers all five correctly', async () => {
    const body = headingsSysrs(MIB2);
    const s = new RawMcp(CONTENT);
    try {
      await s.initialize();
      const ids = ['p1', 'p2', 'p3', 'p4', 'p5'];
      s.send(...ids.map((id) => call(id, 'parse_sysrs', { content: body })), ping('ping'));
      for (const id of ids) await s.response(id);
      const pong = await s.response('ping');
      expect(pong.result).toEqual({});
      for (const id of ids) expect(s.indexOf(id), `${id} after the ping`).toBeGreaterThan(s.indexOf('ping'));
      const expected = parsedHere(CONTENT, body);
      for (const id of ids) {
        const r = (await s.response(id)).result as { content: { type: string; text: string }[]; structuredContent: unknown; isError?: boolean };
        expect(r.isError, id).toBeUndefined();
        expect(r.content).toEqual([{ type: 'text', text: expected.text }]);
        expect(r.structuredContent).toEqual(expected.structured);
      }
    } finally {
      s.stop();
    }
  });

  it('keeps serving when a tool call runs out of memory (64 MB heaps): the call alone fails, the next one runs', async () => {
    const body = headingsSysrs(MIB2);
    const s = new RawMcp(CONTENT, { NODE_OPTIONS: '--max-old-space-size=64' });
    try {
      await s.initialize();
      s.send(call('big', 'parse_sysrs', { content: body }), call('list', 'list_templates', {}));
      const big = (await s.response('big')).result as { isError?: boolean; content: { text: string }[]; structuredContent?: unknown };
      // Either its answer (should the parse ever fit in 64 MB) or an error naming the call; never no answer.
      if (big.isError) expect(big.content[0]!.text).toMatch(/^parse_sysrs could not run: its worker thread failed: .*memory/);
      else expect(big.structuredContent).toEqual(parsedHere(CONTENT, body).structured);
      expect(((await s.response('list')).result as { content: { text: string }[] }).content[0]!.text).toMatch(/^Available POWER Framework Templates:/);
      const alpha = readFileSync(join(CONTENT, 'docs/sysrs/alpha.md'), 'utf8');
      s.send(call('small', 'parse_sysrs', { content: alpha }), ping('ping'));
      const parsed = parsedHere(CONTENT, alpha);
      expect((await s.response('small')).result).toEqual({ content: [{ type: 'text', text: parsed.text }], structuredContent: parsed.structured });
      expect((await s.response('ping')).result).toEqual({});
    } finally {
      s.stop();
    }
  });

  it('answers a ping sent during a 4,096-character search over three 2 MiB processes first, and the search correctly', async () => {
    const root = join(tmp, 'search');
    mkdirSync(join(root, 'processes'), { recursive: true });
    // `a` × 2,047, `b`, `a` × 2,048 over bodies of `a`: the worst case of a backtracking RegExp and of V8's indexOf.
    const query = `${'a'.repeat(2047)}b${'a'.repeat(2048)}`;
    const head = (name: string) => `---\nname: ${name}\ndescription: d\n---\n`;
    const fill = (name: string, n: number) => 'a'.repeat(MIB2 - head(name).length - n);
    writeFileSync(join(root, 'processes', 'one.md'), `${head('one')}${fill('one', 1)}\n`);
    writeFileSync(join(root, 'processes', 'two.md'), `${head('two')}${fill('two', query.length + 1001)}${query}${'a'.repeat(1000)}\n`);
    writeFileSync(join(root, 'processes', 'three.md'), `${head('three')}${fill('three', 1)}\n`);
    // The fs spy logs each file access under the root to stderr as it happens: the first one after the
    // search began (the tool reading the rule files) shows that the search's work is under way.
    const s = new RawMcp(root, { DOCGATE_MCP_DEBUG: '1', NODE_OPTIONS: `--import ${FS_SPY}`, DOCGATE_SPY_ROOT: root });
    try {
      await s.initialize();
      s.send(call('list', 'list_processes', {}));
      await s.response('list');
      s.send(call('search', 'search_processes', { query }));
      await s.until(() => /search_processes begin\n(.*\n)*FS /.test(s.stderr));
      s.send(ping('ping'));
      await s.response('ping');
      const search = (await s.response('search')).result as { structuredContent: unknown; content: { text: string }[] };
      expect(s.indexOf('ping')).toBeLessThan(s.indexOf('search'));
      const content = readFileSync(join(root, 'processes', 'two.md'), 'utf8').slice(head('two').length);
      const at = content.indexOf('b') - 2047;
      const snippet = `...${content.slice(at - 50, at + query.length + 50)}...`;
      const expected = { results: [{ name: 'two', slug: 'two', description: 'd', relevance_score: 0.05, snippet }], query, count: 1, total_processes: 3 };
      expect(search.structuredContent).toEqual(expected);
      expect(search.content[0]!.text).toBe(JSON.stringify(expected, null, 2));
    } finally {
      s.stop();
    }
  });

  it('scores and cuts snippets exactly as the case-insensitive Unicode RegExp did, for any text', () => {
    // The matcher before issue 11 (O(text × query)), kept here as the oracle.
    const escapeRegExp = (t: string) => t.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
    const oracle = (doc: ProcessDoc, query: string) => {
      const re = new RegExp(escapeRegExp(query), 'giu');
      const test = (s: string): boolean => {
        re.lastIndex = 0;
        return re.test(s);
      };
      let points = (test(doc.name) ? 100 : 0) + (test(doc.description) ? 50 : 0);
      re.lastIndex = 0;
      let first = -1;
      let firstLength = 0;
      let occurrences = 0;
      for (const m of doc.content.matchAll(re)) {
        if (first === -1) {
          first = m.index;
          firstLength = m[0].length;
        }
        occurrences++;
      }
      points += Math.min(50, occurrences * 10);
      if (points === 0) return null;
      let snippet = '';
      if (first !== -1) {
        const start = Math.max(0, first - 50);
        const end = Math.min(doc.content.length, first + firstLength + 50);
        snippet = `${start > 0 ? '...' : ''}${doc.content.slice(start, end)}${end < doc.content.length ? '...' : ''}`;
      }
      return { name: doc.name, slug: doc.slug, description: doc.description, relevance_score: Math.round((points / 200) * 100) / 100, snippet };
    };
    // Letters whose case rules are special (dotted and dotless i, long s, final sigma, Kelvin sign, sharp s,
    // micro sign, Greek symbol forms, Cherokee), astral letters, lone surrogates, and plain text.
    const pieces = [
      'a',
      'A',
      'b',
      'i',
      'I',
      'İ',
      'ı',
      's',
      'S',
      'ſ',
      'σ',
      'ς',
      'Σ',
      'ΟΔΟΣ',
      'k',
      'K',
      '\u212a',
      'ß',
      'ẞ',
      'SS',
      'µ',
      'μ',
      'Μ',
      'ϐ',
      'β',
      'ᲀ',
      'в',
      'ꭰ',
      'Ꭰ',
      'ǅ',
      'ǆ',
      'Ǆ',
      'é',
      'É',
      '\u0345',
      'ι',
      '𐐀',
      '𐐨',
      '\ud801',
      '\udc00',
      ' ',
      '\n',
      'x'.repeat(60),
    ];
    const text = (max: number) => fc.array(fc.constantFrom(...pieces), { maxLength: max }).map((p) => p.join(''));
    const needle = fc.array(fc.constantFrom(...pieces.filter((p) => p.length < 10)), { minLength: 1, maxLength: 4 }).map((p) => p.join(''));
    fc.assert(
      fc.property(text(6), text(6), text(40), needle, (name, description, content, query) => {
        const doc: ProcessDoc = { kind: 'process', name, slug: 'x', description, content };
        expect(scoreProcess(doc, query)).toEqual(oracle(doc, query));
        // A query cut from the text itself always matches it.
        if (content.length > 2) {
          const cut = content.slice(1, Math.min(content.length - 1, 6));
          expect(scoreProcess(doc, cut)).toEqual(oracle(doc, cut));
        }
      }),
      { numRuns: 3000, seed: 11 },
    );
  });

  it('folds every code point as the RegExp compares it, keeping its length', () => {
    const escaped = (t: string) => t.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');
    const wrong: string[] = [];
    for (let cp = 0; cp <= 0x10ffff; cp++) {
      if (cp >= 0xd800 && cp <= 0xdfff) continue;
      const c = String.fromCodePoint(cp);
      const fold = foldCase(c);
      // A character without a lower or upper case (most of them) folds to itself; the RegExp is built
      // for the others only (about 2,900; all 1.1 million take 17 s).
      if (c.toLowerCase() === c && c.toUpperCase() === c) {
        if (fold !== c) wrong.push(`${cp.toString(16)} folds to ${fold}`);
        continue;
      }
      const same = new RegExp(`^${escaped(c)}$`, 'iu');
      if (fold.length !== c.length || !same.test(fold)) wrong.push(`${cp.toString(16)} folds to ${fold}`);
      for (const other of [c.toLowerCase(), c.toUpperCase()]) {
        if ([...other].length === 1 && same.test(other) !== (foldCase(other) === fold)) wrong.push(`${cp.toString(16)} and ${other}`);
      }
    }
    expect(wrong).toEqual([]);
  });
});

/** `docgate lint --format json` of the root, as CI runs it. */
function lintJson(root: string): unknown {
  const r = spawnSync(process.execPath, [BIN, 'lint', '--root', root, '--format', 'json'], { cwd: REPO, encoding: 'utf8' });
  expect(r.stderr).toBe('');
  return asValidate(JSON.parse(r.stdout));
}

describe('item 12: a content folder replaced, deleted or created while the server runs', () => {
  /** Folder replaced as `mv F F.old && cp -r F.old F`, and a document in the new folder edited twice. */
  const replaced: [folder: string, edit: string, again: string][] = [
    ['templates', 'templates/power/alpha.txt', 'templates/power/beta.txt'],
    ['templates/power', 'templates/power/alpha.txt', 'templates/power/beta.txt'],
    ['processes', 'processes/code-review.md', 'processes/deployment.md'],
    ['docs', 'docs/sysrs/alpha.md', 'docs/sysrs/beta.md'],
    ['docs/sysrs', 'docs/sysrs/alpha.md', 'docs/sysrs/beta.md'],
    ['docs/sysrs/de', 'docs/sysrs/de/alpha.md', 'docs/sysrs/de/beta.md'],
  ];

  /** Runs `steps` against a server on `root`; `same()` asserts that validate answers what lint says now. */
  async function againstLint(root: string, steps: (same: () => Promise<void>) => Promise<void>): Promise<void> {
    const s = await startMcp(root);
    try {
      await steps(async () => expect(structuredOf(await s.call('validate'))).toEqual(lintJson(root)));
    } finally {
      await s.close();
    }
  }

  /** A copy of the fixture root under this file's temporary folder. */
  const copy = (name: string) => {
    const root = join(tmp, name);
    cpSync(CONTENT, root, { recursive: true });
    return root;
  };

  it.each(replaced)('answers validate as lint does after %s/ is replaced by a copy and then edited', async (folder, edit, again) => {
    const root = copy(`replaced-${folder.replace(/\//g, '-')}`);
    await againstLint(root, async (same) => {
      await same();
      renameSync(join(root, folder), join(root, `${folder}.old`));
      cpSync(join(root, `${folder}.old`), join(root, folder), { recursive: true });
      await same();
      writeFileSync(join(root, edit), 'broken after the folder was replaced\n');
      await same();
      writeFileSync(join(root, again), '');
      await same();
      // The old folder is not content any more: its changes change nothing.
      writeFileSync(join(root, `${folder}.old`, 'stray.md'), 'x');
      await same();
    });
  });

  it('answers as lint does when a folder is deleted, created again (its inode reused) and edited', async () => {
    const root = copy('recreated');
    await againstLint(root, async (same) => {
      await same();
      for (const folder of ['processes', 'docs/sysrs', 'templates/power']) {
        const keep = join(tmp, `keep-${folder.replace(/\//g, '-')}`);
        cpSync(join(root, folder), keep, { recursive: true });
        rmSync(join(root, folder), { recursive: true });
        await same();
        mkdirSync(join(root, folder));
        cpSync(keep, join(root, folder), { recursive: true });
        await same();
        writeFileSync(join(root, folder, folder === 'templates/power' ? 'alpha.txt' : 'alpha.md'), '');
        await same();
      }
    });
  });

  it('answers as lint does for kind folders and docs/ created after the server started, then edited', async () => {
    const root = join(tmp, 'late');
    mkdirSync(join(root, 'frameworks'), { recursive: true });
    writeFileSync(join(root, 'frameworks', 'One.md'), '# One\n\nText.\n');
    await againstLint(root, async (same) => {
      await same();
      for (const folder of ['templates', 'processes', 'docs']) cpSync(join(CONTENT, folder), join(root, folder), { recursive: true });
      await same();
      for (const file of ['templates/power/alpha.txt', 'processes/code-review.md', 'docs/sysrs/alpha.md', 'docs/sysrs/de/alpha.md']) {
        writeFileSync(join(root, file), '');
        await same();
      }
    });
  });
});

describe('item 14: stdin closed with requests in flight', () => {
  const requests = [
    call(1, 'list_templates', {}),
    call(2, 'validate', {}),
    call(3, 'parse_sysrs', { content: readFileSync(join(CONTENT, 'docs/sysrs/alpha.md'), 'utf8') }),
    call(4, 'search_processes', { query: 'review' }),
    call(5, 'get_sysrs', { id: '11111111-1111-4111-8111-111111111111', raw: true }),
  ];

  it('answers all five requests piped with stdin closed behind them, then exits 0', async () => {
    // The answers of a session that stays open, for comparison.
    const open = new RawMcp(CONTENT);
    await open.initialize();
    open.send(...requests);
    const expected = [];
    for (let id = 1; id <= 5; id++) expected.push(await open.response(id));
    open.stop();

    const s = new RawMcp(CONTENT);
    s.send(
      { jsonrpc: '2.0', id: 0, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'raw', version: '0' } } },
      { jsonrpc: '2.0', method: 'notifications/initialized' },
      ...requests,
    );
    s.proc.stdin.end();
    expect(await s.exited).toBe(0);
    const answers = s.messages() as { id: unknown }[];
    expect(answers.map((m) => m.id).sort()).toEqual([0, 1, 2, 3, 4, 5]);
    for (let id = 1; id <= 5; id++)
      expect(
        answers.find((m) => m.id === id),
        `id ${id}`,
      ).toEqual(expected[id - 1]);
  });

  it('answers five parse_sysrs calls still running when stdin closes', async () => {
    const body = headingsSysrs(256 * 1024);
    const s = new RawMcp(CONTENT);
    await s.initialize();
    s.send(...[1, 2, 3, 4, 5].map((id) => call(id, 'parse_sysrs', { content: body })));
    s.proc.stdin.end();
    expect(await s.exited).toBe(0);
    const expected = parsedHere(CONTENT, body);
    const answers = s.messages() as { id: unknown; result: { structuredContent: unknown } }[];
    expect(answers.map((m) => m.id).sort()).toEqual([1, 2, 3, 4, 5, 'init']);
    for (const a of answers.filter((m) => m.id !== 'init')) expect(a.result.structuredContent).toEqual(expected.structured);
  });
});

describe('item 15: protocol edges', () => {
  it('answers a batch with one array of -32600 errors, an empty batch with one error, and a batch of notifications with nothing', async () => {
    const s = new RawMcp(CONTENT);
    try {
      await s.initialize();
      s.write(
        `${JSON.stringify([ping(1), { jsonrpc: '2.0', method: 'notifications/x' }, call('b', 'list_templates', {}), 5, { jsonrpc: '2.0', id: 7, result: {} }])}\n`,
      );
      s.write('[]\n');
      s.write(`${JSON.stringify([{ jsonrpc: '2.0', method: 'notifications/x' }])}\n`);
      s.send(ping('after'));
      await s.response('after');
      const unsupported = (id: unknown) => ({
        jsonrpc: '2.0',
        id,
        error: { code: -32600, message: 'Invalid Request: batch requests are not supported; send one JSON-RPC message per line' },
      });
      expect(s.messages()).toEqual([
        { result: expect.any(Object), jsonrpc: '2.0', id: 'init' },
        [unsupported(1), unsupported('b'), unsupported(null)],
        { jsonrpc: '2.0', id: null, error: { code: -32600, message: 'Invalid Request: an empty batch' } },
        { result: {}, jsonrpc: '2.0', id: 'after' },
      ]);
    } finally {
      s.stop();
    }
  });

  it('answers params that fail the SDK schema with -32602 and a short message, for tools/call and other methods', async () => {
    const s = new RawMcp(CONTENT);
    try {
      await s.initialize();
      s.send(
        call(1, 'list_templates', 'x'),
        call(2, 'list_templates', null),
        { jsonrpc: '2.0', id: 3, method: 'tools/call' },
        { jsonrpc: '2.0', id: 4, method: 'tools/call', params: { arguments: {} } },
        { jsonrpc: '2.0', id: 5, method: 'resources/read', params: { uri: 5 } },
        { jsonrpc: '2.0', id: 6, method: 'initialize', params: { protocolVersion: 2025, capabilities: {}, clientInfo: { name: 'raw', version: '0' } } },
        call(7, 'list_templates', {}),
      );
      const errors: [number, string][] = [
        [1, 'Invalid params for tools/call: unexpected string at params.arguments, expected an object'],
        [2, 'Invalid params for tools/call: unexpected null at params.arguments, expected an object'],
        [3, 'Invalid params for tools/call: missing params, expected an object'],
        [4, 'Invalid params for tools/call: missing params.name, expected a string'],
        [5, 'Invalid params for resources/read: unexpected number at params.uri, expected a string'],
        [6, 'Invalid params for initialize: unexpected number at params.protocolVersion, expected a string'],
      ];
      for (const [id, message] of errors) expect(await s.response(id), `id ${id}`).toEqual({ jsonrpc: '2.0', id, error: { code: -32602, message } });
      expect(((await s.response(7)).result as { content: { text: string }[] }).content[0]!.text).toMatch(/^Available POWER Framework Templates:/);
    } finally {
      s.stop();
    }
  });

  it('answers 30 large results to a client that stops reading, without piling up drain listeners', async () => {
    const root = join(tmp, 'big');
    mkdirSync(join(root, 'frameworks'), { recursive: true });
    const big = `# Big\n\n${'word '.repeat(200_000)}\n`;
    writeFileSync(join(root, 'frameworks', 'Big.md'), big);
    const s = new RawMcp(root, { DOCGATE_MCP_DEBUG: '1' });
    await s.initialize();
    s.proc.stdout.pause();
    s.send(...Array.from({ length: 30 }, (_, i) => call(i + 1, 'get_framework', { name: 'Big.md' })));
    await s.until(() => s.stderr.includes('call #30 get_framework end'));
    s.proc.stdout.resume();
    for (let id = 1; id <= 30; id++) {
      const r = (await s.response(id)).result as { content: { text: string }[] };
      expect(r.content[0]!.text, `id ${id}`).toBe(big);
    }
    s.proc.stdin.end();
    expect(await s.exited).toBe(0);
    expect(s.stderr).not.toMatch(/MaxListenersExceededWarning|Warning/);
  });
});

describe('item 15: stylish escapes control characters in file names', () => {
  it('prints C0, DEL and C1 characters of a path as \\x escapes; the JSON path stays the real one', () => {
    const root = join(tmp, 'names');
    mkdirSync(join(root, 'processes'), { recursive: true });
    const name = 'a\u001b[2J\u001b[Hb\u009b31m\u007f\t\r\n0 problems.md';
    writeFileSync(join(root, 'processes', name), '');
    const json = runCli(['lint', '--root', root, '--format', 'json']);
    expect(json.code).toBe(1);
    const report = JSON.parse(json.stdout) as { results: { path: string; error: string }[] };
    expect(report.results.map((r) => r.path)).toEqual([`processes/${name}`]);
    const r = runCli(['lint', '--root', root]);
    expect(r.code).toBe(1);
    const lines = report.results[0]!.error.split('\n').map((l) => `  ${l}`);
    expect(r.stdout).toBe(
      `processes/a\\x1b[2J\\x1b[Hb\\x9b31m\\x7f\\x09\\x0d\\x0a0 problems.md\n${lines.join('\n')}\n\n${lines.length === 1 ? '1 problem' : `${lines.length} problems`} in 1 file (1 file checked)\n`,
    );
    expect(r.stdout).not.toMatch(/[\u0000-\u0009\u000b-\u001f\u007f-\u009f]/);
  });
});
