import { execFileSync, spawnSync } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { createHash } from 'node:crypto';
import { tmpdir } from 'node:os';
import { fileURLToPath } from 'node:url';
import { dirname, join, relative } from 'node:path';
import { expect } from 'vitest';
import { lintRoot as lint } from '../src/lint/root.js';
import type { LintRun } from '../src/lint/run.js';

export const REPO = join(dirname(fileURLToPath(import.meta.url)), '..');
export const BIN = join(REPO, 'bin', 'docgate.js');

export function fixture(...parts: string[]): string {
  return join(REPO, 'test', 'fixtures', ...parts);
}

/** Writes `files` (root-relative path → text) under `dir`, making their folders. */
export function writeFiles(dir: string, files: Record<string, string>): void {
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(dirname(join(dir, path)), { recursive: true });
    writeFileSync(join(dir, path), text);
  }
}

/** A new temporary root holding `files`, listed in `made` (for the caller to remove after its tests). */
export function tempRoot(prefix: string, files: Record<string, string>, made: string[]): string {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  made.push(dir);
  writeFiles(dir, files);
  return dir;
}

export function lintRoot(root: string, paths?: string[]): LintRun {
  return lint({ root, paths: paths ?? [] });
}

export interface CliResult {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** Runs the built CLI as a user would: a child process (the build runs before the tests). */
export function runCli(args: string[], opts: { cwd?: string; env?: NodeJS.ProcessEnv } = {}): CliResult {
  const env = { ...process.env, ...opts.env };
  delete env.DOCGATE_ROOT;
  if (opts.env?.DOCGATE_ROOT !== undefined) env.DOCGATE_ROOT = opts.env.DOCGATE_ROOT;
  delete env.GITHUB_STEP_SUMMARY;
  if (opts.env?.GITHUB_STEP_SUMMARY !== undefined) env.GITHUB_STEP_SUMMARY = opts.env.GITHUB_STEP_SUMMARY;
  const r = spawnSync(process.execPath, [BIN, ...args], { cwd: opts.cwd ?? REPO, env, encoding: 'utf8' });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

/** Environment for git in a test repository: a fixed identity, hooks enabled, nothing inherited that redirects git. */
export function gitEnv(): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    GIT_AUTHOR_NAME: 'Test',
    GIT_AUTHOR_EMAIL: 'test@example.invalid',
    GIT_COMMITTER_NAME: 'Test',
    GIT_COMMITTER_EMAIL: 'test@example.invalid',
    HUSKY: '',
  };
  delete env.GIT_DIR;
  delete env.GIT_INDEX_FILE;
  delete env.DOCGATE_ROOT;
  return env;
}

/**
 * Makes `repo` a git repository with docgate's own hook set-up, as `npm ci` leaves it: package.json (the
 * lint-staged configuration), .husky/pre-commit, the build, the schemas, node_modules linked, and husky
 * installed by its own CLI. Everything already in `repo` is committed without the hook.
 */
export function installHookRepo(repo: string, env: NodeJS.ProcessEnv): void {
  for (const entry of ['package.json', '.husky', 'bin', 'dist', 'schemas']) cpSync(join(REPO, entry), join(repo, entry), { recursive: true });
  rmSync(join(repo, '.husky', '_'), { recursive: true, force: true });
  symlinkSync(join(REPO, 'node_modules'), join(repo, 'node_modules'), 'dir');
  writeFileSync(join(repo, '.gitignore'), 'node_modules\ndist\n.docgatecache\n');
  const git = (...args: string[]) => execFileSync('git', args, { cwd: repo, env, encoding: 'utf8' });
  git('init', '-q', '-b', 'main');
  execFileSync(process.execPath, [join(REPO, 'node_modules', 'husky', 'bin.js')], { cwd: repo, env });
  git('add', '-A');
  git('commit', '-q', '--no-verify', '-m', 'docgate set-up');
}

