import { spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { parseDocument } from 'yaml';
import type { SarifLog } from '../src/report/sarif.js';
import { REPO, fixture } from './helpers.js';

interface Step {
  name: string;
  id?: string;
  shell?: string;
  env?: Record<string, string>;
  run?: string;
}
interface Action {
  name: string;
  description: string;
  inputs: Record<string, { description: string; required?: boolean; default?: string }>;
  outputs: Record<string, { description: string; value: string }>;
  runs: { using: string; steps: Step[] };
}

const text = readFileSync(join(REPO, 'action.yml'), 'utf8');
const doc = parseDocument(text);
const action = doc.toJS() as Action;
const EXPRESSION = /\$\{\{\s*([^}]*?)\s*\}\}/g;

/** What a step writes to $GITHUB_OUTPUT: `name=value` lines. */
function readOutputs(file: string): Record<string, string> {
  const out: Record<string, string> = {};
  if (!existsSync(file)) return out;
  for (const line of readFileSync(file, 'utf8').split('\n')) {
    const eq = line.indexOf('=');
    if (eq > 0) out[line.slice(0, eq)] = line.slice(eq + 1);
  }
  return out;
}

interface ActionRun {
  /** Exit code of the last step that ran (the runner stops at the first that fails). */
  code: number | null;
  stdout: string;
  stderr: string;
  outputs: Record<string, string>;
  summary: string;
  /** Every line each step wrote to its $GITHUB_OUTPUT, by step id. */
  stepOutputs: Record<string, Record<string, string>>;
}

const made: string[] = [];
afterAll(() => {
  for (const dir of made) rmSync(dir, { recursive: true, force: true });
});

/**
 * Runs the composite action's steps as the runner does: each step's `env` with its `${{ }}` expressions
 * evaluated (inputs, github.action_path, steps.<id>.outputs.<name>), its `run` through
 * `bash --noprofile --norc -eo pipefail`, in the workspace, with $GITHUB_OUTPUT a file of its own and
 * $GITHUB_STEP_SUMMARY one file for the job; the action's outputs are evaluated last.
 */
function runAction(workspace: string, inputs: Record<string, string>): ActionRun {
  const tmp = mkdtempSync(join(tmpdir(), 'docgate-action-run-'));
  made.push(tmp);
  const summaryFile = join(tmp, 'step-summary.md');
  writeFileSync(summaryFile, '');
  const stepOutputs: Record<string, Record<string, string>> = {};
  const evaluate = (value: string): string =>
    value.replace(EXPRESSION, (_, expr: string) => {
      let m = /^inputs\.([\w-]+)$/.exec(expr);
      if (m) return inputs[m[1]!] ?? action.inputs[m[1]!]?.default ?? '';
      m = /^steps\.([\w-]+)\.outputs\.([\w-]+)$/.exec(expr);
      if (m) return stepOutputs[m[1]!]?.[m[2]!] ?? '';
      if (expr === 'github.action_path') return REPO;
      if (expr === 'github.workspace') return workspace;
      throw new Error(`unexpected expression ${expr}`);
    });
  let code: number | null = 0;
  let stdout = '';
  let stderr = '';
  action.runs.steps.forEach((step, i) => {
    if (code !== 0) return;
    const outputFile = join(tmp, `output-${i}`);
    writeFileSync(outputFile, '');
    const script = join(tmp, `step-${i}.sh`);
    writeFileSync(script, step.run!);
    const env: NodeJS.ProcessEnv = { ...process.env, GITHUB_OUTPUT: outputFile, GITHUB_STEP_SUMMARY: summaryFile, GITHUB_WORKSPACE: workspace, GITHUB_ACTION_PATH: REPO, RUNNER_TEMP: tmp };
    delete env.DOCGATE_ROOT;
    for (const [k, v] of Object.entries(step.env ?? {})) env[k] = evaluate(v);
    const r = spawnSync('bash', ['--noprofile', '--norc', '-eo', 'pipefail', script], { cwd: workspace, env, encoding: 'utf8' });
    code = r.status;
    stdout += r.stdout;
    stderr += r.stderr;
    if (step.id) stepOutputs[step.id] = readOutputs(outputFile);
  });
  const outputs = Object.fromEntries(Object.entries(action.outputs).map(([name, o]) => [name, evaluate(o.value)]));
  return { code, stdout, stderr, outputs, summary: readFileSync(summaryFile, 'utf8'), stepOutputs };
}

/** A workspace: a copy of the fixture root with failures of every kind. */
function workspace(): string {
  const dir = mkdtempSync(join(tmpdir(), 'docgate-action-ws-'));
  made.push(dir);
  cpSync(fixture('ci-root'), dir, { recursive: true });
  return dir;
}

