import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseDocument } from 'yaml';
import { parseCli } from '../src/cli/args.js';
import { REPO } from './helpers.js';

interface Step {
  name?: string;
  uses?: string;
  run?: string;
  if?: string;
  with?: Record<string, unknown>;
}
interface Workflow {
  on: Record<string, unknown>;
  jobs: Record<string, { 'runs-on': string; permissions: Record<string, string>; steps: Step[] }>;
}

const text = readFileSync(join(REPO, '.github', 'workflows', 'content.yml'), 'utf8');
const doc = parseDocument(text);
const wf = doc.toJS() as Workflow;
const job = wf.jobs.docgate!;
const uses = (prefix: string): Step => job.steps.find((s) => s.uses?.startsWith(prefix))!;

describe('.github/workflows/content.yml', () => {
  it('is valid YAML that runs on push and pull_request on ubuntu-latest', () => {
    expect(doc.errors).toEqual([]);
    expect(Object.keys(wf.on).sort()).toEqual(['pull_request', 'push']);
    expect(job['runs-on']).toBe('ubuntu-latest');
    expect(job.permissions).toMatchObject({ contents: 'read', 'security-events': 'write' });
  });

  it('pins every action to a full commit SHA with its tag in a comment', () => {
    const lines = text.split('\n').filter((l) => /^\s*-?\s*uses:/.test(l));
    expect(lines).toHaveLength(3);
    for (const l of lines) expect(l).toMatch(/uses: [\w-]+\/[\w/-]+@[0-9a-f]{40} # v\d+(\.\d+)*$/);
  });

  it('installs with npm ci on Node 20 with the npm cache', () => {
    expect(uses('actions/checkout@')).toBeDefined();
    expect(uses('actions/setup-node@').with).toMatchObject({ 'node-version': 20, cache: 'npm' });
    const runs = job.steps.filter((s) => s.run).map((s) => s.run!.trim());
    expect(runs[0]).toBe('npm ci');
  });

  it('lints once with github annotations to stdout and SARIF to a file, which upload-sarif uploads always', () => {
    const lintStep = job.steps.find((s) => s.run?.includes('docgate.js lint'))!;
    const argv = lintStep.run!.trim().split(/\s+/);
    expect(argv.slice(0, 2)).toEqual(['node', 'bin/docgate.js']);
    const args = parseCli(argv.slice(2), {});
    expect(args).toMatchObject({ command: 'lint', targets: [{ format: 'github' }, { format: 'sarif', output: 'docgate.sarif' }] });
    const upload = uses('github/codeql-action/upload-sarif@');
    expect(upload.if).toMatch(/^always\(\)/);
    expect(upload.with).toMatchObject({ sarif_file: 'docgate.sarif' });
    expect(job.steps.indexOf(upload)).toBeGreaterThan(job.steps.indexOf(lintStep));
  });
});
