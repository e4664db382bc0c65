#!/usr/bin/env node
'use strict';
// Stable entry point: runs the bundled CLI, dist/bundle/docgate.cjs (`npm run build`, run by `prepare`).
// Start-up is most of the cost of linting one staged file, so this file is CommonJS (bin/package.json:
// an ES module entry costs Node's ESM loader, ~8 ms) and the bundle is compiled from the V8 code cache
// the build made for it (scripts/code-cache.mjs): Node 20 has no compile cache of its own. V8 checks
// the cache against the source, its version and its flags; a rejected (or missing) cache only means
// the bundle is compiled from source, as require() would. The `yaml` package is a bundle of its own,
// loaded the same way when the CLI first asks for it (`require('./yaml.cjs')`, scripts/bundle.mjs).
const { readFileSync, writeFileSync } = require('node:fs');
const { createRequire } = require('node:module');
const { basename, dirname, join } = require('node:path');
const { setFlagsFromString } = require('node:v8');
const { Script } = require('node:vm');

// A one-file lint allocates ~10 MB, all of it live until the end: with V8's default young generation
// (1 MB, doubled at each collection) that is seven scavenges copying the same objects, a sixth of the
// run. Growing it faster leaves three. (--min-semi-space-size would leave none, but is read only at start.)
setFlagsFromString('--semi-space-growth-factor=16');

const folder = join(__dirname, '..', 'dist', 'bundle');
/** The bundles loaded with their own code cache, by the name the CLI's bundle requires them by: their exports once loaded (null before). */
const cached = new Map([['./yaml.cjs', null]]);

/**
 * Compiles a bundle (a CommonJS file) from its code cache, `<file>.v8cache`, runs it, and returns its
 * exports. DOCGATE_CODE_CACHE is for the build and the tests: `write` keeps, at exit, every function this
 * run compiled (scripts/code-cache.mjs); `report` says on stderr whether V8 took each cache.
 */
function load(file) {
  const cacheFile = `${file}.v8cache`;
  let cachedData;
  try {
    cachedData = readFileSync(cacheFile);
  } catch {
    cachedData = undefined; // not built: compiled from source
  }
  const script = new Script(`(function (exports, require, module, __filename, __dirname) {${readFileSync(file, 'utf8')}\n})`, { filename: file, cachedData });
  if (process.env.DOCGATE_CODE_CACHE === 'write') process.on('exit', () => writeFileSync(cacheFile, script.createCachedData()));
  if (process.env.DOCGATE_CODE_CACHE === 'report') {
    const name = basename(file) === 'docgate.cjs' ? '' : ` of ${basename(file)}`;
    process.stderr.write(`code cache${name}: ${!cachedData ? 'missing' : script.cachedDataRejected ? 'rejected' : 'accepted'}\n`);
  }
  const loaded = { exports: {}, id: file, filename: file, loaded: false };
  const plain = createRequire(file);
  const required = (id) => {
    if (!cached.has(id)) return plain(id);
    let exports = cached.get(id);
    if (exports === null) cached.set(id, (exports = load(join(folder, id))));
    return exports;
  };
  script.runInThisContext()(loaded.exports, Object.assign(required, plain), loaded, file, dirname(file));
  loaded.loaded = true;
  return loaded.exports;
}

load(join(folder, 'docgate.cjs'));
