import { execFileSync, spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { fixDocument } from '../src/lint/fix.js';
import { lintRoot as lint } from '../src/lint/root.js';
import { lintStagedRoot as lintStaged } from '../src/lint/root.js';
import { loadProject } from '../src/project/project.js';
import type { Example, NotOkExample } from '../src/engine/rule.js';
import { rulesOf } from '../src/kinds/index.js';
import { gitEnv } from './helpers.js';

/**
 * Every rule's examples, run as tests (remark-lint's documented examples, ESLint's RuleTester): each
 * example is a root of its own holding the example's files; `ok` gives no diagnostic of the rule in its
 * file, `notOk` exactly the `line:column message` lines it lists.
 */
const RULES = [...rulesOf().values()];
const outside = mkdtempSync(join(tmpdir(), 'docgate-examples-outside-'));
writeFileSync(join(outside, 'secret.md'), '# Secret\n');
const roots: string[] = [];
afterAll(() => {
  for (const r of [outside, ...roots]) rmSync(r, { recursive: true, force: true });
});

function write(root: string, path: string, text: Example['text']): void {
  const abs = join(root, path);
  mkdirSync(dirname(abs), { recursive: true });
  if (typeof text === 'string') writeFileSync(abs, text);
  else if ('bytes' in text) writeFileSync(abs, Buffer.from(text.bytes));
  else if (text.entry === 'directory') mkdirSync(abs);
  else if (text.entry === 'fifo') spawnSync('mkfifo', [abs]);
  else if (text.entry === 'broken-link') symlinkSync(join(root, 'nothing-here'), abs);
  else if (text.entry === 'symlink-outside') symlinkSync(join(outside, 'secret.md'), abs);
}

/** Whether the example is a state of the git index (linted with `--staged`), not of the disk. */
function unmerged(example: Example): boolean {
  return typeof example.text === 'object' && 'entry' in example.text && example.text.entry === 'unmerged';
}

/** A git repository whose index has `path` in conflict: two branches changed it differently, then were merged. */
function conflictAt(root: string, path: string): void {
  const git = (...args: string[]) => spawnSync('git', args, { cwd: root, env: gitEnv(), encoding: 'utf8' });
  const version = (name: string) => write(root, path, `---\nname: ${name}\ndescription: How we do it.\n---\n# ${name}\n\nStep one.\n`);
  execFileSync('git', ['init', '-q', '-b', 'main'], { cwd: root, env: gitEnv() });
  version('Base');
  for (const args of [
    ['add', '-A'],
    ['commit', '-q', '-m', 'base'],
    ['checkout', '-q', '-b', 'other'],
  ])
    git(...args);
  version('Theirs');
  git('commit', '-q', '-am', 'theirs');
  git('checkout', '-q', 'main');
  version('Ours');
  git('commit', '-q', '-am', 'ours');
  git('merge', '-q', 'other'); // fails: the conflict is the example
}

function rootOf(example: Example): string {
  const root = mkdtempSync(join(tmpdir(), 'docgate-example-'));
  roots.push(root);
  if (unmerged(example)) conflictAt(root, example.path);
  else write(root, example.path, example.text);
  for (const [path, text] of Object.entries(example.others ?? {})) write(root, path, text);
  return root;
}

/** The rule's diagnostics in the example's file, as `line:column message`, and whether each carries a fix. */
function diagnosticsOf(ruleId: string, example: Example) {
  const root = rootOf(example);
  const run = unmerged(example) ? lintStaged({ root, paths: [] }) : lint({ root, paths: [] });
  const result = [...run.results, ...run.warnings].find((r) => r.path === example.path);
  return (result?.diagnostics ?? []).filter((d) => d.rule === ruleId);
}

function run(ruleId: string, example: Example): string[] {
  return diagnosticsOf(ruleId, example).map((d) => `${d.line}:${d.column} ${d.message}`);
}

/** The example's file after every fix (`lint --fix`), or null when no fix applies. */
function fixed(example: NotOkExample): string | null {
  const root = rootOf(example);
  const project = loadProject(root);
  const place = project.layout.classify(example.path)!;
  const bytes = typeof example.text === 'string' ? Buffer.from(example.text, 'utf8') : Buffer.from((example.text as { bytes: number[] }).bytes);
  return fixDocument({ path: example.path, ...place }, bytes, project)?.toString('utf8') ?? null;
}

describe('every rule is one documented unit', () => {
  it.each(RULES.map((e) => [e.rule.id, e] as const))('%s has a description and examples', (_id, { rule }) => {
    expect(rule.description.trim()).not.toBe('');
    expect(rule.description).not.toContain('\n');
    expect(rule.examples.ok.length).toBeGreaterThan(0);
    expect(rule.examples.notOk.length).toBeGreaterThan(0);
    for (const ex of rule.examples.notOk) expect(ex.expected.length).toBeGreaterThan(0);
    // A fixable rule shows (and so tests) at least one fix; a rule that is not fixable shows none.
    expect(rule.examples.notOk.some((ex) => ex.output !== undefined)).toBe(rule.fixable);
  });
});

describe('rule examples', () => {
  for (const { rule } of RULES) {
    describe(rule.id, () => {
      rule.examples.ok.forEach((ex, i) => {
        it(`ok #${i + 1} (${ex.path}) has no ${rule.id} diagnostic`, () => {
          expect(run(rule.id, ex)).toEqual([]);
        });
      });
      rule.examples.notOk.forEach((ex, i) => {
        it(`not ok #${i + 1} (${ex.path}) gives exactly its lines`, () => {
          expect(run(rule.id, ex)).toEqual(ex.expected);
        });
        if (ex.output !== undefined) {
          const output = ex.output;
          it(`not ok #${i + 1} (${ex.path}) is fixed to its output, which has no ${rule.id} diagnostic`, () => {
            expect(diagnosticsOf(rule.id, ex).every((d) => d.fix !== undefined)).toBe(true);
            expect(fixed(ex)).toBe(output);
            expect(run(rule.id, { path: ex.path, text: output, ...(ex.others ? { others: ex.others } : {}) })).toEqual([]);
          });
        }
      });
    });
  }
});
