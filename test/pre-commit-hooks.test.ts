import { execFileSync, spawnSync } from 'node:child_process';
import { mkdirSync, readFileSync, rmSync, statSync, symlinkSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { parseDocument } from 'yaml';
import { hookFilesRegex } from '../src/report/hook-files.js';
import { REPO, fixture, lintRoot, runCli, tempRoot } from './helpers.js';

/*
 * The manifest's fields as the pre-commit framework checks them (pre_commit/clientlib.py,
 * MANIFEST_HOOK_DICT: required id, name, entry, language; the optional fields with their types), its
 * languages (pre_commit/languages/all.py) and its stages (pre_commit/constants.py, STAGES). The
 * `pre-commit` tool itself is a Python package, which cannot be installed on this machine.
 */
type FieldType = 'string' | 'regex' | 'boolean' | 'string[]';
const REQUIRED: Record<string, FieldType> = { id: 'string', name: 'string', entry: 'string', language: 'string' };
const OPTIONAL: Record<string, FieldType> = {
  alias: 'string',
  files: 'regex',
  exclude: 'regex',
  types: 'string[]',
  types_or: 'string[]',
  exclude_types: 'string[]',
  additional_dependencies: 'string[]',
  args: 'string[]',
  always_run: 'boolean',
  fail_fast: 'boolean',
  pass_filenames: 'boolean',
  description: 'string',
  language_version: 'string',
  log_file: 'string',
  minimum_pre_commit_version: 'string',
  require_serial: 'boolean',
  stages: 'string[]',
  verbose: 'boolean',
};
const LANGUAGES = [
  'conda',
  'coursier',
  'dart',
  'docker',
  'docker_image',
  'dotnet',
  'fail',
  'golang',
  'haskell',
  'julia',
  'lua',
  'node',
  'perl',
  'pygrep',
  'python',
  'r',
  'ruby',
  'rust',
  'script',
  'swift',
  'system',
  'unsupported',
  'unsupported_script',
];
const STAGES = [
  'commit-msg',
  'post-checkout',
  'post-commit',
  'post-merge',
  'post-rewrite',
  'pre-commit',
  'pre-merge-commit',
  'pre-push',
  'pre-rebase',
  'prepare-commit-msg',
  'manual',
];

type Hook = Record<string, unknown>;
const text = readFileSync(join(REPO, '.pre-commit-hooks.yaml'), 'utf8');
const doc = parseDocument(text);
const hooks = doc.toJS() as Hook[];

function hasType(value: unknown, type: FieldType): boolean {
  if (type === 'string[]') return Array.isArray(value) && value.every((v) => typeof v === 'string');
  if (type === 'boolean') return typeof value === 'boolean';
  return typeof value === 'string';
}

/** The hook's `files` regex, as pre-commit applies it (Python `re.search` on the root-relative path). */
function filesRegex(hook: Hook): RegExp {
  return new RegExp(hook.files as string);
}

describe('.pre-commit-hooks.yaml (the pre-commit framework manifest)', () => {
  it('is a YAML list of hooks whose fields are the manifest fields, with their types', () => {
    expect(doc.errors).toEqual([]);
    expect(Array.isArray(hooks)).toBe(true);
    expect(hooks.length).toBeGreaterThan(0);
    for (const hook of hooks) {
      for (const [key, type] of Object.entries(REQUIRED)) {
        expect(hasType(hook[key], type), `${key} is a ${type}`).toBe(true);
        expect((hook[key] as string).trim(), key).not.toBe('');
      }
      for (const [key, value] of Object.entries(hook)) {
        const type = REQUIRED[key] ?? OPTIONAL[key];
        expect(type, `unknown field ${key}`).toBeDefined();
        expect(hasType(value, type!), `${key} is a ${type}`).toBe(true);
        if (type === 'regex') expect(() => new RegExp(value as string)).not.toThrow();
      }
      expect(LANGUAGES).toContain(hook.language);
      for (const stage of (hook.stages as string[] | undefined) ?? []) expect(STAGES).toContain(stage);
      if (hook.minimum_pre_commit_version !== undefined) expect(hook.minimum_pre_commit_version).toMatch(/^\d+(\.\d+)*$/);
    }
    expect(new Set(hooks.map((h) => h.id)).size).toBe(hooks.length);
  });

  it('runs docgate lint with the staged file names through a script of the repository, which pre-commit installs nothing for', () => {
    const hook = hooks.find((h) => h.id === 'docgate')!;
    expect(hook).toMatchObject({ language: 'script', entry: 'scripts/pre-commit-hook.mjs lint', pass_filenames: true, require_serial: true });
    expect(hooks.find((h) => h.id === 'docgate-staged')).toMatchObject({ language: 'script', entry: 'scripts/pre-commit-hook.mjs lint --staged' });
    // pre-commit runs a script hook's file directly: it must be executable, in the working tree and in git.
    expect(statSync(join(REPO, 'scripts', 'pre-commit-hook.mjs')).mode & 0o111).not.toBe(0);
    expect(execFileSync('git', ['ls-files', '-s', 'scripts/pre-commit-hook.mjs'], { cwd: REPO, encoding: 'utf8' })).toMatch(/^100755 /);
  });

  it("`files` is the built-in kinds' and every preset's includes, as `npm run docs` writes it", () => {
    expect(hooks.find((h) => h.id === 'docgate')!.files).toBe(hookFilesRegex());
  });

  it("selects with `files` every document docgate checks in a root of the default layout, and besides only the presets' paths", () => {
    const hook = hooks.find((h) => h.id === 'docgate')!;
    const tracked = execFileSync('git', ['ls-files'], { cwd: REPO, encoding: 'utf8' }).split('\n').filter(Boolean);
    const checked = lintRoot(REPO).checked!.map((c) => c.path);
    expect(checked.length).toBeGreaterThan(10);
    const selected = tracked.filter((p) => filesRegex(hook).test(p));
    expect(selected).toEqual(expect.arrayContaining(checked));
    // The rest are the preset fixtures (SKILL.md, AGENTS.md, …): docgate decides, and skips them here.
    for (const p of selected.filter((s) => !checked.includes(s))) expect(p).toMatch(/^test\/fixtures\//);
    // Language variants too (the bundled content has a `de` one; the regex allows any folder name).
    expect(filesRegex(hook).test('docs/sysrs/de/docgate-core.md')).toBe(true);
    expect(filesRegex(hook).test('docs/sysrs/de/x/deeper.md')).toBe(false);
  });

  it("selects every document of each preset's fixture repository, where docgate checks them with that preset", () => {
    const hook = hooks.find((h) => h.id === 'docgate')!;
    for (const preset of ['agent-skills', 'agents-md', 'claude-code', 'copilot', 'cursor']) {
      const root = fixture('presets', preset);
      const checked = lintRoot(root).checked!.map((c) => c.path);
      expect(checked.length, preset).toBeGreaterThan(0);
      for (const p of checked) expect(filesRegex(hook).test(p), `${preset}: ${p}`).toBe(true);
    }
    for (const path of [
      'skills/pdf/SKILL.md',
      '.claude/skills/deploy/SKILL.md',
      '.claude/agents/review/security.md',
      '.claude/commands/commit.md',
      '.github/prompts/review.prompt.md',
      'docs/python.instructions.md',
      '.github/copilot-instructions.md',
      'agents/tester.agent.md',
      '.github/chatmodes/planner.chatmode.md',
      '.cursor/rules/typescript.mdc',
      'packages/web/.cursor/rules/react.mdc',
      'AGENTS.md',
      'packages/api/CLAUDE.md',
      'GEMINI.md',
    ])
      expect(filesRegex(hook).test(path), path).toBe(true);
    for (const path of ['README.md', 'docs/guide.md', '.github/workflows/ci.yml', 'processes/.draft.md', 'skills/SKILL.md'])
      expect(filesRegex(hook).test(path), path).toBe(false);
  });

  it('refuses broken files and passes clean ones when run as pre-commit runs it (entry, then the matching files)', () => {
    const hook = hooks.find((h) => h.id === 'docgate')!;
    const root = fixture('ci-root');
    const files = execFileSync('git', ['ls-files'], { cwd: root, encoding: 'utf8' })
      .split('\n')
      .filter((p) => filesRegex(hook).test(p));
    expect(files).toHaveLength(10);
    const argv = (hook.entry as string).split(' ').slice(1);

    const broken = runCli([...argv, ...files], { cwd: root });
    expect(broken.code).toBe(1);
    for (const path of ['processes/release.md', 'templates/power/gamma.txt', 'frameworks/Notes.md']) expect(broken.stdout).toContain(`${path}\n`);
    expect(broken.stdout).not.toContain('processes/code-review.md\n');

    const clean = runCli([...argv, 'processes/code-review.md', 'frameworks/POWER.md'], { cwd: root });
    expect(clean.stdout).toContain('0 problems in 0 files (2 files checked)');
    expect(clean.code).toBe(0);
  });
});

describe("scripts/pre-commit-hook.mjs (the hooks' entry)", () => {
  const made: string[] = [];
  afterAll(() => {
    for (const dir of made) rmSync(dir, { recursive: true, force: true });
  });
  const hookScript = join(REPO, 'scripts', 'pre-commit-hook.mjs');
  // PATH without any docgate: node's own folder and the system's.
  const PATH = [process.execPath.replace(/\/node$/, ''), '/usr/bin', '/bin'].join(':');
  const run = (cwd: string, args: string[]) => {
    const env: NodeJS.ProcessEnv = { ...process.env, PATH };
    delete env.DOCGATE_ROOT;
    return spawnSync(hookScript, args, { cwd, env, encoding: 'utf8' });
  };

  it("runs the repository's own docgate (node_modules/docgate) with its arguments, and exits with its code", () => {
    const root = tempRoot('docgate-hook-', { 'processes/release.md': readFileSync(fixture('ci-root', 'processes', 'release.md'), 'utf8') }, made);
    mkdirSync(join(root, 'node_modules'));
    symlinkSync(REPO, join(root, 'node_modules', 'docgate'), 'dir');
    const r = run(root, ['lint', 'processes/release.md']);
    const direct = runCli(['lint', 'processes/release.md'], { cwd: root });
    expect(r.status, r.stderr).toBe(1);
    expect(r.stdout).toBe(direct.stdout);
    expect(r.stdout).toContain('processes/release.md\n  4:1 Unexpected key `owner`');
  });

  it('says how to install docgate when the repository has none and PATH has none (exit 2)', () => {
    const root = tempRoot('docgate-hook-', { 'processes/a.md': '# A\n' }, made);
    const r = run(root, ['lint', 'processes/a.md']);
    expect(r.status).toBe(2);
    expect(r.stdout).toBe('');
    expect(r.stderr).toBe(
      'docgate: not installed in this repository (no node_modules/docgate) and no `docgate` on PATH.\n' +
        'Install it as a dev dependency (`npm install --save-dev ./vendor/docgate-<version>.tgz`, then commit the tarball,\n' +
        'package.json and package-lock.json), or run `npm ci` if the repository has it already:\n' +
        'https://github.com/docgate/docgate/blob/main/docs/install.md\n',
    );
  });
});
