#!/usr/bin/env node
// Build step: bundles the compiled CLI into one CommonJS file, dist/bundle/docgate.cjs, the lint
// worker into dist/bundle/analyze-worker.js and the MCP server's tool worker into dist/bundle/tool-worker.js. Start-up is most of the cost of linting one staged file:
// Node loads one bundled module much faster than the ~100 small modules of dist/ and yaml, and a
// CommonJS script can be compiled from V8's code cache (scripts/code-cache.mjs, bin/docgate.js), which
// Node 20 offers for no ES module. markdown-it and the precompiled validators are loaded at run time
// through createRequire (only when needed), so they stay outside the bundle.
// dist/bundle sits two levels below the package root, like dist/core, so import.meta.url-relative
// paths (schemas/, dist/validators/, package.json) resolve the same from both.
import { build } from 'esbuild';
import { createHash } from 'node:crypto';
import { readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const repo = join(dirname(fileURLToPath(import.meta.url)), '..');
rmSync(join(repo, 'dist', 'bundle'), { recursive: true, force: true });
// The build's own id, a digest of the compiled code: the caches are made for one build, so a cache
// written by another build of the same version (installed from a git commit) is never replayed.
const digest = createHash('sha256');
const compiled = readdirSync(join(repo, 'dist'), { recursive: true, encoding: 'utf8' })
  .filter((f) => f.endsWith('.js') && !f.startsWith('bundle'))
  .sort();
for (const f of compiled) digest.update(`${f}\0`).update(readFileSync(join(repo, 'dist', f)));
const BUILD = digest.digest('hex').slice(0, 16);
const common = {
  absWorkingDir: repo,
  bundle: true,
  platform: 'node',
  target: 'node20',
  logLevel: 'warning',
  legalComments: 'none',
  define: { __DOCGATE_BUILD__: JSON.stringify(BUILD) },
};
const commonjs = {
  ...common,
  outdir: 'dist/bundle',
  outExtension: { '.js': '.cjs' },
  format: 'cjs',
  // import() of the server bundle becomes require(): the code-cached script has no ES module loader.
  supported: { 'dynamic-import': false },
  // The sources are ES modules: give them their import.meta.url from the bundle's own file name.
  define: { ...common.define, 'import.meta.url': '__docgateImportMetaUrl' },
  banner: { js: "var __docgateImportMetaUrl = require('node:url').pathToFileURL(__filename).href;" },
};
// bin/docgate.js wraps the bundle in a function: a shebang line would be a syntax error there.
const noShebang = {
  name: 'no-shebang',
  setup: (b) =>
    b.onLoad({ filter: /dist[\\/]cli[\\/]main\.js$/ }, (args) => ({ contents: readFileSync(args.path, 'utf8').replace(/^#![^\n]*/, ''), loader: 'js' })),
};
// The MCP server (and its SDK) is a bundle of its own, loaded only by `docgate mcp`: the lint CLI does
// not read or compile the 0.7 MB it would add. The server bundle carries its own copy of the core.
const serverOutside = {
  name: 'server-outside',
  setup: (b) => {
    b.onResolve({ filter: /[\\/]mcp[\\/]server\.js$/ }, () => ({ path: './mcp-server.cjs', external: true }));
    // The language server (and vscode-languageserver), likewise: loaded only by `docgate lsp`.
    b.onResolve({ filter: /[\\/]lsp[\\/]server\.js$/ }, () => ({ path: './lsp-server.cjs', external: true }));
  },
};
// The `yaml` package (a third of the CLI's code) is a bundle of its own, dist/bundle/yaml.cjs, with its own
// code cache: the CLI's bundle loads it on first use (src/parse/yaml-library.ts), through bin/docgate.js.
// A run whose configuration and frontmatter the flat reader takes never reads or compiles it.
const yamlOnFirstUse = {
  name: 'yaml-on-first-use',
  setup: (b) => {
    b.onLoad({ filter: /dist[\\/]parse[\\/]yaml-library\.js$/ }, () => ({
      contents: "let library;\nexport function yamlLibrary() {\n  return (library ??= require('./yaml.cjs'));\n}\n",
      loader: 'js',
    }));
    b.onResolve({ filter: /^\.\/yaml\.cjs$/ }, () => ({ path: './yaml.cjs', external: true }));
  },
};
await build({ ...commonjs, entryPoints: { docgate: 'dist/cli/main.js' }, plugins: [noShebang, serverOutside, yamlOnFirstUse] });
await build({
  ...commonjs,
  stdin: { contents: "module.exports = require('yaml');", resolveDir: repo, sourcefile: 'yaml.cjs' },
  outdir: undefined,
  outExtension: undefined,
  outfile: 'dist/bundle/yaml.cjs',
});
await build({ ...commonjs, entryPoints: { 'mcp-server': 'dist/mcp/server.js' } });
await build({ ...commonjs, entryPoints: { 'lsp-server': 'dist/lsp/server.js' } });
// The workers are ES modules, found beside their starters as `new URL('./<name>.js', import.meta.url)`.
await build({
  ...common,
  entryPoints: { 'analyze-worker': 'dist/lint/analyze-worker.js', 'tool-worker': 'dist/mcp/tool-worker.js' },
  outdir: 'dist/bundle',
  format: 'esm',
  // Bundled CommonJS dependencies (yaml's Node build) call require() for Node built-ins.
  banner: { js: "import { createRequire as __docgateCreateRequire } from 'node:module'; const require = __docgateCreateRequire(import.meta.url);" },
});
// Every bundle pure ASCII: a single character past U+00FF makes V8 hold the whole source as a two-byte
// string (twice the memory, decoded from UTF-8 at every start). esbuild escapes such characters in
// strings, templates and regular expressions (charset: ascii), so those left stand in comment lines
// (checked: the build fails on any other), where their escape reads the same.
for (const name of readdirSync(join(repo, 'dist', 'bundle'))) {
  const file = join(repo, 'dist', 'bundle', name);
  const text = readFileSync(file, 'utf8');
  if (!/[^\x00-\x7f]/.test(text)) continue;
  const code = text.split('\n').findIndex((line) => /[^\x00-\x7f]/.test(line) && !/^\s*(?:\/\/|\/\*|\*)/.test(line));
  if (code !== -1) throw new Error(`dist/bundle/${name}:${code + 1}: a character outside ASCII outside a comment`);
  writeFileSync(
    file,
    text.replace(/[^\x00-\x7f]/gu, (c) => `\\u{${c.codePointAt(0).toString(16)}}`),
  );
}
console.log('bundled the CLI into dist/bundle');
