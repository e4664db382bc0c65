import { execFileSync, spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
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

/** A new git repository at `dir` with a package.json of its own, ignoring node_modules and the cache. */
function npmRepo(dir: string, name: string): void {
  mkdirSync(dir, { recursive: true });
  execFileSync('git', ['init', '-q', '-b', 'main'], { cwd: dir, env });
  writeFileSync(join(dir, 'package.json'), `${JSON.stringify({ name, version: '1.0.0', private: true }, null, 2)}\n`);
  writeFileSync(join(dir, '.gitignore'), 'node_modules\n.docgatecache\n');
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

describe('a vendored tarball: committed under vendor/ of the repository, installed by a clean clone (docs/install.md)', () => {
  it("a clone's `npm ci` with an empty npm cache installs it, `npx --no-install docgate lint` is green; offline again from that cache", () => {
    const version = (JSON.parse(readFileSync(join(REPO, 'package.json'), 'utf8')) as { version: string }).version;
    const file = `docgate-${version}.tgz`;
    const guide = readFileSync(join(REPO, 'docs', 'install.md'), 'utf8');
    // The commands the guide gives, as this test runs them (the guide's version is the package's).
    const commands = [
      'mkdir -p vendor',
      `npm install --save-dev ./vendor/${file}`,
      `git add vendor/${file} package.json package-lock.json`,
      'npm ci',
      'npx --no-install docgate lint',
    ];
    for (const c of commands) expect(guide, c).toContain(c);

    const team = join(tmp, 'team-repo');
    npmRepo(team, 'team-repo');
    mkdirSync(join(team, 'processes'));
    writeFileSync(join(team, 'processes', 'deployment.md'), GOOD);
    expect(sh('mkdir -p vendor', team).code).toBe(0);
    cpSync(tarball, join(team, 'vendor', file));
    const add = sh(`npm install --save-dev ./vendor/${file}`, team);
    expect(add.code, add.output).toBe(0);
    // Recorded inside the repository, not at the path the tarball was packed to.
    const pkg = JSON.parse(readFileSync(join(team, 'package.json'), 'utf8')) as { devDependencies: Record<string, string> };
    expect(pkg.devDependencies.docgate).toBe(`file:vendor/${file}`);
    const lock = JSON.parse(readFileSync(join(team, 'package-lock.json'), 'utf8')) as { packages: Record<string, { resolved?: string }> };
    expect(lock.packages['node_modules/docgate']!.resolved).toBe(`file:vendor/${file}`);
    expect(sh(`git add vendor/${file} package.json package-lock.json .gitignore processes && git commit -q -m "docgate ${version}, vendored"`, team).code).toBe(
      0,
    );

    const clone = join(tmp, 'team-clone');
    execFileSync('git', ['clone', '-q', team, clone], { env });
    expect(existsSync(join(clone, 'node_modules'))).toBe(false);
    expect(existsSync(join(clone, 'vendor', file))).toBe(true);
    const cache = mkdtempSync(join(tmp, 'empty-npm-cache-'));
    const cleanEnv = { ...env };
    delete cleanEnv.npm_config_prefer_offline;
    const ci = sh(`npm ci --cache ${JSON.stringify(cache)}`, clone, cleanEnv);
    expect(ci.code, ci.output).toBe(0);
    expect(existsSync(join(clone, 'node_modules', 'docgate', 'dist', 'bundle', 'docgate.cjs'))).toBe(true);
    const lint = sh('npx --no-install docgate lint', clone, cleanEnv);
    expect(lint.code, lint.output).toBe(0);
    expect(lint.output).toMatch(/^0 problems in 0 files \(1 files? checked\)$/m);

    // The tarball needs no network, and its dependencies are in that cache now: offline from here on.
    rmSync(join(clone, 'node_modules'), { recursive: true, force: true });
    const offline = sh(`npm ci --offline --cache ${JSON.stringify(cache)}`, clone, cleanEnv);
    expect(offline.code, offline.output).toBe(0);
    writeFileSync(join(clone, 'processes', 'deployment.md'), BROKEN);
    const broken = sh('npx --no-install docgate lint', clone, cleanEnv);
    expect(broken.code, broken.output).toBe(1);
    expect(broken.output).toContain('processes/deployment.md\n  3:1 Unexpected key `owner`');
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

  it("pre-commit's first install of the hooks takes a clone and installs no package; the hooks refuse a broken commit", () => {
    // A repository with docgate installed from its tarball, and the pre-commit framework (Debian's
    // `pre-commit`, .ci/run installs it) pointed at this checkout's commit, with a store of its own
    // (PRE_COMMIT_HOME): the first install, timed as a newcomer meets it.
    const pc = join(tmp, 'pre-commit-repo');
    npmRepo(pc, 'pc');
    mkdirSync(join(pc, 'processes'));
    const install = sh(`npm install --save-dev ${JSON.stringify(tarball)}`, pc);
    expect(install.code, install.output).toBe(0);
    writeFileSync(
      join(pc, '.pre-commit-config.yaml'),
      `repos:\n  - repo: ${checkout}\n    rev: ${sha}\n    hooks:\n      - id: docgate\n      - id: docgate-staged\n`,
    );
    // Every npm that pre-commit might run is logged by a shim ahead of the real one on PATH.
    const shims = join(tmp, 'npm-shims');
    const npmLog = join(tmp, 'npm-calls.log');
    mkdirSync(shims);
    const realNpm = sh('command -v npm', pc).stdout.trim();
    writeFileSync(join(shims, 'npm'), `#!/bin/sh\necho "npm $*" >> ${JSON.stringify(npmLog)}\nexec ${JSON.stringify(realNpm)} "$@"\n`, { mode: 0o755 });
    const home = join(tmp, 'pre-commit-home');
    const pcEnv = { ...env, PRE_COMMIT_HOME: home, PATH: `${shims}:${env.PATH}` };

    const started = Date.now();
    const first = sh('pre-commit install-hooks', pc, pcEnv);
    const seconds = (Date.now() - started) / 1000;
    expect(first.code, first.output).toBe(0);
    const packages = sh(`find ${JSON.stringify(home)} -path '*/node_modules/*' -name package.json | wc -l`, pc).stdout.trim();
    console.log(
      `pre-commit install-hooks (first install): ${seconds.toFixed(1)} s, ${packages} packages installed, npm runs: ${existsSync(npmLog) ? readFileSync(npmLog, 'utf8').trim().split('\n').length : 0}`,
    );
    expect(seconds).toBeLessThanOrEqual(20);
    expect(Number(packages)).toBe(0);
    expect(existsSync(npmLog)).toBe(false);

    // husky's core.hooksPath: pre-commit refuses to install its git hook; docs/install.md says what to do.
    gitIn(pc, 'config', 'core.hooksPath', '.husky/_');
    const refusedInstall = sh('pre-commit install', pc, pcEnv);
    expect(refusedInstall.code).not.toBe(0);
    expect(refusedInstall.output).toContain('Cowardly refusing to install hooks with `core.hooksPath` set.');
    const guide = readFileSync(join(REPO, 'docs', 'install.md'), 'utf8');
    expect(guide).toContain('git config --unset-all core.hooksPath');
    gitIn(pc, 'config', '--unset-all', 'core.hooksPath');
    const installed = sh('pre-commit install', pc, pcEnv);
    expect(installed.code, installed.output).toBe(0);

    writeFileSync(join(pc, 'processes', 'deployment.md'), BROKEN);
    gitIn(pc, 'add', '-A');
    const refused = spawnSync('git', ['commit', '-m', 'a process'], { cwd: pc, env: pcEnv, encoding: 'utf8' });
    expect(refused.status, refused.stdout + refused.stderr).not.toBe(0);
    expect(refused.stdout + refused.stderr).toContain('processes/deployment.md\n  3:1 Unexpected key `owner`');
    expect(spawnSync('git', ['rev-parse', '--verify', '-q', 'HEAD'], { cwd: pc, env }).status).not.toBe(0);
    writeFileSync(join(pc, 'processes', 'deployment.md'), GOOD);
    gitIn(pc, 'add', '-A');
    const accepted = spawnSync('git', ['commit', '-m', 'a process'], { cwd: pc, env: pcEnv, encoding: 'utf8' });
    expect(accepted.status, accepted.stdout + accepted.stderr).toBe(0);
    // git passes the hook's report on to stderr.
    expect(accepted.stdout + accepted.stderr).toMatch(/^docgate lint\.+Passed$/m);
    expect(accepted.stdout + accepted.stderr).toMatch(/^docgate lint --staged\.+Passed$/m);
  });

  it("the action's fallback builds its own copy with the runtime dependencies, the compiler and the bundler only", () => {
    const actionCopy = join(tmp, 'action-copy');
    gitIn(tmp, 'clone', '-q', checkout, actionCopy);
    gitIn(actionCopy, 'checkout', '-q', sha);
    const ws = join(tmp, 'action-fallback-workspace');
    cpSync(fixture('ci-root'), ws, { recursive: true });
    const made: string[] = [];
    const r = runAction(ws, {}, made, env, actionCopy);
    expect(r.code, r.stdout + r.stderr).toBe(1);
    expect(r.outputs.docgate).toBe(join(actionCopy, 'bin', 'docgate.js'));
    expect(r.stdout).toContain('::error file=processes/release.md,line=4,col=1,title=unknown-key::');
    const modules = join(actionCopy, 'node_modules');
    const names = readdirSync(modules).flatMap((n) =>
      n.startsWith('@') ? readdirSync(join(modules, n)).map((m) => `${n}/${m}`) : n.startsWith('.') ? [] : [n],
    );
    const lock = JSON.parse(readFileSync(join(actionCopy, 'package-lock.json'), 'utf8')) as { packages: Record<string, { dev?: boolean }> };
    const all = Object.keys(lock.packages).filter((p) => p.startsWith('node_modules/')).length;
    console.log(`the action's fallback: ${names.length} packages in its copy (the lockfile's whole tree: ${all})`);
    for (const devTool of ['vitest', '@biomejs/biome', 'dependency-cruiser', 'remark-cli', 'husky', 'lint-staged']) expect(names).not.toContain(devTool);
    expect(names.length).toBeLessThan(all / 3);
    for (const dir of made) rmSync(dir, { recursive: true, force: true });
  });
});