/** Every file under `dir`, relative to it, sorted. */
export function filesUnder(dir: string): string[] {
  const out: string[] = [];
  const walk = (d: string): void => {
    for (const e of readdirSync(d, { withFileTypes: true })) {
      if (e.isDirectory()) walk(join(d, e.name));
      else out.push(relative(dir, join(d, e.name)));
    }
  };
  walk(dir);
  return out.sort();
}

/** Every markdown file under `dir`, as absolute paths, sorted. */
export function markdownUnder(dir: string): string[] {
  return filesUnder(dir)
    .filter((f) => f.endsWith('.md'))
    .map((f) => join(dir, f));
}

/**
 * A differential check through the CLI: the json lint of `root` as docgate runs and with `env` turning a
 * fast path off (`DOCGATE_YAML=library`, `DOCGATE_BLOCK_PARSER=markdown-it`) are the same byte for byte,
 * fail (exit 1), and hold each of `findings` (so the comparison is of something).
 */
export function expectSameReportBothWays(root: string, env: NodeJS.ProcessEnv, findings: string[]): void {
  const usual = runCli(['lint', '--format', 'json'], { cwd: root });
  const reference = runCli(['lint', '--format', 'json'], { cwd: root, env });
  expect(usual.code).toBe(1);
  expect(reference.stderr).toBe('');
  for (const f of findings) expect(usual.stdout).toContain(f);
  expect(usual.stdout).toBe(reference.stdout);
}

/** One hash of every file's path, mode and bytes under `dir`: equal before and after means nothing was written. */
export function treeHash(dir: string): string {
  const h = createHash('sha256');
  for (const f of filesUnder(dir)) h.update(`${f}\0${statSync(join(dir, f)).mode}\0`).update(readFileSync(join(dir, f)));
  return h.digest('hex');
}

/** A POWER template named `name` storing `storeAs`, its work using `uses` (a placeholder) when given. */
export function powerTemplate(name: string, storeAs: string, uses = ''): string {
  return [
    'framework: POWER',
    `purpose: Generate ${name.toUpperCase()}.md for the project.`,
    'output: Markdown with the required header and footer.',
    `work: Read the code${uses ? ` and ${uses}` : ''}.`,
    'examples:',
    '- One example',
    'requirements: Keep it short.',
    `save_as: ${name.toUpperCase()}.md`,
    `store_as: ${storeAs}`,
    '',
  ].join('\n');
}

/** A new git repository (branch main) holding `files`, committed past any hook; listed in `made` for removal. */
export function committedRepo(
  prefix: string,
  files: Record<string, string>,
  made: string[],
  env: NodeJS.ProcessEnv,
): { dir: string; git: (...args: string[]) => string } {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  made.push(dir);
  const git = (...args: string[]): string => execFileSync('git', args, { cwd: dir, env, encoding: 'utf8' });
  git('init', '-q', '-b', 'main');
  writeFiles(dir, files);
  git('add', '-A');
  git('commit', '-q', '--no-verify', '--allow-empty', '-m', 'init');
  return { dir, git };
}

/** A result of the json report as the MCP tools give it: an error's diagnostics without the `severity` the json report always states (the tools state only `warning`). */
export function asServed<T extends { diagnostics: { severity?: string }[] }>(result: T): T {
  return { ...result, diagnostics: result.diagnostics.map(({ severity, ...d }) => (severity === 'warning' ? { ...d, severity } : d)) };
}

/** A `docgate lint --format json` report as the MCP tool `validate` answers it: `results` (as served), `filesChecked`, `problemCount`. */
export function asValidate<T extends { diagnostics: { severity?: string }[] }>(report: {
  results: T[];
  filesChecked: number;
  problemCount: number;
}): { results: T[]; filesChecked: number; problemCount: number } {
  return { results: report.results.map(asServed), filesChecked: report.filesChecked, problemCount: report.problemCount };
}
