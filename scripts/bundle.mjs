#!/usr/bin/env node
// Build step: bundles the compiled CLI (and the lint worker) into a few files under dist/bundle/.
// Start-up is most of the cost of linting one staged file, and Node loads one bundled module much
// faster than the ~100 small modules of dist/ and yaml. markdown-it and the precompiled validators are
// loaded at run time through createRequire (only when needed), so they stay outside the bundle.
// dist/bundle sits two levels below the package root, like dist/core, so import.meta.url-relative
// paths (schemas/, dist/validators/, package.json) resolve the same from both.
import { build } from 'esbuild';
import { rmSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const repo = join(dirname(fileURLToPath(import.meta.url)), '..');
// Chunk names carry content hashes: without a clean folder, every build would leave the old ones behind.
rmSync(join(repo, 'dist', 'bundle'), { recursive: true, force: true });
await build({
  absWorkingDir: repo,
  entryPoints: { main: 'dist/cli/main.js', 'analyze-worker': 'dist/core/analyze-worker.js' },
  outdir: 'dist/bundle',
  bundle: true,
  splitting: true,
  format: 'esm',
  platform: 'node',
  target: 'node20',
  logLevel: 'warning',
  legalComments: 'none',
  // Bundled CommonJS dependencies (yaml's Node build) call require() for Node built-ins.
  banner: { js: "import { createRequire as __docgateCreateRequire } from 'node:module'; const require = __docgateCreateRequire(import.meta.url);" },
});
console.log('bundled the CLI into dist/bundle');
