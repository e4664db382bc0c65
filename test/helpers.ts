import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { dirname, join } from 'node:path';
import { lint } from '../src/core/lint.js';
import type { LintRun } from '../src/core/lint.js';

export const REPO = join(dirname(fileURLToPath(import.meta.url)), '..');
export const BIN = join(REPO, 'bin', 'docgate.js');

export function fixture(...parts: string[]): string {
  return join(REPO, 'test', 'fixtures', ...parts);
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
