import { execFileSync, spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { gitEnv, installHookRepo } from './helpers.js';

/**
 * A real temporary git repository with docgate's own hook set-up (package.json with the lint-staged
 * configuration, .husky/pre-commit, husky installed by its own CLI), committing as a user would.
 */
const repo = mkdtempSync(join(tmpdir(), 'docgate-hook-'));
const env = gitEnv();

function git(...args: string[]): string {
  return execFileSync('git', args, { cwd: repo, env, encoding: 'utf8' });
}

function commit(message: string): { code: number | null; output: string } {
  const r = spawnSync('git', ['commit', '-m', message], { cwd: repo, env, encoding: 'utf8' });
  return { code: r.status, output: `${r.stdout}${r.stderr}` };
}

const GOOD = '---\nname: Code Review\ndescription: How we review code.\n---\n# Code Review\n\nEvery change gets a second pair of eyes.\n';

// What `npm ci` does through the `prepare` script: husky points git at .husky/_.
beforeAll(() => installHookRepo(repo, env));
afterAll(() => rmSync(repo, { recursive: true, force: true }));

function template(name: string, storeAs: string, uses = ''): string {
  return `framework: POWER\npurpose: Generate ${name}.md for the project.\noutput: Markdown with the required header and footer.\nwork: Read the code${uses}.\nexamples:\n- One example\nrequirements: Keep it short.\nsave_as: ${name}.md\nstore_as: ${storeAs}\n`;
}

describe('pre-commit hook (husky + .husky/pre-commit running docgate lint --staged)', () => {
  it('is installed by husky', () => {
    expect(git('config', 'core.hooksPath').trim()).toBe('.husky/_');
  });

  it('lets a clean content file through', () => {
    mkdirSync(join(repo, 'processes'), { recursive: true });
    writeFileSync(join(repo, 'processes', 'code-review.md'), GOOD);
    git('add', 'processes/code-review.md');
    const r = commit('add code review');
    expect(r.code, r.output).toBe(0);
    expect(git('log', '--format=%s', '-1').trim()).toBe('add code review');
  });

  it('refuses a broken process file with the stylish report naming it, then accepts the fix', () => {
    const broken = GOOD.replace('description:', 'owner: Platform\ndescription:').replace('Code Review', 'Deployment');
    writeFileSync(join(repo, 'processes', 'deployment.md'), broken);
    git('add', 'processes/deployment.md');
    const refused = commit('add deployment');
    expect(refused.code).not.toBe(0);
    expect(refused.output).toContain('processes/deployment.md');
    expect(refused.output).toContain('3:1 Unexpected key `owner`, expected one of: `name`, `description` [unknown-key]');
    expect(git('log', '--format=%s', '-1').trim()).toBe('add code review');
    // lint-staged restores the working tree: the file is still there, unchanged.
    expect(readFileSync(join(repo, 'processes', 'deployment.md'), 'utf8')).toBe(broken);

    writeFileSync(join(repo, 'processes', 'deployment.md'), GOOD.replace(/Code Review/g, 'Deployment'));
    git('add', 'processes/deployment.md');
    const accepted = commit('add deployment');
    expect(accepted.code, accepted.output).toBe(0);
    expect(git('log', '--format=%s', '-1').trim()).toBe('add deployment');
  });

  it('refuses a commit that deletes a template another one uses, naming the user; the fixing commit goes through', () => {
    mkdirSync(join(repo, 'templates', 'power'), { recursive: true });
    writeFileSync(join(repo, 'templates', 'power', 'readme.txt'), template('README', 'readme_summary'));
    writeFileSync(join(repo, 'templates', 'power', 'api.txt'), template('API', 'api_summary', ' and {{readme_summary}}'));
    git('add', 'templates');
    const added = commit('add templates');
    expect(added.code, added.output).toBe(0);

    // lint-staged would never run here: a deletion is no added, copied, modified or renamed file.
    git('rm', '-q', 'templates/power/readme.txt');
    const refused = commit('drop the readme template');
    expect(refused.code).not.toBe(0);
    expect(refused.output).toContain(
      'templates/power/api.txt\n  4:25 Unexpected placeholder `{{readme_summary}}` that no template stores, expected the `store_as` of another template [template-placeholder]',
    );
    expect(git('log', '--format=%s', '-1').trim()).toBe('add templates');

    writeFileSync(join(repo, 'templates', 'power', 'api.txt'), template('API', 'api_summary'));
    git('add', 'templates/power/api.txt');
    const accepted = commit('drop the readme template');
    expect(accepted.code, accepted.output).toBe(0);
    expect(git('log', '--format=%s', '-1').trim()).toBe('drop the readme template');
  });

  it('checks staged content files only: a broken file that is not staged does not block', () => {
    writeFileSync(join(repo, 'processes', 'wip.md'), '---\nname: [\n');
    writeFileSync(join(repo, 'notes.txt'), 'not content\n');
    git('add', 'notes.txt');
    const r = commit('add notes');
    expect(r.code, r.output).toBe(0);
  });
});
