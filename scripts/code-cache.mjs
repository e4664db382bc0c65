#!/usr/bin/env node
// Build step: makes dist/bundle/docgate.cjs.v8cache, the V8 code cache bin/docgate.js compiles the CLI
// from. V8 caches a function once it has been compiled, so the cache is taken after real work: a full
// lint of the bundled content (parsers, schemas, rules, the cache writer), then the path of a pre-commit
// hook — staged files against a warm lint cache — which starts from the first cache and adds to it.
// The lint cache of these runs goes to a temporary folder; the content is only read.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const repo = join(dirname(fileURLToPath(import.meta.url)), '..');
const bin = join(repo, 'bin', 'docgate.js');
const cacheFile = join(repo, 'dist', 'bundle', 'docgate.cjs.v8cache');
rmSync(cacheFile, { force: true });
const tmp = mkdtempSync(join(tmpdir(), 'docgate-code-cache-'));
try {
  const lintCache = join(tmp, 'lint-cache');
  // One staged file of each kind of the registry: each kind's cached listing and facts are decoded in that run.
  const { BUILTIN_KINDS } = await import('../dist/kinds/index.js');
  const { compilePathGlob } = await import('../dist/io/glob.js');
  const staged = BUILTIN_KINDS.map((kind) => {
    const glob = compilePathGlob(kind.include[0]);
    const dir = glob.bases[0].dir;
    const name = readdirSync(join(repo, dir))
      .sort()
      .find((f) => glob.match(`${dir}/${f}`));
    return join(repo, dir, name);
  });
  for (const args of [
    ['lint', '--root', repo, '--cache', '--cache-location', lintCache],
    ['lint', '--root', repo, '--cache', '--cache-location', lintCache, ...staged],
  ]) {
    const r = spawnSync(process.execPath, [bin, ...args], { env: { ...process.env, DOCGATE_CODE_CACHE: 'write' }, encoding: 'utf8' });
    // Exit 1 (content problems) still compiled everything; 2 or a signal means the bundle is broken.
    if (r.status !== 0 && r.status !== 1) throw new Error(`docgate ${args.join(' ')} failed (${r.status ?? r.signal}): ${r.stderr}`);
  }
  console.log(`wrote the V8 code cache of the CLI (${Math.round(statSync(cacheFile).size / 1024)} KiB)`);
} finally {
  rmSync(tmp, { recursive: true, force: true });
}
