/**
 * Issue 25, round three of "hard to break": a hang in a fix helper, `$dynamicRef` loops, reports and
 * caches that would replace documents, owners and set-id bits kept by --fix, key names that live on
 * Object.prototype, fixes that would make a file fail differently, resources that ignore the rule
 * folder, and a baseline too large to load or to report on. Every case runs the built CLI or MCP
 * server as a child process, as a user meets it.
 */
import { spawn, spawnSync } from 'node:child_process';
import { chmodSync, chownSync, cpSync, mkdirSync, mkdtempSync, readFileSync, realpathSync, rmSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { startMcp, structuredOf, textOf } from './fixtures/mcp/harness.js';
import { BIN, REPO, fixture } from './helpers.js';

const tmp = realpathSync(mkdtempSync(join(tmpdir(), 'docgate-round3-')));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

let copies = 0;
/** A throw-away copy of a fixture root of test/fixtures/round3/. */
function copyOf(name: string): string {
  const dir = join(tmp, `${name}-${++copies}`);
  cpSync(fixture('round3', name), dir, { recursive: true });
  return dir;
}

/** The CLI as a child process, killed after `timeout` ms so that a hang fails the test instead of stalling it. */
function cli(
  args: string[],
  o: { timeout?: number; uid?: number; gid?: number } = {},
): { code: number | null; signal: NodeJS.Signals | null; stdout: string; stderr: string } {
  const env = { ...process.env };
  delete env.DOCGATE_ROOT;
  const r = spawnSync(process.execPath, [BIN, ...args], {
    cwd: REPO,
    env,
    encoding: 'utf8',
    timeout: o.timeout ?? 20_000,
    ...(o.uid !== undefined ? { uid: o.uid, gid: o.gid } : {}),
  });
  return { code: r.status, signal: r.signal, stdout: r.stdout, stderr: r.stderr };
}

describe('a root schema pattern never reaches a backtracking engine (issue 25.1)', () => {
  const message = '3:9 Unexpected `ticket` value `7D1F3C2A-9B8E-4F6D-A5C4-3B2A1F0E9D8C`, expected a value matching `^([0-9a-f-]*)*!$` [invalid-value]';

  it('lints an uppercase UUID against a catastrophic pattern at once, with no fix offered', () => {
    const root = fixture('round3', 'pattern-hang');
    const r = cli(['lint', '--root', root, '--format', 'json'], { timeout: 15_000 });
    expect(r.signal).toBeNull();
    expect(r.code).toBe(1);
    const report = JSON.parse(r.stdout) as { results: { error: string; diagnostics: { fix?: unknown }[] }[] };
    expect(report.results.map((x) => x.error)).toEqual([message]);
    // The lowercased UUID does not match the pattern either: no fix.
    expect(report.results[0]!.diagnostics[0]!.fix).toBeUndefined();
  });

  it('answers check_content with that value, and the repository tools after it', async () => {
    const s = await startMcp(fixture('round3', 'pattern-hang'));
    try {
      const content = readFileSync(fixture('round3', 'pattern-hang', 'processes', 'deploy.md'), 'utf8');
      const checked = structuredOf<{ error: string; valid?: boolean }>(await s.call('check_content', { path: 'processes/deploy.md', content }));
      expect(checked.error).toBe(message);
      const listed = structuredOf<{ failures: { error: string }[] }>(await s.call('list_processes'));
      expect(listed.failures.map((f) => f.error)).toEqual([message]);
    } finally {
      await s.close();
    }
  }, 30_000);
});

describe('a $dynamicRef loop is a configuration error in the schema file (issue 25.3)', () => {
  it('refuses `$dynamicAnchor` + `$dynamicRef` to itself, positioned at the reference, exit 2', () => {
    const r = cli(['lint', '--root', fixture('round3', 'dynamic-ref')]);
    expect(r).toMatchObject({
      code: 2,
      stdout: '',
      stderr:
        'docgate: schemas/process-frontmatter.schema.json:5:18 schema does not compile: `$dynamicRef` #x at #/$dynamicRef leads back to #, without going into the data: it would never end\n',
    });
  });

  it('keeps a recursive schema whose `$dynamicRef` goes into the data (a tree of steps)', () => {
    const r = cli(['lint', '--root', fixture('round3', 'dynamic-tree')]);
    expect(r.code).toBe(1);
    expect(r.stdout).toBe(
      'processes/deploy.md\n  5:11 Unexpected number for `steps.1.name`, expected a string [wrong-type]\n\n1 problem in 1 file (1 file checked)\n',
    );
  });
});

describe('no report, cache or baseline replaces a document (issue 25.5)', () => {
  const ROOT = fixture('round3', 'key-names');

  it.each([
    [['--output', 'processes/deploy.md'], 'cannot write the json report to processes/deploy.md'],
    [['--output', 'processes/new-report.md'], 'cannot write the json report to processes/new-report.md'],
    [['--cache', '--cache-location', 'processes/deploy.md'], 'cannot write the cache processes/deploy.md'],
    [['--suppress-all', '--suppressions-location', 'templates/power/baseline.txt'], 'cannot write the suppressions file templates/power/baseline.txt'],
  ])('refuses %j with exit 2, before any work, and leaves every file as it was', (flags, what) => {
    const root = copyOf('key-names');
    const before = readFileSync(join(root, 'processes', 'deploy.md'));
    const args = flags[0] === '--output' ? ['--format', 'json', ...flags] : flags;
    const r = spawnSync(process.execPath, [BIN, 'lint', ...args], { cwd: root, encoding: 'utf8' });
    expect({ code: r.status, stdout: r.stdout, stderr: r.stderr }).toEqual({
      code: 2,
      stdout: '',
      stderr: `docgate: ${what}: it is a document of the repository, expected a file of its own\n`,
    });
    expect(readFileSync(join(root, 'processes', 'deploy.md'))).toEqual(before);
    expect(() => statSync(join(root, 'processes', 'new-report.md'))).toThrow();
    expect(ROOT).not.toBe(root);
  });

  it('refuses a document reached through a folder of the root linked to a kind folder', () => {
    const root = copyOf('key-names');
    symlinkSync('processes', join(root, 'handbook'));
    const before = readFileSync(join(root, 'processes', 'deploy.md'));
    const r = spawnSync(process.execPath, [BIN, 'lint', '--cache', '--cache-location', 'handbook/deploy.md'], { cwd: root, encoding: 'utf8' });
    expect(r.status).toBe(2);
    expect(r.stderr).toBe('docgate: cannot write the cache handbook/deploy.md: it is a document of the repository, expected a file of its own\n');
    expect(readFileSync(join(root, 'processes', 'deploy.md'))).toEqual(before);
  });

  it('still writes a report beside the documents under a name no kind includes', () => {
    const root = copyOf('key-names');
    const r = spawnSync(process.execPath, [BIN, 'lint', '--format', 'json', '--output', 'processes/report.json'], { cwd: root, encoding: 'utf8' });
    expect(r.status).toBe(1);
    expect(JSON.parse(readFileSync(join(root, 'processes', 'report.json'), 'utf8')).problemCount).toBe(2);
  });
});

describe('--fix keeps the owner and never writes a set-id or sticky bit (issue 25.6)', () => {
  const isRoot = process.getuid?.() === 0;

  it('rewrites a 6755 file of another user as a 0755 file of that user (run as root)', () => {
    const root = copyOf('conflicting-fixes');
    const file = join(root, 'templates', 'power', 'readme.txt');
    writeFileSync(file, readFileSync(file, 'utf8').replace('FRAMEWORK: POWER\n', ''));
    chmodSync(file, 0o6755);
    if (isRoot) chownSync(file, 1234, 1235);
    const r = cli(['lint', '--root', root, '--fix']);
    expect(r.stderr).toBe('docgate: fixed 1 file: templates/power/readme.txt\n');
    expect(r.code).toBe(0);
    expect(readFileSync(file, 'utf8').startsWith('framework: POWER\n')).toBe(true);
    const st = statSync(file);
    expect(st.mode & 0o7777).toBe(0o755);
    expect([st.uid, st.gid]).toEqual(isRoot ? [1234, 1235] : [process.getuid!(), process.getgid!()]);
  });

  it('refuses to fix a file it may write but could not give back to its owner (a user fixing a file of another)', () => {
    // A user (1234) with write access to a file of user 1235 (mode 0666): a rewrite would make it theirs.
    if (!isRoot) {
      // Without root there is no second user to own the file: a file of this user is kept as its own.
      expect(process.getuid!()).not.toBe(0);
      return;
    }
    const root = copyOf('conflicting-fixes');
    const file = join(root, 'templates', 'power', 'readme.txt');
    writeFileSync(file, readFileSync(file, 'utf8').replace('FRAMEWORK: POWER\n', ''));
    const before = readFileSync(file);
    chmodSync(tmp, 0o755);
    chmodSync(root, 0o777);
    chmodSync(join(root, 'templates'), 0o777);
    chmodSync(join(root, 'templates', 'power'), 0o777);
    chownSync(file, 1235, 1235);
    chmodSync(file, 0o666);
    const r = cli(['lint', '--root', root, '--fix'], { uid: 1234, gid: 1234 });
    expect(r.stderr).toContain('docgate: warning: templates/power/readme.txt: not fixed: it belongs to user 1235, and a rewrite by this user cannot keep that');
    expect(r.code).toBe(1);
    expect(readFileSync(file)).toEqual(before);
    expect(statSync(file).uid).toBe(1235);
  });
});

describe('--fix reads nothing lint did not read (issue 25.4)', () => {
  it('offers no fixed text of a git-ignored file that a document links to', () => {
    const root = join(tmp, 'ignored-link');
    mkdirSync(join(root, 'processes'), { recursive: true });
    const secret = '\uFEFF---\nname: Secret\n---\n\n# TOKEN=ghs_SECRET\n';
    writeFileSync(join(root, 'secret.md'), secret);
    writeFileSync(join(root, '.gitignore'), 'secret.md\n');
    symlinkSync('../secret.md', join(root, 'processes', 'leak.md'));
    spawnSync('git', ['init', '-q'], { cwd: root });
    const r = cli(['lint', '--root', root, '--fix-dry-run', '--format', 'json']);
    const report = JSON.parse(r.stdout) as { results: { path: string; output?: string; diagnostics: { rule: string }[] }[] };
    expect(report.results.map((x) => [x.path, x.diagnostics.map((d) => d.rule), x.output])).toEqual([['processes/leak.md', ['file-read'], undefined]]);
    expect(r.stdout).not.toContain('ghs_SECRET');
    cli(['lint', '--root', root, '--fix']);
    expect(readFileSync(join(root, 'secret.md'), 'utf8')).toBe(secret);
  });
});

describe('lint and --staged agree over links (issues 25.2 and 25.10 together)', () => {
  it('finds the same documents, once each, under a `**` include with `a -> .` and `b -> .`', () => {
    const root = join(tmp, 'staged-loop');
    mkdirSync(join(root, 'processes', 'sub'), { recursive: true });
    writeFileSync(join(root, 'docgate.config.yaml'), 'kinds:\n  process: { include: ["processes/**/*.md"] }\n');
    writeFileSync(join(root, 'processes', 'deploy.md'), '---\nname: Deploy\n---\n\n# Deploy\n\nShip it.\n');
    writeFileSync(join(root, 'processes', 'sub', 'other.md'), '---\nname: deploy\n---\n\n# Deploy again\n\nShip it twice.\n');
    symlinkSync('.', join(root, 'processes', 'a'));
    symlinkSync('.', join(root, 'processes', 'b'));
    spawnSync('git', ['init', '-q'], { cwd: root });
    spawnSync('git', ['add', '-A'], { cwd: root });
    const full = cli(['lint', '--root', root, '--format', 'json']);
    const staged = spawnSync(process.execPath, [BIN, 'lint', '--staged', '--format', 'json'], { cwd: root, encoding: 'utf8', timeout: 20_000 });
    expect(full.code).toBe(1);
    expect(staged.status).toBe(1);
    expect(staged.stdout).toBe(full.stdout);
    const report = JSON.parse(full.stdout) as { filesChecked: number; results: { path: string }[] };
    expect([report.filesChecked, report.results.map((r) => r.path)]).toEqual([2, ['processes/deploy.md', 'processes/sub/other.md']]);
  });
});

describe('a cache is made for one build', () => {
  it('does not replay the cache of another build of the same version (its results are made again)', () => {
    const root = copyOf('key-names');
    const cacheFile = join(root, '.docgatecache');
    const first = cli(['lint', '--root', root, '--cache', '--format', 'json']);
    const header = (): { docgate: string; build?: string } =>
      JSON.parse(readFileSync(cacheFile, 'utf8').split('\n')[0]!) as { docgate: string; build?: string };
    const build = header().build;
    expect(build).toMatch(/^[0-9a-f]{16}$/);
    // The same file as another build would have left it, with a result that build gave.
    const bytes = readFileSync(cacheFile, 'utf8');
    writeFileSync(
      cacheFile,
      bytes.replace(`"build":"${build}"`, '"build":"0000000000000000"').replaceAll('Unexpected key `__proto__`', 'Unexpected key `__PROTO__`'),
    );
    const again = cli(['lint', '--root', root, '--cache', '--format', 'json']);
    expect(again.stdout).toBe(first.stdout);
    expect(header().build).toBe(build);
  });
});

describe('every key name behaves like any other (issue 25.8)', () => {
  it('reports `__proto__` in a template, an absent optional `constructor` not at all, and a missing required `toString`', () => {
    const r = cli(['lint', '--root', fixture('round3', 'key-names')]);
    expect(r.code).toBe(1);
    expect(r.stdout).toBe(readFileSync(fixture('round3', 'expected', 'key-names.stylish.txt'), 'utf8'));
  });

  it('reports `__proto__`, `constructor` and `hasOwnProperty` frontmatter keys as unknown keys, nested ones too', () => {
    const r = cli(['lint', '--root', fixture('round3', 'proto-keys')]);
    expect(r.code).toBe(1);
    expect(r.stdout).toBe(readFileSync(fixture('round3', 'expected', 'proto-keys.stylish.txt'), 'utf8'));
  });

  it('serves outline sections keyed `__proto__` and `constructor` in get_document', async () => {
    const s = await startMcp(fixture('round3', 'key-names'));
    try {
      const r = await s.call('get_document', { kind: 'adr', id: '0001-use-docgate' });
      const doc = JSON.parse(textOf(r)) as { body: Record<string, { text: string; line: number }> };
      expect(Object.keys(doc.body)).toEqual(['__proto__', 'constructor']);
      // biome-ignore lint/suspicious/noProto: the key `__proto__` of a parsed JSON answer, an own property
      expect(doc.body['__proto__']).toEqual({ text: 'Content rots unless it is checked.', line: 7 });
      expect(doc.body['constructor']).toEqual({ text: 'Lint it on every commit.', line: 11 });
    } finally {
      await s.close();
    }
  }, 30_000);
});

describe('--fix never makes a file fail differently (issue 25.9)', () => {
  it('recases neither of two keys that would both become `framework`', () => {
    const root = copyOf('conflicting-fixes');
    const file = join(root, 'templates', 'power', 'readme.txt');
    const before = readFileSync(file);
    const dry = JSON.parse(cli(['lint', '--root', root, '--fix-dry-run', '--format', 'json']).stdout) as {
      results: { output?: string; diagnostics: { fix?: unknown }[] }[];
    };
    expect(dry.results[0]!.output).toBeUndefined();
    expect(dry.results[0]!.diagnostics.filter((d) => d.fix !== undefined)).toEqual([]);
    const r = cli(['lint', '--root', root, '--fix']);
    expect(r.code).toBe(1);
    expect(r.stderr).toBe('');
    expect(readFileSync(file)).toEqual(before);
  });

  it('does the same for a SysRS `ID` and `Id`, and check_content offers no fixed_content', async () => {
    const s = await startMcp(fixture('round3', 'conflicting-fixes'));
    try {
      const content =
        '---\nID: 7D1F3C2A-9B8E-4F6D-A5C4-3B2A1F0E9D8C\nId: 7d1f3c2a-9b8e-4f6d-a5c4-3b2a1f0e9d8c\n---\n\n# System Requirements Specification: X\n';
      const r = structuredOf<{ error: string; fixed_content?: string }>(await s.call('check_content', { path: 'docs/sysrs/x.md', content }));
      expect(r.error).toContain('Unexpected key `ID`');
      expect(r.error).toContain('Unexpected key `Id`');
      expect(r.fixed_content).toBeUndefined();
    } finally {
      await s.close();
    }
  }, 30_000);

  it('does not quote a timestamp when quoting it pushes the frontmatter past its size limit', () => {
    const root = join(tmp, 'size-limit');
    mkdirSync(join(root, 'docs', 'sysrs'), { recursive: true });
    const yaml = 'id: 7d1f3c2a-9b8e-4f6d-a5c4-3b2a1f0e9d8c\ncreated: 2025-11-02 07:34:29.518Z\nclassification: \n';
    // 64 KiB of frontmatter exactly: two quotes more are over the limit.
    const text = `---\n${yaml.replace('classification: ', `classification: ${'x'.repeat(64 * 1024 - yaml.length)}`)}---\n\n# System Requirements Specification: X\n`;
    const file = join(root, 'docs', 'sysrs', 'x.md');
    writeFileSync(file, text);
    const json = (args: string[]) =>
      JSON.parse(cli(['lint', '--root', root, '--format', 'json', ...args]).stdout) as {
        results: { error: string; output?: string; diagnostics: { rule: string; fix?: unknown }[] }[];
      };
    const before = json([]);
    // The rule still offers its fix (quoting is right on its own) ...
    expect(before.results[0]!.diagnostics.find((d) => d.rule === 'yaml-unquoted-timestamp')?.fix).toBeDefined();
    // ... but applied it would make the file fail on its size: --fix leaves the file, and the same errors.
    expect(json(['--fix-dry-run']).results[0]!.output).toBeUndefined();
    cli(['lint', '--root', root, '--fix']);
    expect(readFileSync(file, 'utf8')).toBe(text);
    expect(json([]).results[0]!.error).toBe(before.results[0]!.error);
  });
});

describe('MCP resources follow the rule folder lint reads, and wait for initialize (issue 25.11)', () => {
  function ruleFolderRoot(): string {
    const root = join(tmp, `rules-folder-${++copies}`);
    mkdirSync(join(root, 'processes'), { recursive: true });
    mkdirSync(join(root, 'rules'));
    mkdirSync(join(root, 'schemas'));
    writeFileSync(join(root, 'docgate.config.yaml'), 'schemas: rules\n');
    writeFileSync(
      join(root, 'rules', 'process-frontmatter.schema.json'),
      readFileSync(fixture('round3', 'key-names', 'schemas', 'process-frontmatter.schema.json')),
    );
    writeFileSync(join(root, 'schemas', 'process-frontmatter.schema.json'), '{ "description": "stale: not the rule folder" }\n');
    writeFileSync(join(root, 'schemas', 'stale-only.schema.json'), '{}\n');
    writeFileSync(join(root, 'processes', 'deploy.md'), '---\nname: Deploy\ntoString: v1\n---\n\n# Deploy\n\nShip it.\n');
    return root;
  }

  it('lists and reads the configured folder`s files, never the stale `schemas/`', async () => {
    const root = ruleFolderRoot();
    const s = await startMcp(root);
    try {
      const { resources } = await s.client.listResources();
      const uris = resources.map((r) => r.uri);
      expect(uris).toContain('docgate://schemas/process-frontmatter.schema.json');
      expect(uris).not.toContain('docgate://schemas/stale-only.schema.json');
      const read = await s.client.readResource({ uri: 'docgate://schemas/process-frontmatter.schema.json' });
      expect((read.contents[0] as { text: string }).text).toBe(readFileSync(join(root, 'rules', 'process-frontmatter.schema.json'), 'utf8'));
      await expect(s.client.readResource({ uri: 'docgate://schemas/stale-only.schema.json' })).rejects.toThrow(/Unknown resource/);
    } finally {
      await s.close();
    }
  }, 30_000);

  it('answers a request before initialize with -32600, serves nothing, then serves after initialize', async () => {
    const child = spawn(process.execPath, [BIN, 'mcp', '--root', fixture('round3', 'key-names')], { cwd: REPO, stdio: ['pipe', 'pipe', 'pipe'] });
    let out = '';
    const answered = (id: number) =>
      new Promise<Record<string, unknown>>((resolve) => {
        const look = () => {
          const line = out.split('\n').find((l) => l.includes(`"id":${id},`) || l.endsWith(`"id":${id}}`));
          if (line) resolve(JSON.parse(line) as Record<string, unknown>);
          else setTimeout(look, 10);
        };
        look();
      });
    child.stdout.on('data', (c: Buffer) => (out += c.toString('utf8')));
    const send = (m: unknown): void => void child.stdin.write(`${JSON.stringify(m)}\n`);
    try {
      send({ jsonrpc: '2.0', id: 1, method: 'resources/read', params: { uri: 'docgate://schemas/process-frontmatter.schema.json' } });
      send({ jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'list_processes', arguments: {} } });
      send({ jsonrpc: '2.0', id: 3, method: 'ping' });
      expect(await answered(1)).toEqual({
        jsonrpc: '2.0',
        id: 1,
        error: { code: -32600, message: 'Invalid request: resources/read before initialize; send initialize first' },
      });
      expect(await answered(2)).toEqual({
        jsonrpc: '2.0',
        id: 2,
        error: { code: -32600, message: 'Invalid request: tools/call before initialize; send initialize first' },
      });
      expect(await answered(3)).toEqual({ jsonrpc: '2.0', id: 3, result: {} });
      send({
        jsonrpc: '2.0',
        id: 4,
        method: 'initialize',
        params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'raw', version: '0' } },
      });
      send({ jsonrpc: '2.0', method: 'notifications/initialized' });
      send({ jsonrpc: '2.0', id: 5, method: 'resources/read', params: { uri: 'docgate://schemas/process-frontmatter.schema.json' } });
      const read = (await answered(5)) as { result: { contents: { text: string }[] } };
      expect(read.result.contents[0]!.text).toBe(readFileSync(fixture('round3', 'key-names', 'schemas', 'process-frontmatter.schema.json'), 'utf8'));
    } finally {
      child.kill();
    }
  }, 30_000);
});

