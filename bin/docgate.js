#!/usr/bin/env node
'use strict';
// Stable entry point: runs the bundled CLI, dist/bundle/docgate.cjs (`npm run build`, run by `prepare`).
// Start-up is most of the cost of linting one staged file, so this file is CommonJS (bin/package.json:
// an ES module entry costs Node's ESM loader, ~8 ms) and the bundle is compiled from the V8 code cache
// the build made for it (scripts/code-cache.mjs): Node 20 has no compile cache of its own. V8 checks
// the cache against the source, its version and its flags; a rejected (or missing) cache only means
// the bundle is compiled from source, as require() would.
const { existsSync, readFileSync, writeFileSync } = require('node:fs');
const { createRequire } = require('node:module');
const { dirname, join } = require('node:path');
const { Script } = require('node:vm');

const bundle = join(__dirname, '..', 'dist', 'bundle', 'docgate.cjs');
const cacheFile = `${bundle}.v8cache`;
const script = new Script(`(function (exports, require, module, __filename, __dirname) {${readFileSync(bundle, 'utf8')}\n})`, {
  filename: bundle,
  cachedData: existsSync(cacheFile) ? readFileSync(cacheFile) : undefined,
});
if (process.env.DOCGATE_WRITE_CODE_CACHE === '1') {
  // Build time only (scripts/code-cache.mjs): keep every function this run compiled.
  process.on('exit', () => writeFileSync(cacheFile, script.createCachedData()));
}
const bundled = { exports: {}, id: bundle, filename: bundle, loaded: false };
script.runInThisContext()(bundled.exports, createRequire(bundle), bundled, bundle, dirname(bundle));
