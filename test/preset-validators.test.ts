/**
 * The presets' schemas are precompiled by the build (scripts/build-validators.mjs), as the built-in
 * kinds' are: a lint under any preset, or under the presets that widen `skill` in either order, compiles
 * nothing at run time and keeps no validator in the user's cache (before, each run under a preset loaded
 * its kept validator, and the first one compiled it with ajv). The precompiled validators run patterns
 * on RegExp where a root's own schema runs them on the linear-time engine: both engines agree on every
 * pattern of the bundled schemas for every code point, and the precompiled validators answer every
 * frontmatter of a generated repository of skills, and mutations of it, as the run-time compile does.
 */
import { existsSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { ValidateFunction } from 'ajv';
import { linearPattern } from '../src/parse/linear-regexp.js';
import { compile } from '../src/project/schemas.js';
import { splitFrontmatter } from '../src/parse/frontmatter.js';
import { parseYamlFrontmatter } from '../src/parse/yaml-frontmatter.js';
import { REPO, markdownUnder, runCli, tempRoot } from './helpers.js';
// @ts-expect-error: the bench's skills generator is plain JavaScript without types.
import { generateSkills } from '../bench/skills.mjs';
// @ts-expect-error: plain JavaScript without types.
import { mulberry32 } from '../bench/corpus.mjs';

const require = createRequire(import.meta.url);
const made: string[] = [];
afterAll(() => {
  for (const d of made) rmSync(d, { recursive: true, force: true });
});

const VALIDATORS = join(REPO, 'dist', 'validators');
const manifest = JSON.parse(readFileSync(join(VALIDATORS, 'manifest.json'), 'utf8')) as { module: string; schema: string }[];
const presetFiles = readdirSync(join(REPO, 'schemas')).filter((f) => /^(?:skill|claude|copilot|cursor)[a-z.-]*\.schema\.json$/.test(f));

describe('the presets’ schemas, precompiled', () => {
  const configs = [
    ['agent-skills'],
    ['claude-code'],
    ['copilot'],
    ['cursor'],
    ['agents-md'],
    ['claude-code', 'copilot'],
    ['copilot', 'claude-code'],
    ['agent-skills', 'claude-code', 'copilot', 'cursor', 'agents-md'],
  ];

  it.each(configs.map((c) => [c.join(', '), c]))('a lint under presets [%s] keeps no validator: every schema it uses was precompiled', (_, presets) => {
    const cache = tempRoot('docgate-preset-validators-cache-', {}, made);
    const root = tempRoot(
      'docgate-preset-validators-',
      {
        'docgate.config.yaml': `presets: [${(presets as string[]).join(', ')}]\n`,
        'skills/pdf/SKILL.md': '---\nname: pdf\ndescription: Reads PDF files. Use it for PDF files.\n---\n\n# PDF\n\nRead it.\n',
      },
      made,
    );
    const r = runCli(['lint'], { cwd: root, env: { XDG_CACHE_HOME: cache } });
    // Kinds that match no file are warned of on stderr; the one skill passes.
    expect(r.stdout).toMatch(/^0 problems in 0 files \([01] files? checked\)\n$/);
    expect(r.code).toBe(0);
    const kept = join(cache, 'docgate', 'validators');
    expect(existsSync(kept) ? readdirSync(kept) : []).toEqual([]);
  });

  it('lists a module for every preset schema file', () => {
    expect(presetFiles.length).toBeGreaterThanOrEqual(9);
    for (const f of presetFiles)
      expect(
        manifest.some((m) => m.schema === readFileSync(join(REPO, 'schemas', f), 'utf8')),
        f,
      ).toBe(true);
  });

  it('runs every pattern of the bundled schemas on RegExp as the linear-time engine runs it, for every code point', () => {
    const patterns = new Set<string>();
    const walk = (node: unknown): void => {
      if (Array.isArray(node)) node.forEach(walk);
      else if (typeof node === 'object' && node !== null)
        for (const [k, v] of Object.entries(node)) {
          if (k === 'pattern' && typeof v === 'string') patterns.add(v);
          else walk(v);
        }
    };
    for (const f of presetFiles) walk(JSON.parse(readFileSync(join(REPO, 'schemas', f), 'utf8')));
    expect(patterns.size).toBeGreaterThan(1);
    for (const p of patterns) {
      const native = new RegExp(p, 'u');
      const linear = linearPattern(p);
      const differ: string[] = [];
      for (let cp = 0; cp <= 0x10ffff; cp++) {
        if (cp >= 0xd800 && cp <= 0xdfff) continue;
        const c = String.fromCodePoint(cp);
        for (const s of [c, `a-${c}`]) if (native.test(s) !== linear.test(s)) differ.push(`${p} ${cp.toString(16)}`);
      }
      expect(differ.slice(0, 5)).toEqual([]);
    }
  }, 120_000);

  it('answers every frontmatter of a generated repository of skills, and mutations of it, as the run-time compile does', () => {
    const root = tempRoot('docgate-preset-validators-skills-', {}, made);
    generateSkills({ n: 200, seed: 11, root, config: 'preset' });
    const data: unknown[] = [];
    for (const f of markdownUnder(join(root, 'skills'))) {
      const split = splitFrontmatter(readFileSync(f, 'utf8'));
      data.push(parseYamlFrontmatter(split.yaml, 2).data);
    }
    const random = mulberry32(3) as () => number;
    const odd = ['', ' ', '\u3000', 'НАВЫК', 'мой-навык', '技能', 'a--b', '-a', 'a-', 'A', 'é', 'x'.repeat(65), 'x'.repeat(1025), 7, null, ['a'], { a: 1 }];
    const mutated = data.slice(0, 100).flatMap((d) =>
      Array.from({ length: 4 }, () => {
        const copy = { ...(d as Record<string, unknown>) };
        const keys = [...Object.keys(copy), 'name', 'description', 'metadata', 'allowed-tools', 'compatibility', 'unknown-key', 'model'];
        copy[keys[Math.floor(random() * keys.length)]!] = odd[Math.floor(random() * odd.length)];
        return copy;
      }),
    );
    let checked = 0;
    for (const { module, schema } of manifest.filter(
      (m) => presetFiles.some((f) => m.module.startsWith(f.replace(/\.json$/, ''))) || m.module.includes('.widened-'),
    )) {
      const precompiled = require(join(VALIDATORS, module)) as ValidateFunction;
      const runtime = compile(schema, module).validate;
      for (const d of [...data, ...mutated]) {
        const a = precompiled(d);
        const b = runtime(d);
        expect([a, precompiled.errors ?? null], module).toEqual([b, runtime.errors ?? null]);
        checked++;
      }
    }
    expect(checked).toBeGreaterThan(5000);
  });
});
