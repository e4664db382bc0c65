#!/usr/bin/env node
// The entry of the pre-commit framework's docgate hooks (.pre-commit-hooks.yaml, `language: script`):
// runs the docgate the repository installed (node_modules/docgate at the repository root, where
// pre-commit runs its hooks: the version of its lockfile, the one CI runs), else a `docgate` on PATH,
// with this script's arguments. pre-commit installs nothing for a script hook, so its first install
// takes a clone of docgate and no npm run at all (docs/install.md, "The pre-commit framework").
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';

const args = process.argv.slice(2);
const installed = join(process.cwd(), 'node_modules', 'docgate', 'bin', 'docgate.js');
const r = existsSync(installed)
  ? spawnSync(process.execPath, [installed, ...args], { stdio: 'inherit' })
  : // A .cmd shim on Windows runs only through the shell.
    spawnSync('docgate', args, { stdio: 'inherit', shell: process.platform === 'win32' });
if (r.error || (r.status === null && r.signal === null)) {
  process.stderr.write(
    'docgate: not installed in this repository (no node_modules/docgate) and no `docgate` on PATH.\n' +
      'Install it as a dev dependency (`npm install --save-dev ./vendor/docgate-<version>.tgz`, then commit the tarball,\n' +
      'package.json and package-lock.json), or run `npm ci` if the repository has it already:\n' +
      'https://github.com/docgate/docgate/blob/main/docs/install.md\n',
  );
  process.exit(2);
}
process.exit(r.status ?? 1);
