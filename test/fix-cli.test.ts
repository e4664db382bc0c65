import { spawn } from 'node:child_process';
import { chmodSync, cpSync, existsSync, mkdtempSync, readFileSync, readdirSync, rmSync, statSync, symlinkSync, unlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { rulesOf } from '../src/kinds/index.js';
import { BIN, filesUnder, fixture, runCli, treeHash } from './helpers.js';

/**
 * `docgate lint --fix` and `--fix-dry-run` as a user runs them (SPEC §11). Each fixable rule has a
 * fixture under test/fixtures/fix/<rule>/: `root/` a repository with the defect, `fixed/` the same
 * files as --fix must write them, byte for byte.
 */
const FIXTURES = fixture('fix');
const CASES = readdirSync(FIXTURES).sort();
const made: string[] = [];
afterAll(() => {
  for (const d of made) rmSync(d, { recursive: true, force: true });
});

/** Path → bytes of every file under `dir`. */
function contents(dir: string): Record<string, Buffer> {
  return Object.fromEntries(filesUnder(dir).map((f) => [f, readFileSync(join(dir, f))]));
}

const crlf = (b: Buffer): Buffer => Buffer.from(b.toString('utf8').replace(/\r?\n/g, '\r\n'), 'utf8');

/** A temporary copy of a fixture's `root/`, its files turned to CRLF when asked. */
function copy(name: string, lineEnds: 'lf' | 'crlf' = 'lf'): string {
  const dir = mkdtempSync(join(tmpdir(), `docgate-fix-${name}-`));
  made.push(dir);
  cpSync(join(FIXTURES, name, 'root'), dir, { recursive: true });
  if (lineEnds === 'crlf') for (const f of filesUnder(dir)) writeFileSync(join(dir, f), crlf(readFileSync(join(dir, f))));
  return dir;
}

function expected(name: string, lineEnds: 'lf' | 'crlf' = 'lf'): Record<string, Buffer> {
  const want = contents(join(FIXTURES, name, 'fixed'));
  if (lineEnds === 'crlf') for (const f of Object.keys(want)) want[f] = crlf(want[f]!);
  return want;
}

describe('every fixable rule has a fixture', () => {
  it('test/fixtures/fix holds one folder per fixable rule (and `several`, fixes of many rules in one file)', () => {
    const fixable = [...rulesOf().values()]
      .filter((e) => e.rule.fixable)
      .map((e) => e.rule.id)
      .sort();
    expect(fixable.length).toBeGreaterThanOrEqual(9);
    expect(CASES).toEqual([...fixable, 'several'].sort());
  });
});

describe.each(CASES)('lint --fix: %s', (name) => {
  it('writes the fixed files byte for byte, then a second --fix changes nothing', () => {
    const dir = copy(name);
    const before = lintJson(dir);
    expect(before.results.flatMap((r) => r.diagnostics).some((d) => d.fix !== undefined)).toBe(true);
    const first = runCli(['lint', '--root', dir, '--fix']);
    expect(first.stderr).toMatch(/^docgate: fixed 1 file: /m);
    expect(contents(dir)).toEqual(expected(name));
    // What remains is reported as a lint would, and has no fix left.
    const after = lintJson(dir);
    expect(first.code).toBe(after.results.length > 0 ? 1 : 0);
    expect(after.results.flatMap((r) => r.diagnostics).filter((d) => d.fix !== undefined)).toEqual([]);
    const hash = treeHash(dir);
    const second = runCli(['lint', '--root', dir, '--fix']);
    expect(second.stderr).not.toContain('fixed');
    expect(treeHash(dir)).toBe(hash);
  });

  it('keeps CRLF line endings', () => {
    const dir = copy(name, 'crlf');
    runCli(['lint', '--root', dir, '--fix']);
    expect(contents(dir)).toEqual(expected(name, 'crlf'));
    const hash = treeHash(dir);
    runCli(['lint', '--root', dir, '--fix']);
    expect(treeHash(dir)).toBe(hash);
  });

  it('--fix-dry-run writes nothing, exits as lint does, and its json `output` is what --fix writes', () => {
    const dir = copy(name);
    const hash = treeHash(dir);
    const plain = runCli(['lint', '--root', dir, '--format', 'json']);
    const dry = runCli(['lint', '--root', dir, '--fix-dry-run', '--format', 'json']);
    expect(treeHash(dir)).toBe(hash);
    expect(dry.code).toBe(plain.code);
    const report = JSON.parse(dry.stdout) as { results: { path: string; output?: string }[] };
    const want = expected(name);
    const outputs = Object.fromEntries(report.results.filter((r) => r.output !== undefined).map((r) => [r.path, Buffer.from(r.output!, 'utf8')]));
    expect(Object.keys(outputs).length).toBeGreaterThan(0);
    for (const [path, text] of Object.entries(outputs)) expect(text).toEqual(want[path]);
    // Without the output, the report is lint's own.
    expect(JSON.stringify({ ...report, results: report.results.map(({ output: _o, ...r }) => r) }, null, 2) + '\n').toBe(plain.stdout);
  });
});

interface JsonReport {
  results: { path: string; diagnostics: { rule: string; fix?: unknown }[] }[];
}

function lintJson(dir: string): JsonReport {
  return JSON.parse(runCli(['lint', '--root', dir, '--format', 'json']).stdout) as JsonReport;
}

describe('lint --fix leaves alone what it must not write', () => {
  it('an ignored file is never touched', () => {
    const dir = copy('file-bom');
    writeFileSync(join(dir, 'docgate.config.yaml'), 'ignores: ["processes/deployment.md"]\n');
    const hash = treeHash(dir);
    const r = runCli(['lint', '--root', dir, '--fix']);
    expect(r.code).toBe(0);
    expect(treeHash(dir)).toBe(hash);
  });

  it('a read-only file is reported and keeps every byte; the other files are fixed', () => {
    const dir = copy('several');
    cpSync(join(FIXTURES, 'file-bom', 'root'), dir, { recursive: true });
    const locked = join(dir, 'processes', 'deployment.md');
    const bytes = readFileSync(locked);
    chmodSync(locked, 0o444);
    const r = runCli(['lint', '--root', dir, '--fix']);
    expect(r.stderr).toContain('docgate: warning: processes/deployment.md: not fixed: it is read-only');
    expect(readFileSync(locked)).toEqual(bytes);
    expect(statSync(locked).mode & 0o777).toBe(0o444);
    expect(readFileSync(join(dir, 'docs/sysrs/docgate-mcp-server.md'))).toEqual(expected('several')['docs/sysrs/docgate-mcp-server.md']);
    expect(r.stdout).toContain('processes/deployment.md');
    expect(r.code).toBe(1);
  });

  it('keeps the mode of a file it rewrites', () => {
    const dir = copy('file-bom');
    const file = join(dir, 'processes', 'deployment.md');
    chmodSync(file, 0o640);
    runCli(['lint', '--root', dir, '--fix']);
    expect(readFileSync(file)).toEqual(expected('file-bom')['processes/deployment.md']);
    expect(statSync(file).mode & 0o777).toBe(0o640);
  });

  it('a link to a document is not written through, and reported', () => {
    const dir = copy('file-bom');
    const target = readFileSync(join(dir, 'processes', 'deployment.md'));
    symlinkSync('deployment.md', join(dir, 'processes', 'deploy-link.md'));
    const r = runCli(['lint', '--root', dir, '--fix', 'processes/deploy-link.md'], { cwd: dir });
    expect(r.stderr).toContain('processes/deploy-link.md: not fixed: it is a symbolic link');
    expect(readFileSync(join(dir, 'processes', 'deployment.md'))).toEqual(target);
  });

  it('refuses --fix with --fix-dry-run or --print-config (exit 2)', () => {
    expect(runCli(['lint', '--fix', '--fix-dry-run']).code).toBe(2);
    const r = runCli(['lint', '--fix', '--print-config', 'processes/deployment.md']);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('--print-config lints nothing');
  });

  it('refuses --fix and --fix-dry-run with --staged: the index is not fixed (exit 2)', () => {
    for (const flag of ['--fix', '--fix-dry-run']) {
      expect(runCli(['lint', '--staged', flag])).toEqual({
        code: 2,
        stdout: '',
        stderr: `docgate: ${flag} cannot be used with --staged: it fixes files in the work tree, not the snapshot in git's index; run docgate lint --fix on the files, then stage them again\n`,
      });
    }
  });
});

/** Runs `lint --fix` paused before its write; `during` changes the tree, then the run goes on. */
async function fixWhile(dir: string, during: () => void): Promise<{ code: number | null; stderr: string }> {
  const go = join(dir, '..', `${relative(tmpdir(), dir)}.go`);
  made.push(go);
  const child = spawn(process.execPath, [BIN, 'lint', '--root', dir, '--fix'], { env: { ...process.env, DOCGATE_TEST_FAULT: `pause-before-write=${go}` } });
  let stderr = '';
  let resumed = false;
  child.stdout.resume();
  return await new Promise((resolve) => {
    child.stderr.on('data', (d: Buffer) => {
      stderr += d.toString();
      if (!resumed && stderr.includes('paused before writing')) {
        resumed = true;
        during();
        writeFileSync(go, '');
      }
    });
    child.on('close', (code) => resolve({ code, stderr }));
  });
}

describe('lint --fix when files change during the run', () => {
  it('a file edited on disk after it was read is not overwritten', async () => {
    const dir = copy('file-bom');
    const file = join(dir, 'processes', 'deployment.md');
    const edited = Buffer.from('\uFEFF---\nname: Deployment\n---\n\n# Deployment\n\nEdited meanwhile.\n', 'utf8');
    const r = await fixWhile(dir, () => writeFileSync(file, edited));
    expect(r.stderr).toContain('processes/deployment.md: not fixed: it changed on disk during the run');
    expect(readFileSync(file)).toEqual(edited);
  });

  it('a file made read-only during the run is reported and keeps every byte', async () => {
    const dir = copy('file-bom');
    const file = join(dir, 'processes', 'deployment.md');
    const bytes = readFileSync(file);
    const r = await fixWhile(dir, () => chmodSync(file, 0o444));
    expect(r.stderr).toContain('processes/deployment.md: not fixed: it is read-only');
    expect(readFileSync(file)).toEqual(bytes);
  });

  it('a file that vanished during the run is reported and not created again', async () => {
    const dir = copy('file-bom');
    const file = join(dir, 'processes', 'deployment.md');
    const r = await fixWhile(dir, () => unlinkSync(file));
    expect(r.stderr).toContain('processes/deployment.md: not fixed: it vanished during the run');
    expect(existsSync(file)).toBe(false);
    expect(r.code).not.toBe(2);
  });

  it('killed between the temporary file and the rename, the original file is intact', () => {
    const dir = copy('several');
    const file = join(dir, 'docs', 'sysrs', 'docgate-mcp-server.md');
    const bytes = readFileSync(file);
    const r = runCli(['lint', '--root', dir, '--fix'], { env: { DOCGATE_TEST_FAULT: 'after-temp-write' } });
    expect(r.code).toBeNull(); // killed by SIGKILL
    expect(readFileSync(file)).toEqual(bytes);
    // What the kill left is a temporary file beside it (no document of any kind), holding the new text whole.
    const left = readdirSync(join(dir, 'docs', 'sysrs')).filter((n) => n.endsWith('.tmp'));
    expect(left).toHaveLength(1);
    expect(readFileSync(join(dir, 'docs', 'sysrs', left[0]!))).toEqual(expected('several')['docs/sysrs/docgate-mcp-server.md']);
  });
});
