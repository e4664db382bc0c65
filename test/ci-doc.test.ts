import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { action } from './action-runner.js';
import { REPO } from './helpers.js';

/*
 * docs/ci.md's workflow as a user copies it: complete (the permissions the SARIF upload needs, the
 * fork guard of this repository's own workflow), with the action's real inputs and outputs.
 */
interface WorkflowStep {
  id?: string;
  name?: string;
  uses?: string;
  run?: string;
  if?: string;
  with?: Record<string, string>;
}
interface Workflow {
  permissions: Record<string, string>;
  jobs: Record<string, { permissions: Record<string, string>; steps: WorkflowStep[] }>;
}

const guide = readFileSync(join(REPO, 'docs', 'ci.md'), 'utf8');
const [block] = [...guide.matchAll(/```yaml\n([\s\S]*?)```/g)].map((m) => m[1]!);
const workflow = parse(block!) as Workflow;
const own = parse(readFileSync(join(REPO, '.github', 'workflows', 'content.yml'), 'utf8')) as Workflow;
const steps = Object.values(workflow.jobs)[0]!.steps;
const ownSteps = Object.values(own.jobs)[0]!.steps;

describe('docs/ci.md, the GitHub workflow', () => {
  it('reads the repository only, and gives the job what the SARIF upload needs', () => {
    expect(workflow.permissions).toEqual({ contents: 'read' });
    expect(Object.values(workflow.jobs)[0]!.permissions).toEqual({ contents: 'read', 'security-events': 'write', actions: 'read' });
  });

  it("installs the repository's docgate, then runs the action pinned to a commit", () => {
    const install = steps.findIndex((s) => s.run?.startsWith('npm ci'));
    const lint = steps.findIndex((s) => s.uses?.startsWith('docgate/docgate@'));
    expect(install).toBeGreaterThanOrEqual(0);
    expect(lint).toBeGreaterThan(install);
    expect(steps[lint]!.id).toBe('docgate');
    // The same pinned checkout and setup-node as this repository's own workflow.
    for (const name of ['actions/checkout@', 'actions/setup-node@'])
      expect(steps.find((s) => s.uses?.startsWith(name))!.uses).toBe(ownSteps.find((s) => s.uses?.startsWith(name))!.uses);
  });

  it("uploads the action's SARIF output with the fork guard of this repository's workflow", () => {
    const upload = steps.find((s) => s.uses?.startsWith('github/codeql-action/upload-sarif@'))!;
    const ownUpload = ownSteps.find((s) => s.uses?.startsWith('github/codeql-action/upload-sarif@'))!;
    expect(upload.uses).toBe(ownUpload.uses);
    // biome-ignore lint/suspicious/noTemplateCurlyInString: a GitHub expression, as the workflow spells it
    expect(upload.with).toEqual({ sarif_file: '${{ steps.docgate.outputs.sarif-file }}', category: 'docgate' });
    const guard = "(github.event_name != 'pull_request' || github.event.pull_request.head.repo.full_name == github.repository)";
    expect(ownUpload.if).toContain(guard);
    expect(upload.if).toBe(`always() && steps.docgate.outputs.sarif-file != '' && ${guard}`);
    expect(Object.keys(action.outputs)).toContain('sarif-file');
  });

  it('names every input and output of action.yml, and no other', () => {
    const rows = [...guide.matchAll(/^\| `([\w-]+)` \|/gm)].map((m) => m[1]!);
    expect(rows).toEqual(Object.keys(action.inputs));
    for (const [name, input] of Object.entries(action.inputs)) {
      const row = guide.split('\n').find((l) => l.startsWith(`| \`${name}\` |`))!;
      expect(row, name).toContain(input.default ? `| \`${input.default}\` |` : '| (none) |');
    }
    const outputs = /^Outputs: (.*)$/m.exec(guide)![1]!;
    expect([...outputs.matchAll(/`([\w-]+)` \(/g)].map((m) => m[1])).toEqual(Object.keys(action.outputs));
  });
});
