import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseDocument } from 'yaml';
import { REPO, fixture, lintRoot, runCli } from './helpers.js';

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

  it('runs docgate lint with the staged file names, installed as a node package whose bin is docgate', () => {
    const hook = hooks.find((h) => h.id === 'docgate')!;
    expect(hook).toMatchObject({ language: 'node', entry: 'docgate lint', pass_filenames: true, require_serial: true });
    const pkg = JSON.parse(readFileSync(join(REPO, 'package.json'), 'utf8')) as { bin: Record<string, string> };
    expect(Object.keys(pkg.bin)).toContain((hook.entry as string).split(' ')[0]);
  });

  it('selects with `files` exactly the documents docgate checks in a root of the default layout', () => {
    const hook = hooks.find((h) => h.id === 'docgate')!;
    const tracked = execFileSync('git', ['ls-files'], { cwd: REPO, encoding: 'utf8' }).split('\n').filter(Boolean);
    const checked = lintRoot(REPO).checked!.map((c) => c.path);
    expect(checked.length).toBeGreaterThan(10);
    expect(tracked.filter((p) => filesRegex(hook).test(p)).sort()).toEqual([...checked].sort());
    // Language variants too (the bundled content has a `de` one; the regex allows any folder name).
    expect(filesRegex(hook).test('docs/sysrs/de/docgate-core.md')).toBe(true);
    expect(filesRegex(hook).test('docs/sysrs/de/x/deeper.md')).toBe(false);
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