describe('action.yml (a composite GitHub Action)', () => {
  it('is valid YAML: a composite action whose steps are bash scripts with no expression inside', () => {
    expect(doc.errors).toEqual([]);
    expect(action.name).toBeTruthy();
    expect(action.description).toBeTruthy();
    expect(action.runs.using).toBe('composite');
    for (const step of action.runs.steps) {
      expect(step.shell, step.name).toBe('bash');
      expect(step.run, step.name).toBeTruthy();
      // Inputs reach a script through the environment only: an input pasted into it could inject commands.
      expect(step.run!.match(EXPRESSION), step.name).toBeNull();
    }
  });

  it('uses every input it declares, and declares every input it uses', () => {
    expect(Object.keys(action.inputs).sort()).toEqual(['args', 'config', 'docgate', 'root', 'sarif-file']);
    for (const [name, input] of Object.entries(action.inputs)) expect(input.description, name).toBeTruthy();
    const used = new Set([...text.matchAll(/\$\{\{\s*inputs\.([\w-]+)\s*\}\}/g)].map((m) => m[1]!));
    expect([...used].sort()).toEqual(Object.keys(action.inputs).sort());
  });

  it('takes every output from a step that exists and writes it to $GITHUB_OUTPUT', () => {
    expect(Object.keys(action.outputs).sort()).toEqual(['docgate', 'exit-code', 'sarif-file']);
    for (const [name, output] of Object.entries(action.outputs)) {
      expect(output.description, name).toBeTruthy();
      const m = /^\$\{\{\s*steps\.([\w-]+)\.outputs\.([\w-]+)\s*\}\}$/.exec(output.value);
      expect(m, output.value).not.toBeNull();
      const step = action.runs.steps.find((s) => s.id === m![1]);
      expect(step, `step ${m![1]}`).toBeDefined();
      expect(step!.run).toContain(`echo "${m![2]}=`);
      expect(step!.run).toContain('>> "$GITHUB_OUTPUT"');
    }
  });

  it('on a root with failures: annotations on stdout, the table in the step summary, the SARIF path as an output; the step fails', () => {
    const ws = workspace();
    const r = runAction(ws, {});
    expect(r.code, r.stderr).toBe(1);
    // No docgate in the workspace: the action's own copy (built, here the checkout) ran.
    expect(r.outputs.docgate).toBe(join(REPO, 'bin', 'docgate.js'));
    expect(r.outputs['exit-code']).toBe('1');
    expect(r.outputs['sarif-file']).toBe('docgate.sarif');
    expect(r.stepOutputs.lint).toEqual({ 'sarif-file': 'docgate.sarif', 'exit-code': '1' });
    expect(r.stdout).toContain('::error file=processes/release.md,line=4,col=1,title=unknown-key::4:1 Unexpected key `owner`');
    expect(r.stdout).toMatch(/^\d+ problems in 5 files \(10 files checked\)$/m);
    // The summary is docgate's table (heading, summary line, one row per problem).
    expect(r.summary.startsWith('## docgate\n\n')).toBe(true);
    expect(r.summary).toContain('| File | Line:Col | Rule | Message |');
    expect(r.summary).toContain('| processes/release.md | 4:1 | unknown-key |');
    const log = JSON.parse(readFileSync(join(ws, 'docgate.sarif'), 'utf8')) as SarifLog;
    const rows = r.summary.split('\n').filter((l) => /^\| [^-F]/.test(l));
    expect(log.runs[0]!.results).toHaveLength(rows.length);
    expect(log.runs[0]!.results.some((res) => res.locations[0]!.physicalLocation.artifactLocation.uri === 'processes/release.md')).toBe(true);
  });

  it("uses the repository's own docgate, its config, extra arguments and a SARIF path of its choice", () => {
    const ws = workspace();
    mkdirSync(join(ws, 'node_modules'));
    symlinkSync(REPO, join(ws, 'node_modules', 'docgate'), 'dir');
    writeFileSync(join(ws, 'ci.docgate.yaml'), 'rules:\n  unknown-key: warn\n');
    const r = runAction(ws, { config: 'ci.docgate.yaml', args: 'processes  --max-warnings 0', 'sarif-file': 'reports/docgate.sarif' });
    // The one problem of processes/ is a warning now, and --max-warnings 0 fails the run on it.
    expect(r.code, r.stderr).toBe(1);
    expect(r.outputs.docgate).toBe(join(ws, 'node_modules', 'docgate', 'bin', 'docgate.js'));
    expect(r.stdout).toContain('::warning file=processes/release.md,line=4,col=1,title=unknown-key::4:1 warning Unexpected key `owner`');
    expect(r.stdout).not.toContain('templates/power/');
    expect(r.stderr).toContain('docgate found too many warnings (maximum: 0).');
    expect(r.outputs['sarif-file']).toBe('reports/docgate.sarif');
    const log = JSON.parse(readFileSync(join(ws, 'reports', 'docgate.sarif'), 'utf8')) as SarifLog;
    expect(log.runs[0]!.results.map((res) => [res.ruleId, res.level])).toEqual([['unknown-key', 'warning']]);
    expect(r.summary).toContain('| processes/release.md | 4:1 | unknown-key |');
  });

  it('passes a clean run (exit 0, the summary says 0 problems)', () => {
    const ws = workspace();
    const r = runAction(ws, { args: 'processes/code-review.md frameworks/POWER.md' });
    expect(r.code, r.stderr).toBe(0);
    expect(r.outputs['exit-code']).toBe('0');
    expect(r.outputs['sarif-file']).toBe('docgate.sarif');
    expect(r.summary).toBe('## docgate\n\n0 problems in 0 files (2 files checked)\n\n');
  });

  it('on a configuration error: exit 2, no SARIF output, and the step summary says why', () => {
    const ws = workspace();
    writeFileSync(join(ws, 'bad.yaml'), 'rules:\n  no-such-rule: warn\n');
    const r = runAction(ws, { config: 'bad.yaml' });
    expect(r.code).toBe(2);
    expect(r.outputs['exit-code']).toBe('2');
    expect(r.outputs['sarif-file']).toBe('');
    expect(existsSync(join(ws, 'docgate.sarif'))).toBe(false);
    expect(r.stderr).toContain('no-such-rule');
    expect(r.summary).toBe('## docgate\n\ndocgate lint could not run (exit 2): a usage or configuration error, see the log of this step.\n');
  });
});
