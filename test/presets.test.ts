import { spawnSync } from 'node:child_process';
import { cpSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { REPO, fixture, runCli, tempRoot } from './helpers.js';
import type { CliResult } from './helpers.js';

/**
 * Presets (docs/formats.md, "Presets"): the configurations docgate ships in presets/, layered beneath a
 * root's docgate.config.yaml. Each preset has a fixture repository under test/fixtures/presets/<preset>/
 * with valid and invalid files per key and rule; the diagnostics are asserted exactly, through the CLI.
 */

const made: string[] = [];
afterAll(() => {
  for (const d of made) rmSync(d, { recursive: true, force: true });
});

const PRESETS = ['agent-skills', 'agents-md', 'claude-code', 'copilot', 'cursor'];
const KNOWN = PRESETS.map((p) => `\`${p}\``).join(', ');

interface Row {
  path: string;
  kind: string;
  error: string;
}

/** `lint --format json` of a root: the exit code, each failing file's and each warned file's `error` text by path. */
function lintJson(
  root: string,
  cli: (args: string[]) => CliResult = (args) => runCli(args),
): {
  code: number | null;
  stderr: string;
  results: [string, string][];
  warnings: [string, string][];
} {
  const r = cli(['lint', '--root', root, '--format', 'json']);
  const out = JSON.parse(r.stdout) as { results: Row[]; warnings: Row[] };
  return {
    code: r.code,
    stderr: r.stderr,
    results: out.results.map((x) => [x.path, x.error]),
    warnings: out.warnings.map((x) => [x.path, x.error]),
  };
}

/** A copy of a fixture repository in a temporary folder (to change its configuration or add files). */
function copyOf(preset: string): string {
  const dir = mkdtempSync(join(tmpdir(), `docgate-preset-${preset}-`));
  made.push(dir);
  cpSync(fixture('presets', preset), dir, { recursive: true });
  return dir;
}

/**
 * A copy of the built package with `presets` added to its presets/ folder (a preset is package data: a
 * test cannot add one to docgate's own folder), and a CLI that runs that copy.
 */
function packageWith(presets: Record<string, string>): (args: string[], cwd?: string) => CliResult {
  const dir = mkdtempSync(join(tmpdir(), 'docgate-package-'));
  made.push(dir);
  for (const entry of ['package.json', 'bin', 'dist', 'schemas', 'presets']) cpSync(join(REPO, entry), join(dir, entry), { recursive: true });
  symlinkSync(join(REPO, 'node_modules'), join(dir, 'node_modules'), 'dir');
  for (const [name, text] of Object.entries(presets)) writeFileSync(join(dir, 'presets', `${name}.yaml`), text);
  const bin = join(dir, 'bin', 'docgate.js');
  return (args, cwd) => {
    const env = { ...process.env };
    delete env.DOCGATE_ROOT;
    const r = spawnSync(process.execPath, [bin, ...args], { cwd: cwd ?? dir, env, encoding: 'utf8' });
    return { code: r.status, stdout: r.stdout, stderr: r.stderr };
  };
}

describe('the presets key', () => {
  it('refuses a preset docgate does not ship (exit 2), at the name, listing the known names', () => {
    const root = tempRoot('docgate-preset-', { 'docgate.config.yaml': 'presets:\n  - agent-skill\n' }, made);
    expect(runCli(['lint', '--root', root])).toEqual({
      code: 2,
      stdout: '',
      stderr: `docgate: docgate.config.yaml:2:5 Unexpected preset \`agent-skill\`, expected one of: ${KNOWN}\n`,
    });
  });

  it('refuses two presets that define the same kind, at the name of the second (also when it comes through another preset)', () => {
    const skill = 'kinds:\n  skill:\n    include: ["lib/*/SKILL.md"]\n    frontmatter: skill.schema.json\n';
    const cli = packageWith({ 'my-skills': skill, 'more-skills': skill });
    const root = tempRoot('docgate-preset-', { 'docgate.config.yaml': 'presets: [my-skills, more-skills]\n' }, made);
    expect(cli(['lint', '--root', root])).toEqual({
      code: 2,
      stdout: '',
      stderr: 'docgate: docgate.config.yaml:1:22 presets `my-skills` and `more-skills` both define kind `skill`\n',
    });
  });
});
