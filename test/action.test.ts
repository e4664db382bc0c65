import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { SarifLog } from '../src/report/sarif.js';
import { EXPRESSION, action, actionDoc as doc, actionText as text, runAction as runSteps } from './action-runner.js';
import { REPO, fixture } from './helpers.js';

const made: string[] = [];
afterAll(() => {
  for (const dir of made) rmSync(dir, { recursive: true, force: true });
});

const runAction = (workspace: string, inputs: Record<string, string>) => runSteps(workspace, inputs, made);

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
