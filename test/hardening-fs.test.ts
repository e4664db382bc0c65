/**
 * Issue 11, round two of "hard to break": escapes, writes, special files and silent skips.
 * Every case runs the built CLI (or MCP server) as a child process. Escapes are proven twice: a hash of
 * the folder outside the root is the same before and after, and a file-system spy preloaded into the
 * child (test/fixtures/hardening-fs/fs-spy.mjs) shows that no path outside the root was opened, listed
 * or read. Races are made deterministic by the spy (it swaps a file or folder for a link right after its
 * folder was listed) and "cannot be listed" by fault injection (root ignores chmod).
 */
import { execFileSync, spawn, spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import {
  existsSync,
  lstatSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  readdirSync,
  readlinkSync,
  realpathSync,
  rmSync,
  statSync,
  symlinkSync,
  truncateSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, relative } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { lintRoot as lint } from '../src/lint/root.js';
import { stylish } from '../src/report/stylish.js';
import { startMcp, structuredOf, sysrsText, textOf } from './fixtures/mcp/harness.js';
import type { McpSession } from './fixtures/mcp/harness.js';
import { BIN, REPO, fixture } from './helpers.js';

const SPY = pathToFileURL(fixture('hardening-fs', 'fs-spy.mjs')).href;
const tmp = realpathSync(mkdtempSync(join(tmpdir(), 'docgate-hardening-fs-')));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

interface SpyReport {
  opened: string[];
  listed: string[];
  bytes: Record<string, number>;
  swapped: number;
}
interface SpyConfig {
  fail?: Record<string, string>;
  swap?: { after: string; path: string; target: string }[];
  plant?: { path: string; target: string }[];
}
interface Run {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
  report: SpyReport;
}

let runs = 0;

/** The built CLI as a child process with the spy preloaded; bounded by a timeout so that a hang fails the test. */
function cli(args: string[], o: { cwd?: string; spy?: SpyConfig; env?: Record<string, string> } = {}): Run {
  const out = join(tmp, `spy-${++runs}.json`);
  const env: NodeJS.ProcessEnv = { ...process.env, ...o.env, DOCGATE_HFS_SPY: JSON.stringify({ ...o.spy, out }) };
  delete env.DOCGATE_ROOT;
  if (o.env?.GITHUB_STEP_SUMMARY === undefined) delete env.GITHUB_STEP_SUMMARY;
  const r = spawnSync(process.execPath, ['--import', SPY, BIN, ...args], { cwd: o.cwd ?? REPO, env, encoding: 'utf8', timeout: 20_000 });
  const report = existsSync(out) ? (JSON.parse(readFileSync(out, 'utf8')) as SpyReport) : { opened: [], listed: [], bytes: {}, swapped: 0 };
  return { code: r.status, signal: r.signal, stdout: r.stdout, stderr: r.stderr, report };
}

function put(root: string, rel: string, data: string | Uint8Array): string {
  const abs = join(root, rel);
  mkdirSync(dirname(abs), { recursive: true });
  writeFileSync(abs, data);
  return abs;
}

/** A digest of a folder as it is on disk: names, types, modes, times, contents and link targets, never following a link. */
function hashTree(dir: string): string {
  const h = createHash('sha256');
  const walk = (d: string): void => {
    for (const name of readdirSync(d).sort()) {
      const abs = join(d, name);
      const st = lstatSync(abs);
      h.update(`${relative(dir, abs)}\0${st.mode}\0${st.size}\0${st.mtimeMs}\0`);
      if (st.isSymbolicLink()) h.update(readlinkSync(abs));
      else if (st.isDirectory()) walk(abs);
      else if (st.isFile()) h.update(readFileSync(abs));
    }
  };
  walk(dir);
  return h.digest('hex');
}

/** Every path under `outside` that the child opened, listed or read from. */
function touched(report: SpyReport, outside: string): string[] {
  const under = (p: string) => p === outside || p.startsWith(`${outside}/`);
  return [...report.opened, ...report.listed, ...Object.keys(report.bytes)].filter(under);
}

function bytesReadUnder(report: SpyReport, outside: string): number {
  return Object.entries(report.bytes)
    .filter(([p]) => p === outside || p.startsWith(`${outside}/`))
    .reduce((n, [, b]) => n + b, 0);
}

/**
 * Runs a session of the built MCP server on `root` with the spy preloaded, then checks that the folder
 * `outside` was neither changed nor opened, listed or read.
 */
async function mcpSession(root: string, outside: string, session: (s: McpSession) => Promise<void>): Promise<void> {
  const before = hashTree(outside);
  const out = join(tmp, `spy-${++runs}.json`);
  const s = await startMcp(root, { NODE_OPTIONS: `--import ${SPY}`, DOCGATE_HFS_SPY: JSON.stringify({ out }) });
  try {
    await session(s);
    await s.client.ping();
  } finally {
    await s.close();
  }
  // The server writes the report when it exits, after the client has closed its stdin.
  for (let i = 0; i < 200 && !existsSync(out); i++) await new Promise((res) => setTimeout(res, 10));
  expect(touched(JSON.parse(readFileSync(out, 'utf8')) as SpyReport, outside)).toEqual([]);
  expect(hashTree(outside)).toBe(before);
}

interface Result {
  path: string;
  kind: string;
  error: string;
}
function resultsOf(r: Run): Result[] {
  expect(r.stderr).not.toMatch(/internal error|^\s+at /m);
  return (JSON.parse(r.stdout) as { results: Result[] }).results.map(({ path, kind, error }) => ({ path, kind, error }));
}

const SECRET = 'TOP-SECRET-4711';
const GOOD_PROCESS = '---\nname: Good\n---\n# Good\n\nBody.\n';
/** A process whose frontmatter key is quoted in its diagnostic: read, it would print SECRET. */
const LEAKY_PROCESS = `---\nname: Leak\n${SECRET}: 1\n---\n# Leak\n\nBody.\n`;
const GOOD_FRAMEWORK = '# Good\n\nText.\n';
const UUID = '12345678-1234-4123-8123-123456789abc';

function folderOutside(kind: string): string {
  return `1:1 Unexpected folder that resolves outside the root (through a symbolic link), expected the ${kind} folder inside the root [file-symlink]`;
}
const SPECIAL = '1:1 Unexpected special file (FIFO, socket or device), expected a regular file [file-read]';
const BROKEN = '1:1 Unexpected entry that cannot be read (broken link?), expected a readable file [file-read]';
const BAD_NAME = '1:1 Unexpected file name that is not valid UTF-8, expected a UTF-8 file name [file-name]';

function fresh(name: string): { root: string; outside: string } {
  const root = join(tmp, name, 'root');
  const outside = join(tmp, name, 'outside');
  mkdirSync(root, { recursive: true });
  mkdirSync(outside, { recursive: true });
  return { root, outside };
}

describe('item 1: every folder on the way to a document resolves inside the root', () => {
  const { root, outside } = fresh('kind-links');
  put(outside, 'p/leak.md', LEAKY_PROCESS);
  put(outside, 't/power/stray.txt', `${SECRET} first line\nframework: POWER\n`);
  put(outside, 'd/sysrs/x.md', sysrsText(UUID, SECRET));
  put(root, 'frameworks/Good.md', GOOD_FRAMEWORK);
  symlinkSync(join(outside, 'p'), join(root, 'processes'));
  symlinkSync(join(outside, 't'), join(root, 'templates'));
  symlinkSync(join(outside, 'd'), join(root, 'docs'));
  const expected = [
    { path: 'docs/sysrs', kind: 'sysrs', error: folderOutside('sysrs') },
    { path: 'processes', kind: 'process', error: folderOutside('process') },
    { path: 'templates/power', kind: 'template', error: folderOutside('template') },
  ];

  it('a kind folder (or a folder above it) linked outside is one file-symlink failure; nothing outside is opened or listed', () => {
    const before = hashTree(outside);
    for (const extra of [[], ['--cache']]) {
      const r = cli(['lint', '--root', root, '--format', 'json', ...extra]);
      expect(r.code, r.stderr).toBe(1);
      expect(resultsOf(r)).toEqual(expected);
      expect(JSON.parse(r.stdout).filesChecked).toBe(4);
      expect(r.stdout).not.toContain(SECRET);
      expect(r.stdout).not.toContain('leak');
      expect(touched(r.report, outside)).toEqual([]);
      const text = cli(['lint', '--root', root, ...extra]);
      expect(text.code).toBe(1);
      expect(text.stdout).not.toContain(SECRET);
      expect(touched(text.report, outside)).toEqual([]);
    }
    expect(hashTree(outside)).toBe(before);
  });

  it('a named path behind such a folder gets the folder failure, whether it exists or not', () => {
    for (const named of ['processes/leak.md', 'processes/no-such.md', 'processes']) {
      const r = cli(['lint', '--root', root, '--format', 'json', named], { cwd: root });
      expect(r.code, `${named}: ${r.stderr}`).toBe(1);
      expect(resultsOf(r)).toEqual([expected[1]]);
      expect(touched(r.report, outside)).toEqual([]);
    }
  });

  it('a language folder linked outside is reported (it was skipped silently)', () => {
    const { root: r2, outside: o2 } = fresh('lang-link');
    put(r2, 'docs/sysrs/x.md', sysrsText(UUID, 'English'));
    put(o2, 'de/x.md', sysrsText(UUID, SECRET));
    symlinkSync(join(o2, 'de'), join(r2, 'docs', 'sysrs', 'de'));
    const before = hashTree(o2);
    const r = cli(['lint', '--root', r2, '--format', 'json']);
    expect(r.code, r.stderr).toBe(1);
    expect(resultsOf(r)).toEqual([{ path: 'docs/sysrs/de', kind: 'sysrs', error: folderOutside('sysrs') }]);
    expect(touched(r.report, o2)).toEqual([]);
    expect(hashTree(o2)).toBe(before);
  });

  it('a kind folder linked to a place inside the root keeps working', () => {
    const { root: r3 } = fresh('inside-link');
    put(r3, 'store/processes/good.md', GOOD_PROCESS);
    put(r3, 'store/processes/bad.md', '---\nowner: x\n---\n# Bad\n\nBody.\n');
    symlinkSync(join(r3, 'store', 'processes'), join(r3, 'processes'));
    const r = cli(['lint', '--root', r3, '--format', 'json']);
    expect(r.code, r.stderr).toBe(1);
    expect(resultsOf(r).map((x) => x.path)).toEqual(['processes/bad.md']);
    expect(JSON.parse(r.stdout).filesChecked).toBe(2);
  });

  it('the MCP server answers the folder failures in its list tools and validate, and never returns outside text', async () => {
    await mcpSession(root, outside, async (s) => {
      const p = structuredOf<{ processes: unknown[]; failures: Result[] }>(await s.call('list_processes'));
      expect(p.processes).toEqual([]);
      expect(p.failures.map((f) => [f.path, f.error])).toEqual([['processes', expected[1]!.error]]);
      const t = structuredOf<{ failures: Result[] }>(await s.call('list_templates'));
      expect(t.failures.map((f) => f.path)).toEqual(['templates/power']);
      const l = structuredOf<{ results: { path: string; error: string | null }[] }>(await s.call('list_sysrs'));
      expect(l.results.map((x) => [x.path, x.error])).toEqual([['docs/sysrs', expected[0]!.error]]);
      const v = structuredOf<{ results: Result[] }>(await s.call('validate'));
      expect(v.results.map((x) => x.path)).toEqual(['docs/sysrs', 'processes', 'templates/power']);
      const g = await s.call('get_process', { name: 'leak' });
      expect(textOf(g)).toContain('PROCESS_NOT_FOUND');
      for (const call of [g, await s.call('search_processes', { query: 'SECRET' }), await s.call('get_sysrs', { id: UUID, raw: true })]) {
        expect(JSON.stringify(call)).not.toContain(SECRET);
      }
    });
  });
});

describe('item 2: rule files and MCP resources resolve inside the root', () => {
  it('a rule file linked outside the root is a configuration error naming it, never read or quoted', () => {
    for (const name of ['sysrs-outline.json', 'process-frontmatter.schema.json', 'sysrs-headings.xx.json']) {
      const { root, outside } = fresh(`rule-link-${name}`);
      put(root, 'processes/good.md', GOOD_PROCESS);
      put(outside, 'secret.json', `${SECRET} is not JSON\n`);
      mkdirSync(join(root, 'schemas'));
      symlinkSync(join(outside, 'secret.json'), join(root, 'schemas', name));
      const before = hashTree(outside);
      const r = cli(['lint', '--root', root]);
      expect(r.code, r.stderr).toBe(2);
      expect(r.stderr).toBe(`docgate: cannot read rule file ${join(root, 'schemas', name)}: it resolves outside the root (through a symbolic link)\n`);
      expect(r.stdout + r.stderr).not.toContain(SECRET);
      expect(touched(r.report, outside)).toEqual([]);
      expect(hashTree(outside)).toBe(before);
    }
  });

  it('a schemas folder linked outside the root is not listed', () => {
    const { root, outside } = fresh('schemas-link');
    put(root, 'processes/good.md', GOOD_PROCESS);
    put(outside, 'sysrs-headings.zz.json', `${SECRET}\n`);
    symlinkSync(outside, join(root, 'schemas'));
    const r = cli(['lint', '--root', root]);
    expect(r.code).toBe(2);
    expect(r.stderr).toBe(`docgate: cannot read rule folder ${join(root, 'schemas')}: it resolves outside the root (through a symbolic link)\n`);
    expect(touched(r.report, outside)).toEqual([]);
  });

  it('resources/list leaves out a rule file that resolves outside the root; resources/read answers an error without content', async () => {
    const { root, outside } = fresh('resources');
    put(root, 'processes/good.md', GOOD_PROCESS);
    put(outside, 'secret.json', `{"${SECRET}": true}\n`);
    put(root, 'schemas/own.json', '{"own": true}\n');
    symlinkSync(join(outside, 'secret.json'), join(root, 'schemas', 'passwd.json'));
    symlinkSync(join(outside, 'secret.json'), join(root, 'schemas', 'sysrs-outline.json'));
    await mcpSession(root, outside, async (s) => {
      const names = (await s.client.listResources()).resources.map((x) => x.name);
      expect(names).toContain('own.json');
      expect(names).toContain('power-template.schema.json');
      expect(names).not.toContain('passwd.json');
      expect(JSON.stringify((await s.client.readResource({ uri: 'docgate://schemas/own.json' })).contents)).toContain('own');
      for (const uri of ['docgate://schemas/passwd.json', 'docgate://schemas/sysrs-outline.json']) {
        const err = await s.client.readResource({ uri }).then(
          (x) => JSON.stringify(x),
          (e: Error) => `error: ${e.message}`,
        );
        expect(err, uri).toMatch(/^error: /);
        expect(err).not.toContain(SECRET);
      }
    });
  });
});

describe('item 3: writes never go through a planted link', () => {
  function ciRoot(name: string): { root: string; outside: string; victim: string } {
    const { root, outside } = fresh(name);
    execFileSync('cp', ['-r', `${fixture('ci-root')}/.`, root]);
    const victim = put(outside, 'victim', 'precious\n');
    return { root, outside, victim };
  }

  it('--cache: a link planted at the temporary file name of this very process is not written through', () => {
    const { root, outside } = ciRoot('planted-tmp');
    const before = hashTree(outside);
    const r = cli(['lint', '--root', root, '--cache'], { spy: { plant: [{ path: join(root, '.docgatecache.{pid}.tmp'), target: join(outside, 'victim') }] } });
    expect(r.code, r.stderr).toBe(1);
    expect(r.stderr).toBe('');
    expect(hashTree(outside)).toBe(before);
    expect(lstatSync(join(root, '.docgatecache')).isFile()).toBe(true);
    expect(touched(r.report, outside)).toEqual([]);
    // The next run uses the cache it wrote.
    expect(cli(['lint', '--root', root, '--cache']).stdout).toBe(cli(['lint', '--root', root]).stdout);
  });

  it('--cache: a cache path that is a link to outside is neither read nor written through: it is replaced', () => {
    const { root, outside, victim } = ciRoot('cache-link');
    symlinkSync(victim, join(root, '.docgatecache'));
    const before = hashTree(outside);
    const r = cli(['lint', '--root', root, '--cache', '--format', 'json']);
    expect(r.code, r.stderr).toBe(1);
    expect(r.stderr).toBe(`docgate: warning: cache ${join(root, '.docgatecache')} ignored: it resolves outside the root (through a symbolic link)\n`);
    expect(resultsOf(r)).toEqual(resultsOf(cli(['lint', '--root', root, '--format', 'json'])));
    expect(touched(r.report, outside)).toEqual([]);
    expect(hashTree(outside)).toBe(before);
    expect(lstatSync(join(root, '.docgatecache')).isFile()).toBe(true);
  });

  it('--output: a committed docgate.sarif linked outside is replaced, its target untouched (the documented CI command)', () => {
    const { root, outside } = ciRoot('sarif-link');
    symlinkSync(join(outside, 'victim'), join(root, 'docgate.sarif'));
    const before = hashTree(outside);
    const r = cli(['lint', '--format', 'github', '--format', 'sarif', '--output', 'docgate.sarif'], { cwd: root });
    expect(r.code, r.stderr).toBe(1);
    expect(r.stderr).toBe('');
    expect(hashTree(outside)).toBe(before);
    expect(lstatSync(join(root, 'docgate.sarif')).isFile()).toBe(true);
    expect((JSON.parse(readFileSync(join(root, 'docgate.sarif'), 'utf8')) as { version: string }).version).toBe('2.1.0');
    expect(touched(r.report, outside)).toEqual([]);
    expect(readdirSync(root).filter((n) => n.endsWith('.tmp'))).toEqual([]);
  });

  it('--output into a folder of the root that is linked outside: a usage error, nothing written', () => {
    const { root, outside } = ciRoot('output-folder-link');
    symlinkSync(outside, join(root, 'reports'));
    const before = hashTree(outside);
    const r = cli(['lint', '--format', 'sarif', '--output', 'reports/docgate.sarif'], { cwd: root });
    expect(r.code).toBe(2);
    expect(r.stderr).toBe(`docgate: cannot write the sarif report to reports/docgate.sarif: its folder resolves outside the root (through a symbolic link)\n`);
    expect(hashTree(outside)).toBe(before);
  });

  it('--output to /dev/null writes to the device; to a folder is a usage error', () => {
    const { root } = ciRoot('output-special');
    const devnull = cli(['lint', '--root', root, '--format', 'json', '--output', '/dev/null']);
    expect(devnull.code, devnull.stderr).toBe(1);
    expect(devnull.stderr).toBe('');
    expect(devnull.stdout).toContain('problems in');
    expect(statSync('/dev/null').isCharacterDevice()).toBe(true);
    const dir = cli(['lint', '--root', root, '--format', 'json', '--output', tmp]);
    expect(dir.code).toBe(2);
    expect(dir.stderr).toBe(`docgate: cannot write the json report to ${tmp}: it is a folder, expected a file\n`);
  });

  it('--output to a FIFO: written when a reader is there, a usage error (not a hang) when none is', () => {
    const { root } = ciRoot('output-fifo');
    const fifo = join(root, 'report.fifo');
    execFileSync('mkfifo', [fifo]);
    const alone = cli(['lint', '--root', root, '--format', 'json', '--output', fifo]);
    expect(alone.signal).toBeNull();
    expect(alone.code).toBe(2);
    expect(alone.stderr).toBe(`docgate: cannot write the json report to ${fifo}: it is a FIFO with no reader\n`);
    const received = join(tmp, 'fifo-received.json');
    const reader = spawn('sh', ['-c', `cat "${fifo}" > "${received}"`]);
    const closed = new Promise((res) => reader.on('close', res));
    // The reader opens the FIFO before docgate does: keep trying until it is there.
    let r = cli(['lint', '--root', root, '--format', 'json', '--output', fifo]);
    for (let i = 0; i < 50 && r.code === 2; i++) r = cli(['lint', '--root', root, '--format', 'json', '--output', fifo]);
    expect(r.code, r.stderr).toBe(1);
    return closed.then(() => {
      expect(JSON.parse(readFileSync(received, 'utf8'))).toEqual(JSON.parse(cli(['lint', '--root', root, '--format', 'json']).stdout));
    });
  });

  it('GITHUB_STEP_SUMMARY: appended to a regular file; a link or a FIFO there is left alone with a warning', () => {
    const { root, outside, victim } = ciRoot('summary');
    const summary = put(tmp, 'summary/real.md', '# before\n');
    const ok = cli(['lint', '--root', root, '--format', 'github'], { env: { GITHUB_STEP_SUMMARY: summary } });
    expect(ok.code).toBe(1);
    expect(readFileSync(summary, 'utf8')).toMatch(/^# before\n## docgate\n/);
    const link = join(tmp, 'summary', 'link.md');
    symlinkSync(victim, link);
    const fifo = join(tmp, 'summary', 'fifo.md');
    execFileSync('mkfifo', [fifo]);
    const before = hashTree(outside);
    for (const path of [link, fifo]) {
      const r = cli(['lint', '--root', root, '--format', 'github'], { env: { GITHUB_STEP_SUMMARY: path } });
      expect(r.signal).toBeNull();
      expect(r.code).toBe(1);
      expect(r.stderr).toMatch(new RegExp(`^docgate: could not append to GITHUB_STEP_SUMMARY \\(${path}\\): `));
    }
    expect(hashTree(outside)).toBe(before);
  });
});

describe('item 4: an entry swapped for a link between discovery and read is not followed', () => {
  it('a file swapped for a link to outside right after its folder was listed: file-symlink, never opened', () => {
    const { root, outside } = fresh('swap-file');
    put(root, 'processes/good.md', GOOD_PROCESS);
    put(root, 'processes/swap.md', GOOD_PROCESS.replace('Good', 'Swap'));
    put(outside, 'secret.md', LEAKY_PROCESS);
    const before = hashTree(outside);
    const swap = [{ after: join(root, 'processes'), path: join(root, 'processes', 'swap.md'), target: join(outside, 'secret.md') }];
    const r = cli(['lint', '--root', root, '--format', 'json'], { spy: { swap } });
    expect(r.report.swapped).toBe(1);
    expect(r.code, r.stderr).toBe(1);
    expect(resultsOf(r)).toEqual([
      {
        path: 'processes/swap.md',
        kind: 'process',
        error: '1:1 Unexpected symbolic link to a target outside the root, expected a file inside the root [file-symlink]',
      },
    ]);
    expect(r.stdout).not.toContain(SECRET);
    expect(touched(r.report, outside)).toEqual([]);
    expect(hashTree(outside)).toBe(before);
  });

  /**
   * `docs/sysrs/de` (a language folder) swapped by the spy for a link to a folder outside once `after`
   * has been listed, and what every such run shows: the swap made, exit 1, nothing outside read, listed
   * or changed, no secret in the report.
   */
  function swapLanguageFolder(name: string, after: (root: string) => string): { r: Run; outside: string } {
    const { root, outside } = fresh(name);
    put(root, 'docs/sysrs/x.md', sysrsText(UUID, 'English'));
    put(root, 'docs/sysrs/de/x.md', sysrsText(UUID, 'Deutsch'));
    put(outside, 'de/x.md', `---\nid: ${UUID}\n${SECRET}: 1\n---\n`);
    const before = hashTree(outside);
    const swap = [{ after: after(root), path: join(root, 'docs', 'sysrs', 'de'), target: join(outside, 'de') }];
    const r = cli(['lint', '--root', root, '--format', 'json'], { spy: { swap } });
    expect(r.report.swapped).toBe(1);
    expect(r.code, r.stderr).toBe(1);
    expect(r.stdout).not.toContain(SECRET);
    expect(bytesReadUnder(r.report, outside)).toBe(0);
    expect(r.report.listed.filter((p) => p.startsWith(outside))).toEqual([]);
    expect(hashTree(outside)).toBe(before);
    return { r, outside };
  }

  it('a folder swapped for a link to outside after it was listed: its documents are refused on the open handle, no byte read', () => {
    const { r } = swapLanguageFolder('swap-folder', (root) => join(root, 'docs', 'sysrs', 'de'));
    expect(resultsOf(r)).toEqual([
      {
        path: 'docs/sysrs/de/x.md',
        kind: 'sysrs',
        error: '1:1 Unexpected symbolic link to a target outside the root, expected a file inside the root [file-symlink]',
      },
    ]);
  });

  it('a folder swapped for a link to outside after the folder holding it was listed: refused on the way in, never listed', () => {
    // The walk opens a folder below through its parent's open handle without following a link at its end
    // (docs/reliability.md, "Reading inside the root"): the link met there goes the long way and is refused.
    const { r, outside } = swapLanguageFolder('swap-child-folder', (root) => join(root, 'docs', 'sysrs'));
    expect(resultsOf(r)).toEqual([
      {
        path: 'docs/sysrs/de',
        kind: 'sysrs',
        error: '1:1 Unexpected folder that resolves outside the root (through a symbolic link), expected the sysrs folder inside the root [file-symlink]',
      },
    ]);
    expect(touched(r.report, outside)).toEqual([]);
  });

  it('a document that is a link to a file inside the root is still read', () => {
    const { root } = fresh('inside-doc-link');
    put(root, 'store/real.md', '---\nowner: x\n---\n# Real\n\nBody.\n');
    mkdirSync(join(root, 'processes'));
    symlinkSync(join('..', 'store', 'real.md'), join(root, 'processes', 'alias.md'));
    const r = cli(['lint', '--root', root, '--format', 'json']);
    expect(r.code).toBe(1);
    expect(resultsOf(r).map((x) => [x.path, x.error])).toEqual([
      ['processes/alias.md', '2:1 Unexpected key `owner`, expected one of: `name`, `description` [unknown-key]'],
    ]);
  });
});

describe('item 9: special files neither hang nor blow up', () => {
  function small(name: string): string {
    const { root } = fresh(name);
    put(root, 'processes/good.md', GOOD_PROCESS);
    put(root, 'processes/bad.md', '---\nowner: x\n---\n# Bad\n\nBody.\n');
    return root;
  }
  const LOW_MEMORY = { NODE_OPTIONS: '--max-old-space-size=48' };

  it('a FIFO as the cache: an empty cache with a warning, no hang, left in place', () => {
    const root = small('cache-fifo');
    const cache = join(root, '.docgatecache');
    execFileSync('mkfifo', [cache]);
    const r = cli(['lint', '--root', root, '--cache', '--format', 'json']);
    expect(r.signal).toBeNull();
    expect(r.code).toBe(1);
    expect(resultsOf(r)).toEqual(resultsOf(cli(['lint', '--root', root, '--format', 'json'])));
    expect(r.stderr).toBe(
      `docgate: warning: cache ${cache} ignored: it is not a regular file (FIFO, socket or device)\ndocgate: warning: cannot write cache ${cache}: it is not a regular file (FIFO, socket or device)\n`,
    );
    expect(lstatSync(cache).isFIFO()).toBe(true);
  });

  it('a cache linked to /dev/zero is not read (bounded memory), and the link is replaced by a real cache', () => {
    const root = small('cache-zero');
    const cache = join(root, '.docgatecache');
    symlinkSync('/dev/zero', cache);
    const r = cli(['lint', '--root', root, '--cache'], { env: LOW_MEMORY });
    expect(r.signal).toBeNull();
    expect(r.code).toBe(1);
    expect(r.stderr).toBe(`docgate: warning: cache ${cache} ignored: it resolves outside the root (through a symbolic link)\n`);
    expect(r.report.opened).not.toContain('/dev/zero');
    expect(lstatSync(cache).isFile()).toBe(true);
    expect(statSync('/dev/zero').isCharacterDevice()).toBe(true);
  });

  it('a cache larger than the limit is not read (an empty cache)', () => {
    const root = small('cache-big');
    const cache = join(root, '.docgatecache');
    writeFileSync(cache, '');
    truncateSync(cache, 200 * 1024 * 1024);
    const r = cli(['lint', '--root', root, '--cache'], { env: LOW_MEMORY });
    expect(r.code).toBe(1);
    expect(r.stderr).toBe(`docgate: warning: cache ${cache} ignored: its size 209,715,200 bytes is over the limit of 134,217,728 bytes\n`);
    expect(r.report.bytes[cache] ?? 0).toBe(0);
  });

  it('rule files: a FIFO, a link to /dev/zero, a file over 1 MiB, a folder: exit 2 naming the file, quickly and in bounded memory', () => {
    const cases: [string, (file: string) => void, string][] = [
      ['fifo', (f) => execFileSync('mkfifo', [f]), 'it is not a regular file (FIFO, socket or device)'],
      ['zero', (f) => symlinkSync('/dev/zero', f), 'it resolves outside the root (through a symbolic link)'],
      ['big', (f) => (writeFileSync(f, ''), truncateSync(f, 2 * 1024 * 1024)), 'its size 2,097,152 bytes is over the limit of 1,048,576 bytes'],
      ['folder', (f) => mkdirSync(f), 'it is a folder, expected a file'],
    ];
    for (const [name, make, why] of cases) {
      for (const file of ['sysrs-headings.xx.json', 'sysrs-outline.json']) {
        const root = small(`rule-${name}-${file}`);
        mkdirSync(join(root, 'schemas'));
        const abs = join(root, 'schemas', file);
        make(abs);
        const r = cli(['lint', '--root', root], { env: LOW_MEMORY });
        expect(r.signal, `${name} ${file}`).toBeNull();
        expect(r.code, `${name} ${file}`).toBe(2);
        expect(r.stderr).toBe(`docgate: cannot read rule file ${abs}: ${why}\n`);
        expect(r.report.bytes[abs] ?? 0).toBe(0);
      }
    }
  });

  it('MCP: a FIFO heading table appearing while the server runs does not stop it answering', async () => {
    const root = small('mcp-fifo');
    const s = await startMcp(root);
    try {
      expect(structuredOf<{ count: number }>(await s.call('list_processes')).count).toBe(1);
      const fifo = join(root, 'schemas', 'sysrs-headings.xx.json');
      mkdirSync(dirname(fifo));
      execFileSync('mkfifo', [fifo]);
      const r = await s.call('list_processes');
      expect(r.isError).toBe(true);
      expect(textOf(r)).toContain(`cannot read rule file ${fifo}: it is not a regular file (FIFO, socket or device)`);
      await s.client.ping();
      rmSync(fifo);
      expect(structuredOf<{ count: number }>(await s.call('list_processes')).count).toBe(1);
    } finally {
      await s.close();
    }
  });
});

describe('item 13: a document docgate cannot name or list is a failure, never a skip', () => {
  const badName = (root: string) => Buffer.concat([Buffer.from(join(root, 'processes', 'bad')), Buffer.from([0xff]), Buffer.from('.md')]);

  it('a file name that is not valid UTF-8: a file-name failure, never opened', () => {
    const { root } = fresh('bad-name');
    put(root, 'processes/good.md', GOOD_PROCESS);
    writeFileSync(badName(root), LEAKY_PROCESS);
    const r = cli(['lint', '--root', root, '--format', 'json']);
    expect(r.code, r.stderr).toBe(1);
    expect(resultsOf(r)).toEqual([{ path: 'processes/bad\uFFFD.md', kind: 'process', error: BAD_NAME }]);
    expect(r.report.opened.filter((p) => p.includes('/processes/bad'))).toEqual([]);
    const text = cli(['lint', '--root', root]);
    expect(text.stdout).toBe(stylish(lint({ root }), { color: false }));
  });

  it('named on the command line (argv arrives decoded lossily): reported, not "no such file"', () => {
    const { root } = fresh('bad-name-argv');
    put(root, 'processes/good.md', GOOD_PROCESS);
    writeFileSync(badName(root), GOOD_PROCESS);
    const r = spawnSync('sh', ['-c', `exec "${process.execPath}" "${BIN}" lint --format json "$(printf 'processes/bad\\377.md')"`], {
      cwd: root,
      encoding: 'utf8',
    });
    expect(r.stderr).toBe('');
    expect(r.status).toBe(1);
    const report = JSON.parse(r.stdout) as { results: Result[]; filesChecked: number };
    expect(report.results.map((x) => [x.path, x.error])).toEqual([['processes/bad\uFFFD.md', BAD_NAME]]);
    expect(report.filesChecked).toBe(1);
  });

  it('a kind folder that cannot be listed (EACCES by fault injection) is one file-read failure', () => {
    const { root } = fresh('unlistable');
    put(root, 'processes/good.md', GOOD_PROCESS);
    put(root, 'frameworks/Good.md', GOOD_FRAMEWORK);
    put(root, 'docs/sysrs/x.md', sysrsText(UUID, 'English'));
    put(root, 'docs/sysrs/de/x.md', sysrsText(UUID, 'Deutsch'));
    const fail = { [join(root, 'frameworks')]: 'EACCES', [join(root, 'docs', 'sysrs', 'de')]: 'EACCES' };
    const r = cli(['lint', '--root', root, '--format', 'json'], { spy: { fail } });
    expect(r.code, r.stderr).toBe(1);
    const cannot = '1:1 Unexpected folder that cannot be listed (EACCES), expected a readable folder [file-read]';
    expect(resultsOf(r)).toEqual([
      { path: 'docs/sysrs/de', kind: 'sysrs', error: cannot },
      { path: 'frameworks', kind: 'framework', error: cannot },
    ]);
    // Named: a file in that folder gets the folder's failure.
    const named = cli(['lint', '--root', root, '--format', 'json', 'frameworks/Good.md'], { cwd: root, spy: { fail } });
    expect(named.code).toBe(1);
    expect(resultsOf(named).map((x) => x.path)).toEqual(['frameworks']);
  });

  it('a kind folder that is a file (ENOTDIR) is a failure; an absent one is just no documents', () => {
    const { root } = fresh('not-a-folder');
    put(root, 'processes/good.md', GOOD_PROCESS);
    put(root, 'frameworks', 'a file\n');
    const r = cli(['lint', '--root', root, '--format', 'json']);
    expect(r.code).toBe(1);
    expect(resultsOf(r)).toEqual([
      { path: 'frameworks', kind: 'framework', error: '1:1 Unexpected folder that cannot be listed (ENOTDIR), expected a readable folder [file-read]' },
    ]);
    rmSync(join(root, 'frameworks'));
    const clean = cli(['lint', '--root', root, '--format', 'json']);
    expect(clean.code).toBe(0);
    expect(JSON.parse(clean.stdout)).toEqual({ results: [], warnings: [], filesChecked: 1, problemCount: 0, errorCount: 0, warningCount: 0 });
  });
});

describe('item 15: special files, outside paths and a closed pipe', () => {
  it('a FIFO, or a link to one, is a special file; only a broken link says "broken link?"', () => {
    const { root } = fresh('special');
    put(root, 'processes/good.md', GOOD_PROCESS);
    execFileSync('mkfifo', [join(root, 'processes', 'fifo.md')]);
    execFileSync('mkfifo', [join(root, 'processes', 'pipe')]);
    symlinkSync('pipe', join(root, 'processes', 'to-pipe.md'));
    symlinkSync('missing', join(root, 'processes', 'broken.md'));
    const r = cli(['lint', '--root', root, '--format', 'json']);
    expect(r.signal).toBeNull();
    expect(resultsOf(r).map((x) => [x.path, x.error])).toEqual([
      ['processes/broken.md', BROKEN],
      ['processes/fifo.md', SPECIAL],
      ['processes/to-pipe.md', SPECIAL],
    ]);
  });

  it('a path outside the root gets the same answer whether it exists or not (CLI and MCP validate)', async () => {
    const { root, outside } = fresh('outside-paths');
    put(root, 'processes/good.md', GOOD_PROCESS);
    const exists = put(outside, 'there.md', GOOD_PROCESS);
    const missing = join(outside, 'not-there.md');
    const answer = (p: string) => `docgate: ${p} is outside the root ${root}\n`;
    for (const p of [exists, missing]) {
      const r = cli(['lint', '--root', root, p]);
      expect(r.code).toBe(2);
      expect(r.stderr).toBe(answer(p));
      expect(touched(r.report, outside)).toEqual([]);
    }
    const s = await startMcp(root);
    try {
      const texts = [];
      for (const p of [exists, missing]) texts.push(textOf(await s.call('validate', { paths: [p] })).replace(p, '<path>'));
      expect(texts[0]).toBe(`validate cannot run: <path> is outside the root ${root}`);
      expect(texts[1]).toBe(texts[0]);
    } finally {
      await s.close();
    }
  });

  it('`docgate lint | head -1`: a closed stdout ends the run quietly with the lint exit code', async () => {
    const { root } = fresh('epipe');
    for (let i = 0; i < 1500; i++) put(root, `processes/p${i}.md`, '---\nowner: x\n---\n');
    const child = spawn(process.execPath, [BIN, 'lint', '--root', root], { stdio: ['ignore', 'pipe', 'pipe'] });
    let stderr = '';
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    // Read the first chunk, then close the pipe while docgate is still writing (its report is > 64 KiB).
    child.stdout.once('data', () => child.stdout.destroy());
    const code = await new Promise<number | null>((res) => child.on('close', (c) => res(c)));
    expect(stderr).toBe('');
    expect(code).toBe(1);
  });
});
