#!/usr/bin/env node
// Build step: makes dist/bundle/docgate.cjs.v8cache and yaml.cjs.v8cache, the V8 code caches
// bin/docgate.js compiles the CLI and the `yaml` package from (yaml's only where a run loaded it). V8
// caches a function once it has been compiled, so the caches are taken after real work: a full lint of the
// bundled content (parsers, schemas, rules, the cache writer), then the path of a pre-commit hook — staged
// files against a warm lint cache — which starts from the first cache and adds to it. The lint cache of
// these runs goes to a temporary folder; the content is only read. Then a cold lint of a small root with a
// kind of its own (a configuration, a root schema, frontmatter of every shape: block scalars, nested maps
// and lists the fast path reads, a number the `yaml` package reads), twice: once compiling its schema,
// once loading the validator kept from the first (docs/performance.md, "Small repositories (issue 27)"); a
// cold lint of a few skills under `presets: [agent-skills]` (the preset's precompiled validator, its body
// rules and `link-target`); last, a cold lint of a generated corpus of 4,000 documents, large enough for
// worker threads (bench/corpus.mjs).
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const repo = join(dirname(fileURLToPath(import.meta.url)), '..');
const bin = join(repo, 'bin', 'docgate.js');
// The CLI's bundle and the `yaml` package's (loaded on first use, bin/docgate.js): each run adds to both.
const cacheFiles = ['docgate.cjs', 'yaml.cjs'].map((name) => join(repo, 'dist', 'bundle', `${name}.v8cache`));
for (const file of cacheFiles) rmSync(file, { force: true });
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
  const own = join(tmp, 'own-kind');
  mkdirSync(join(own, 'schemas'), { recursive: true });
  writeFileSync(
    join(own, 'docgate.config.yaml'),
    'kinds:\n  note:\n    include: ["notes/*/NOTE.md"]\n    id: frontmatter\n    frontmatter: note.schema.json\n',
  );
  const property = { type: 'string', description: 'a text' };
  const schema = {
    type: 'object',
    required: ['name', 'description'],
    properties: {
      name: { ...property, pattern: '^[a-z0-9]+(?:-[a-z0-9]+)*$', maxLength: 64 },
      description: { ...property, minLength: 1, maxLength: 1024 },
      license: property,
      metadata: { type: 'object', description: 'keys and values', additionalProperties: { type: 'string' } },
      tags: { type: 'array', description: 'tags', items: { type: 'string' } },
    },
    additionalProperties: false,
  };
  writeFileSync(join(own, 'schemas', 'note.schema.json'), `${JSON.stringify(schema, null, 2)}\n`);
  const notes = [
    'name: plain\ndescription: A plain note. Use it for the flat fast path.\nlicense: MIT\n',
    'name: folded\ndescription: >-\n  A note whose description is folded\n  over two lines.\nmetadata:\n  author: someone\n  version: "1.0"\n',
    'name: listed\ndescription: "A quoted note: with a colon"\ntags:\n  - one\n  - two\nextra: 3\n',
  ];
  for (const [i, fm] of notes.entries()) {
    mkdirSync(join(own, 'notes', `n${i}`), { recursive: true });
    writeFileSync(join(own, 'notes', `n${i}`, 'NOTE.md'), `---\n${fm}---\n\n# Note ${i}\n\nText with [a link](https://example.com) and \`code\`.\n`);
  }
  const skills = join(tmp, 'skills');
  mkdirSync(skills, { recursive: true });
  writeFileSync(join(skills, 'docgate.config.yaml'), 'presets: [agent-skills]\n');
  const skill = (name, fm) => {
    mkdirSync(join(skills, 'skills', name, 'references'), { recursive: true });
    writeFileSync(join(skills, 'skills', name, 'references', 'REFERENCE.md'), '# Reference\n');
    const body = `# ${name}\n\nSee [the reference](references/REFERENCE.md) and [a page](https://example.com).\n\n- one\n- two\n`;
    writeFileSync(join(skills, 'skills', name, 'SKILL.md'), `---\nname: ${name}\n${fm}---\n\n${body}`);
  };
  skill('plain-skill', 'description: Does a plain thing. Use it when a thing is plain.\nlicense: MIT\n');
  skill('folded-skill', 'description: >-\n  Does a folded thing.\n  Use it when a thing is folded.\nmetadata:\n  author: someone\n  version: "1.0"\n');
  skill('listed-skill', 'description: "Lists: its tools."\nallowed-tools:\n  - Read\n  - Write\n');
  const ownEnv = { XDG_CACHE_HOME: join(tmp, 'xdg-cache') };
  // A large run: a generated corpus past the worker threshold (src/lint/parallel.ts), so that the code of
  // many documents of every kind and of the threads' orchestration is in the cache too. Without it a cold
  // lint of the bench corpus compiled that code at each run: ~8 % of its time (docs/performance.md).
  const { generateCorpus } = await import('../bench/corpus.mjs');
  const large = join(tmp, 'corpus');
  generateCorpus({ n: 4000, seed: 1, root: large });
  for (const [args, env] of [
    [['lint', '--root', repo, '--cache', '--cache-location', lintCache], {}],
    [['lint', '--root', repo, '--cache', '--cache-location', lintCache, ...staged], {}],
    [['lint', '--root', own], ownEnv],
    [['lint', '--root', own], ownEnv],
    [['lint', '--root', skills], ownEnv],
    [['lint', '--root', large, '--format', 'json'], {}],
  ]) {
    const r = spawnSync(process.execPath, [bin, ...args], { env: { ...process.env, ...env, DOCGATE_CODE_CACHE: 'write' }, encoding: 'utf8' });
    // Exit 1 (content problems) still compiled everything; 2 or a signal means the bundle is broken.
    if (r.status !== 0 && r.status !== 1) throw new Error(`docgate ${args.join(' ')} failed (${r.status ?? r.signal}): ${r.stderr}`);
  }
  const kib = (file) => Math.round(statSync(file).size / 1024);
  console.log(`wrote the V8 code caches of the CLI (${kib(cacheFiles[0])} KiB) and of yaml (${kib(cacheFiles[1])} KiB)`);
} finally {
  rmSync(tmp, { recursive: true, force: true });
}
