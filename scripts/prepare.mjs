#!/usr/bin/env node
// npm lifecycle scripts of docgate's own package.json (docs/decisions.md, "Installing without the registry"):
//
//   prepare   In a checkout (src/ and the TypeScript compiler present: `npm ci` here, or npm preparing a
//             `git+…` dependency with its dev dependencies), install the husky hook when this is a git
//             repository, then build. Anywhere else, nothing.
//   prepack   Build (as `prepare` did during a pack before), then drop `scripts.prepare` from the
//             package.json that goes into the tarball: the tarball already holds the build, and npm 11
//             warns about every non-registry dependency whose manifest has a `prepare` script
//             ("install scripts not yet covered by allowScripts"), although it never runs it for a tarball.
//   postpack  Put package.json back, byte for byte.
//
// A pack that fails between the two leaves the original in package.json.prepack: postpack (or the
// next pack, which refuses to start) says so rather than overwrite whatever package.json holds now.
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const repo = join(dirname(fileURLToPath(import.meta.url)), '..');
const manifest = join(repo, 'package.json');
const saved = join(repo, 'package.json.prepack');
process.chdir(repo); // husky and the build work in the package's folder

function isCheckout() {
  return existsSync(join(repo, 'src')) && existsSync(join(repo, 'node_modules', 'typescript', 'package.json'));
}

function run(args) {
  // Inside an npm lifecycle script npm_execpath is the npm that runs it; `npm` on PATH otherwise.
  const npm = process.env.npm_execpath;
  const r = npm
    ? spawnSync(process.execPath, [npm, ...args], { cwd: repo, stdio: 'inherit' })
    : spawnSync('npm', args, { cwd: repo, stdio: 'inherit', shell: process.platform === 'win32' });
  if (r.status !== 0) process.exit(r.status ?? 1);
}

async function installHook() {
  if (!existsSync(join(repo, '.git')) || !existsSync(join(repo, 'node_modules', 'husky', 'package.json'))) return;
  const { default: husky } = await import('husky');
  const said = husky();
  if (said) console.log(`husky: ${said}`);
}

const step = process.argv[2] ?? 'prepare';
if (step === 'prepare') {
  if (isCheckout()) {
    await installHook();
    run(['run', 'build']);
  }
} else if (step === 'prepack') {
  if (existsSync(saved)) {
    console.error('scripts/prepare.mjs: package.json.prepack exists (an interrupted pack?): compare it with package.json and move it back first');
    process.exit(1);
  }
  if (isCheckout()) run(['run', 'build']);
  const text = readFileSync(manifest, 'utf8');
  const pkg = JSON.parse(text);
  if (pkg.scripts?.prepare !== undefined) {
    writeFileSync(saved, text);
    // The pack's own steps go too: they name scripts/, which the tarball does not carry.
    for (const s of ['prepare', 'prepack', 'postpack']) delete pkg.scripts[s];
    writeFileSync(manifest, `${JSON.stringify(pkg, null, 2)}\n`);
  }
} else if (step === 'postpack') {
  if (existsSync(saved)) renameSync(saved, manifest);
} else {
  console.error(`scripts/prepare.mjs: unknown step '${step}' (prepare, prepack or postpack)`);
  process.exit(2);
}
