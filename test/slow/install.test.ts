import { execFileSync, spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { runAction } from '../action-runner.js';
import { REPO, fixture, gitEnv } from '../helpers.js';

/*
 * SPEC §12 as a team meets it: `npm pack` in a checkout of docgate, `npm install --save-dev <tarball>` in a
 * fresh repository (the registry is asked only for docgate's dependencies, from the npm cache when it
 * has them), `npx --no-install docgate lint` there, the hook set up with the README's own commands, and
 * commits. The pack runs in a copy of this checkout (its files as git sees them, node_modules linked):
 * its prepack builds there, not in the dist/ the other tests are running.
 */
const SLOW = 240_000;
const tmp = mkdtempSync(join(tmpdir(), 'docgate-install-'));
const checkout = join(tmp, 'docgate');
const repo = join(tmp, 'content-repo');

/** npm as from a user's shell: nothing inherited from the `npm test` that may be running this file. */
function npmEnv(): NodeJS.ProcessEnv {
  const env = gitEnv();
  for (const key of Object.keys(env)) if (/^npm_/i.test(key) || key === 'INIT_CWD') delete env[key];
  return { ...env, npm_config_prefer_offline: 'true', npm_config_audit: 'false', npm_config_fund: 'false', npm_config_update_notifier: 'false' };
}
const env = npmEnv();

function sh(command: string, cwd: string, shEnv: NodeJS.ProcessEnv = env): { code: number | null; output: string; stdout: string } {
  const r = spawnSync('bash', ['-c', command], { cwd, env: shEnv, encoding: 'utf8' });
  return { code: r.status, output: `${r.stdout}${r.stderr}`, stdout: r.stdout };
}

function git(...args: string[]): string {
  return execFileSync('git', args, { cwd: repo, env, encoding: 'utf8' });
}

/** The fenced blocks of a README section (`### <title>` up to the next heading of its level or above). */
function readmeBlocks(title: string, lang: string): string[] {
  const readme = readFileSync(join(REPO, 'README.md'), 'utf8');
  const start = readme.indexOf(`\n### ${title}\n`);
  expect(start, `README section ${title}`).toBeGreaterThan(0);
  const rest = readme.slice(start + 1);
  const end = rest.slice(4).search(/\n#{1,3} /);
  const section = end < 0 ? rest : rest.slice(0, end + 4);
  return [...section.matchAll(new RegExp(`\`\`\`${lang}\\n([\\s\\S]*?)\`\`\``, 'g'))].map((m) => m[1]!);
}

let tarball = '';
let packStdout = '';
let installOutput = '';

beforeAll(() => {
  mkdirSync(checkout);
  const files = execFileSync('git', ['ls-files', '-co', '--exclude-standard', '-z'], { cwd: REPO, encoding: 'utf8' }).split('\0').filter(Boolean);
  for (const f of files) {
    if (!existsSync(join(REPO, f))) continue; // deleted in the working tree, not yet committed
    mkdirSync(dirname(join(checkout, f)), { recursive: true });
    cpSync(join(REPO, f), join(checkout, f));
  }
  symlinkSync(join(REPO, 'node_modules'), join(checkout, 'node_modules'), 'dir');
  const pack = sh(`npm pack --pack-destination ${JSON.stringify(tmp)}`, checkout);
  packStdout = pack.stdout;
  expect(pack.code, pack.output).toBe(0);
  tarball = join(tmp, readdirSync(tmp).find((f) => f.endsWith('.tgz'))!);

  mkdirSync(repo);
  git('init', '-q', '-b', 'main');
  writeFileSync(join(repo, 'package.json'), `${JSON.stringify({ name: 'content-repo', version: '1.0.0', private: true }, null, 2)}\n`);
  writeFileSync(join(repo, '.gitignore'), 'node_modules\n.docgatecache\n');
  const install = sh(`npm install --save-dev ${JSON.stringify(tarball)}`, repo);
  installOutput = install.output;
  expect(install.code, install.output).toBe(0);
}, SLOW);

afterAll(() => rmSync(tmp, { recursive: true, force: true }));

const GOOD = '---\nname: Deployment\ndescription: How we ship.\n---\n# Deployment\n\nShip on green.\n';
const BROKEN = GOOD.replace('description:', 'owner: Platform\ndescription:');

describe('docgate packed, installed from the tarball into another repository (SPEC §12)', () => {
  it('packs with the build and the docs, leaves the checkout as it was, and installs without a warning', () => {
    // stdout is the tarball's name alone (the prepack build's output stays off it: .npmrc), as tools that
    // pack and then install the tarball by that name read it (the pre-commit framework does).
    expect(packStdout).toBe(
      'docgate-0.1.0.tgz\n'.replace('0.1.0', (JSON.parse(readFileSync(join(REPO, 'package.json'), 'utf8')) as { version: string }).version),
    );
    expect(JSON.parse(readFileSync(join(checkout, 'package.json'), 'utf8'))).toEqual(JSON.parse(readFileSync(join(REPO, 'package.json'), 'utf8')));
    expect(existsSync(join(checkout, 'package.json.prepack'))).toBe(false);
    expect(installOutput).not.toMatch(/warn/i);
    const installed = join(repo, 'node_modules', 'docgate');
    const pkg = JSON.parse(readFileSync(join(installed, 'package.json'), 'utf8')) as { scripts: Record<string, string> };
    expect(Object.keys(pkg.scripts)).not.toContain('prepare');
    expect(existsSync(join(installed, 'dist', 'bundle', 'docgate.cjs'))).toBe(true);
    // Every link of the README to a file of the repository resolves inside the package.
    const readme = readFileSync(join(installed, 'README.md'), 'utf8');
    const links = [...readme.matchAll(/\]\(([^)#:]+)(?:#[^)]*)?\)/g)].map((m) => m[1]!);
    expect(links).toContain('docs/rules.md');
    for (const link of links) expect(existsSync(join(installed, link)), link).toBe(true);
  });

  it('`npx --no-install docgate lint` fails on a broken document, naming it, with the docs linked from SARIF', () => {
    mkdirSync(join(repo, 'processes'));
    writeFileSync(join(repo, 'processes', 'deployment.md'), BROKEN);
    const r = sh('npx --no-install docgate lint', repo);
    expect(r.code, r.output).toBe(1);
    expect(r.output).toContain('processes/deployment.md\n  3:1 Unexpected key `owner`, expected one of: `name`, `description` [unknown-key]');
    const sarif = JSON.parse(sh('npx --no-install docgate lint --format sarif', repo).output) as {
      runs: { tool: { driver: { rules: { helpUri?: string }[] } } }[];
    };
    expect(sarif.runs[0]!.tool.driver.rules[0]!.helpUri).toMatch(/^https:\/\/.+\/docs\/rules\.md#unknown-key$/);
  });

  it("sets up the hook with the README's commands: a broken document is refused, the fixed one committed", () => {
    const [commands] = readmeBlocks('The hook', 'sh');
    const lines = commands!
      .split('\n')
      .map((l) => l.replace(/\s+#.*$/, '').trim())
      .filter(Boolean);
    expect(lines).toEqual(['npm install --save-dev husky', 'npx husky init', 'echo "npx --no-install docgate lint --staged --cache" > .husky/pre-commit']);
    for (const line of lines) {
      const r = sh(line, repo);
      expect(r.code, `${line}\n${r.output}`).toBe(0);
    }
    expect(readFileSync(join(repo, '.husky', 'pre-commit'), 'utf8')).toBe('npx --no-install docgate lint --staged --cache\n');
    expect(git('config', 'core.hooksPath').trim()).toBe('.husky/_');

    git('add', '-A');
    const refused = spawnSync('git', ['commit', '-m', 'docgate and a process'], { cwd: repo, env, encoding: 'utf8' });
    expect(refused.status, refused.stdout + refused.stderr).not.toBe(0);
    expect(refused.stdout + refused.stderr).toContain('processes/deployment.md\n  3:1 Unexpected key `owner`');
    expect(spawnSync('git', ['rev-parse', '--verify', '-q', 'HEAD'], { cwd: repo, env }).status).not.toBe(0);

    writeFileSync(join(repo, 'processes', 'deployment.md'), GOOD);
    git('add', '-A');
    const accepted = spawnSync('git', ['commit', '-m', 'docgate and a process'], { cwd: repo, env, encoding: 'utf8' });
    expect(accepted.status, accepted.stdout + accepted.stderr).toBe(0);
    expect(git('log', '--format=%s').trim()).toBe('docgate and a process');
    expect(git('show', 'HEAD:processes/deployment.md')).toBe(GOOD);
  });
});

describe('the action with `docgate:` an install spec (SPEC §12)', () => {
  it("installs the tarball into the runner's temporary folder and lints with it", () => {
    const ws = join(tmp, 'action-workspace');
    cpSync(fixture('ci-root'), ws, { recursive: true });
    const made: string[] = [];
    const r = runAction(ws, { docgate: tarball }, made, env);
    expect(r.code, r.stdout + r.stderr).toBe(1);
    expect(r.outputs.docgate).toBe(join(made[0]!, 'docgate-action', 'node_modules', 'docgate', 'bin', 'docgate.js'));
    expect(r.stdout).toContain('::error file=processes/release.md,line=4,col=1,title=unknown-key::');
    expect(r.outputs['sarif-file']).toBe('docgate.sarif');
    expect(existsSync(join(ws, 'docgate.sarif'))).toBe(true);
    expect(r.summary).toContain('| processes/release.md | 4:1 | unknown-key |');
    for (const dir of made) rmSync(dir, { recursive: true, force: true });
  });
});

describe('docgate installed from git (SPEC §12)', () => {
  const gitIn = (cwd: string, ...args: string[]) => execFileSync('git', args, { cwd, env, encoding: 'utf8' });
  let sha = '';
  // The checkout copy as a git repository of its own, committed as it is (node_modules, a link, stays out).
  beforeAll(() => {
    gitIn(checkout, 'init', '-q', '-b', 'main');
    writeFileSync(join(checkout, '.git', 'info', 'exclude'), 'node_modules\n');
    gitIn(checkout, 'add', '-A');
    gitIn(checkout, 'commit', '-q', '--no-verify', '-m', 'docgate as it is');
    sha = gitIn(checkout, 'rev-parse', 'HEAD').trim();
  });

  it("from a git URL: builds through prepare in npm's clone and lints there", () => {
    const other = join(tmp, 'git-installed');
    mkdirSync(join(other, 'processes'), { recursive: true });
    writeFileSync(join(other, 'package.json'), `${JSON.stringify({ name: 'other', version: '1.0.0', private: true }, null, 2)}\n`);
    const install = sh(`npm install --save-dev "git+file://${checkout}#${sha}"`, other);
    expect(install.code, install.output).toBe(0);
    // npm 11 names the prepare script that built docgate in its clone (an advisory about allowScripts), nothing else.
    for (const line of install.output.split('\n').filter((l) => /warn/i.test(l))) expect(line).toMatch(/^npm warn install-scripts/);
    expect(existsSync(join(other, 'node_modules', 'docgate', 'dist', 'bundle', 'docgate.cjs'))).toBe(true);
    expect(existsSync(join(other, 'node_modules', 'docgate', 'docs', 'rules.md'))).toBe(true);

    writeFileSync(join(other, 'processes', 'deployment.md'), BROKEN);
    const r = sh('npx --no-install docgate lint', other);
    expect(r.code, r.output).toBe(1);
    expect(r.output).toContain('processes/deployment.md\n  3:1 Unexpected key `owner`');
  });

  it('as the pre-commit framework installs a node hook: npm install in a clone, npm pack, a global install; then the hook runs', () => {
    // pre_commit/languages/node.py: in its clone of the hook repository `npm install` with dev and prod
    // dependencies, then `npm pack`, whose stdout it takes for the tarball's name, then `npm install -g`
    // of that tarball into the hook's environment (NPM_CONFIG_PREFIX), whose bin folder leads PATH.
    const clone = join(tmp, 'pre-commit-clone');
    gitIn(tmp, 'clone', '-q', checkout, clone);
    gitIn(clone, 'checkout', '-q', sha);
    const prefix = join(tmp, 'node_env');
    const hookEnv = { ...env, NPM_CONFIG_PREFIX: prefix, npm_config_prefix: prefix, PATH: `${join(prefix, 'bin')}:${env.PATH}` };
    const install = sh('npm install --include=dev --include=prod --ignore-prepublish --no-progress --no-save', clone, hookEnv);
    expect(install.code, install.output).toBe(0);
    const pack = sh('npm pack', clone, hookEnv);
    expect(pack.code, pack.output).toBe(0);
    const name = pack.stdout.trim();
    expect(name).toMatch(/^docgate-\d+\.\d+\.\d+\.tgz$/);
    const global = sh(`npm install -g ${JSON.stringify(join(clone, name))}`, clone, hookEnv);
    expect(global.code, global.output).toBe(0);

    // The hook as .pre-commit-hooks.yaml declares it: its entry, then the staged files its regex matches.
    const hook = (parse(readFileSync(join(REPO, '.pre-commit-hooks.yaml'), 'utf8')) as { id: string; entry: string; files: string }[]).find(
      (h) => h.id === 'docgate',
    )!;
    const root = fixture('ci-root');
    const files = execFileSync('git', ['ls-files'], { cwd: root, encoding: 'utf8' })
      .split('\n')
      .filter((p) => new RegExp(hook.files).test(p));
    const r = spawnSync(hook.entry.split(' ')[0]!, [...hook.entry.split(' ').slice(1), ...files], { cwd: root, env: hookEnv, encoding: 'utf8' });
    expect(r.status, r.stdout + r.stderr).toBe(1);
    expect(r.stdout).toContain('processes/release.md\n  4:1 Unexpected key `owner`');
    expect(sh('command -v docgate', root, hookEnv).stdout.trim()).toBe(join(prefix, 'bin', 'docgate'));
  });
});