describe('a baseline too large to load or to report on (issue 25.15)', () => {
  function rootWith(counts: Record<string, Record<string, { count: number }>>): string {
    const root = join(tmp, `baseline-${++copies}`);
    mkdirSync(join(root, 'processes'), { recursive: true });
    writeFileSync(join(root, 'processes', 'deploy.md'), '---\nname: Deploy\n---\n\n# Deploy\n\nShip it.\n');
    writeFileSync(join(root, 'docgate-suppressions.json'), JSON.stringify(counts));
    return root;
  }

  it('prints the first 20 entries that no longer occur, then how many errors more', () => {
    const counts: Record<string, Record<string, { count: number }>> = {};
    for (let i = 0; i < 30; i++) counts[`processes/gone-${String(i).padStart(2, '0')}.md`] = { 'unknown-key': { count: 2 } };
    const r = cli(['lint', '--root', rootWith(counts)]);
    const lines = r.stderr.split('\n').slice(0, -1);
    expect(lines).toHaveLength(21);
    expect(lines[0]).toBe(
      'docgate: warning: processes/gone-00.md: 2 suppressed unknown-key errors no longer occur; run docgate lint --prune-suppressions to update docgate-suppressions.json',
    );
    expect(lines[19]).toContain('processes/gone-19.md');
    expect(lines[20]).toBe(
      'docgate: warning: 20 more suppressed errors no longer occur; run docgate lint --prune-suppressions to update docgate-suppressions.json',
    );
    expect(r.code).toBe(0);
  });

  it('refuses a baseline of more than 500,000 entries before parsing it (exit 2)', () => {
    const counts: Record<string, Record<string, { count: number }>> = {};
    for (let i = 0; i < 250_001; i++) counts[`p/${i}.md`] = { a: { count: 1 }, b: { count: 1 } };
    const r = cli(['lint', '--root', rootWith(counts)]);
    expect(r).toMatchObject({
      code: 2,
      stdout: '',
      stderr:
        'docgate: docgate-suppressions.json: Unexpected baseline of more than 500,000 entries, expected at most 500,000 (remove the file, then record a new one with docgate lint --suppress-all)\n',
    });
  });

  it('refuses a file over 32 MiB by its size, without reading it', () => {
    const root = rootWith({});
    writeFileSync(join(root, 'docgate-suppressions.json'), Buffer.alloc(32 * 1024 * 1024 + 1, 0x20));
    const r = cli(['lint', '--root', root]);
    expect(r.code).toBe(2);
    expect(r.stderr).toBe(
      'docgate: cannot read suppressions file docgate-suppressions.json: its size 33,554,433 bytes is over the limit of 33,554,432 bytes\n',
    );
  });
});
