import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseDocument } from 'yaml';
import { REPO } from './helpers.js';

/* action.yml, and a runner of its composite steps for tests (test/action.test.ts, test/slow/install.test.ts). */

export interface Step {
  name: string;
  id?: string;
  shell?: string;
  env?: Record<string, string>;
  run?: string;
}
export interface Action {
  name: string;
  description: string;
  inputs: Record<string, { description: string; required?: boolean; default?: string }>;
  outputs: Record<string, { description: string; value: string }>;
  runs: { using: string; steps: Step[] };
}

export const actionText = readFileSync(join(REPO, 'action.yml'), 'utf8');
export const actionDoc = parseDocument(actionText);
export const action = actionDoc.toJS() as Action;
export const EXPRESSION = /\$\{\{\s*([^}]*?)\s*\}\}/g;

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

export interface ActionRun {
  /** Exit code of the last step that ran (the runner stops at the first that fails). */
  code: number | null;
  stdout: string;
  stderr: string;
  outputs: Record<string, string>;
  summary: string;
  /** Every line each step wrote to its $GITHUB_OUTPUT, by step id. */
  stepOutputs: Record<string, Record<string, string>>;
}

/**
 * Runs the composite action's steps as the runner does: each step's `env` with its `${{ }}` expressions
 * evaluated (inputs, github.action_path, steps.<id>.outputs.<name>), its `run` through
 * `bash --noprofile --norc -eo pipefail`, in the workspace, with $GITHUB_OUTPUT a file of its own and
 * $GITHUB_STEP_SUMMARY one file for the job, $RUNNER_TEMP a new folder (listed in `made`, for the
 * caller to remove); the action's outputs are evaluated last. The action runs from `actionPath` (this
 * checkout unless a test gives a clone of its own).
 */
export function runAction(
  workspace: string,
  inputs: Record<string, string>,
  made: string[],
  baseEnv: NodeJS.ProcessEnv = process.env,
  actionPath: string = REPO,
): ActionRun {
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
      if (expr === 'github.action_path') return actionPath;
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
    const env: NodeJS.ProcessEnv = {
      ...baseEnv,
      GITHUB_OUTPUT: outputFile,
      GITHUB_STEP_SUMMARY: summaryFile,
      GITHUB_WORKSPACE: workspace,
      GITHUB_ACTION_PATH: actionPath,
      RUNNER_TEMP: tmp,
    };
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
