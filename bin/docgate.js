#!/usr/bin/env node
'use strict';
// Stable entry point: runs the bundled CLI, dist/bundle/docgate.cjs (`npm run build`, run by `prepare`).
// Start-up is most of the cost of linting one staged file, so this file is CommonJS (bin/package.json:
// an ES module entry costs Node's ESM loader, ~8 ms) and the bundle is compiled from the V8 code cache
// the build made for it (scripts/code-cache.mjs): Node 20 has no compile cache of its own. V8 checks
// the cache against the source, its version and its flags; a rejected (or missing) cache only means
// the bundle is compiled from source, as require() would.
const { readFileSync, writeFileSync } = require('node:fs');
const { createRequire } = require('node:module');
const { dirname, join } = require('node:path');
const { setFlagsFromString } = require('node:v8');
const { Script } = require('node:vm');

// A one-file lint allocates ~10 MB, all of it live until the end: with V8's default young generation
// (1 MB, doubled at each collection) that is seven scavenges copying the same objects, a sixth of the
// run. Growing it faster leaves three. (--min-semi-space-size would leave none, but is read only at start.)
setFlagsFromString('--semi-space-growth-factor=16');

const bundle = join(__dirname, '..', 'dist', 'bundle', 'docgate.cjs');
const cacheFile = `${bundle}.v8cache`;
let cachedData;
try {
  cachedData = readFileSync(cacheFile);
} catch {
  cachedData = undefined; // not built: compiled from source
}
const script = new Script(`(function (exports, require, module, __filename, __dirname) {${readFileSync(bundle, 'utf8')}\n})`, { filename: bundle, cachedData });
// DOCGATE_CODE_CACHE is for the build and the tests: `write` keeps every function this run compiled
// (scripts/code-cache.mjs); `report` says on stderr whether V8 took the cache.
if (process.env.DOCGATE_CODE_CACHE === 'write') process.on('exit', () => writeFileSync(cacheFile, script.createCachedData()));
if (process.env.DOCGATE_CODE_CACHE === 'report')
  process.stderr.write(`code cache: ${!cachedData ? 'missing' : script.cachedDataRejected ? 'rejected' : 'accepted'}\n`);
const bundled = { exports: {}, id: bundle, filename: bundle, loaded: false };
script.runInThisContext()(bundled.exports, createRequire(bundle), bundled, bundle, dirname(bundle));
