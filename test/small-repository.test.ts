import { mkdirSync, mkdtempSync, readFileSync, realpathSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { Layout, discover } from '../src/io/layout.js';
import { formatBytes } from '../src/model/text.js';
import { candidateDestinations, isPathDestination } from '../src/parse/links.js';
import { markdownUnder, runCli } from './helpers.js';
// @ts-expect-error: the bench's skills generator is plain JavaScript without types.
import { generateSkills } from '../bench/skills.mjs';
// @ts-expect-error: plain JavaScript without types.
import { mulberry32 } from '../bench/corpus.mjs';

const made: string[] = [];
afterAll(() => {
  for (const d of made) rmSync(d, { recursive: true, force: true });
});

/** The documents each thread analyzed, from the DOCGATE_TIMING=1 line on stderr. */
function split(stderr: string): { here: number; inWorkers: number; workers: number } {
  const m = /analyze [\d,]+ ms \(([\d,]+) documents in the main thread(?:, ([\d,]+) in (\d+) workers?)?\)/.exec(stderr);
  expect(m).not.toBeNull();
  const n = (s: string | undefined): number => Number((s ?? '0').replace(/,/g, ''));
  return { here: n(m![1]), inWorkers: n(m![2]), workers: n(m![3]) };
}

describe('a small repository (issue 27)', () => {
  it('is analyzed in the main thread, however many files it has: 600 processes of a few hundred bytes start no worker', () => {
    const root = mkdtempSync(join(tmpdir(), 'docgate-small-'));
    made.push(root);
    mkdirSync(join(root, 'processes'));
    for (let i = 0; i < 600; i++)
      writeFileSync(
        join(root, 'processes', `p${i}.md`),
        `---\nname: Process ${i}\ndescription: Process number ${i}.\n---\n# Process ${i}\n\nSteps to follow.\n`,
      );
    const r = runCli(['lint', '--root', root, '--format', 'json'], { env: { DOCGATE_TIMING: '1' } });
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout).filesChecked).toBe(600);
    expect(split(r.stderr)).toEqual({ here: 600, inWorkers: 0, workers: 0 });
  });
});

/** candidateDestinations as it was written first, line by line: the reference the one without splitting is held to. */
function candidatesByLine(body: string): string[] {
  const INLINE_DEST = /\]\(\s*(<[^<>\n]*>|[^\s)]*)/g;
  const REFERENCE = /^( {0,3})\[((?:[^\]\\]|\\.)+)\]:[ \t]*(<[^<>\n]*>|\S+)/;
  const unbracketed = (raw: string): string => (raw.startsWith('<') && raw.endsWith('>') ? raw.slice(1, -1) : raw);
  const out: string[] = [];
  for (const line of body.split('\n')) {
    if (line.includes('](')) for (const m of line.matchAll(INLINE_DEST)) out.push(unbracketed(m[1]!));
    const ref = line.includes(']:') ? REFERENCE.exec(line) : null;
    if (ref) out.push(unbracketed(ref[3]!));
  }
  return out.filter(isPathDestination);
}

describe('the steps of a lint of skills (issue 27)', () => {
  it('lists the folders below the first by their handles alone: no realpath per folder for `**/skills/*/SKILL.md`', () => {
    const root = mkdtempSync(join(tmpdir(), 'docgate-small-discover-'));
    made.push(root);
    for (let i = 0; i < 40; i++) {
      mkdirSync(join(root, 'skills', `s${i}`, 'references'), { recursive: true });
      writeFileSync(join(root, 'skills', `s${i}`, 'SKILL.md'), `---\nname: s${i}\n---\n`);
      writeFileSync(join(root, 'skills', `s${i}`, 'references', 'REFERENCE.md'), '# R\n');
    }
    mkdirSync(join(root, 'skills', 's0', 'references', 'skills', 'deep'), { recursive: true });
    writeFileSync(join(root, 'skills', 's0', 'references', 'skills', 'deep', 'SKILL.md'), '---\nname: deep\n---\n');
    symlinkSync(join(root, 'skills', 's1'), join(root, 'skills', 'linked'));
    const layout = new Layout([
      {
        kind: 'skill',
        include: ['**/skills/*/SKILL.md', '**/.claude/skills/*/SKILL.md', '**/.github/skills/*/SKILL.md', '**/.agents/skills/*/SKILL.md'],
        variants: false,
      },
    ]);
    discover(root, undefined, undefined, layout); // the root resolved once, and /proc looked at
    const spy = vi.spyOn(realpathSync, 'native');
    try {
      const refs = discover(root, undefined, undefined, layout);
      expect(refs.map((r) => r.path)).toEqual(
        // `skills/linked` is listed the long way, and found to be `skills/s1`, listed already by its own path.
        [...Array.from({ length: 40 }, (_, i) => `skills/s${i}/SKILL.md`), 'skills/s0/references/skills/deep/SKILL.md'].sort(),
      );
      // 84 folders listed: only the root and the link are resolved first.
      expect(spy.mock.calls.length).toBeLessThan(10);
    } finally {
      spy.mockRestore();
    }
  });

  it('walks the globs that start from the same folder together: each folder recorded once, the documents each glob alone finds', () => {
    const root = mkdtempSync(join(tmpdir(), 'docgate-small-walks-'));
    made.push(root);
    const outside = mkdtempSync(join(tmpdir(), 'docgate-small-walks-outside-'));
    made.push(outside);
    const files: Record<string, string> = {
      'skills/a/SKILL.md': 'a',
      'skills/a/references/notes.md': 'n',
      'skills/b/SKILL.md/README.md': 'a folder named like a document',
      'docs/x.md/skills/c/SKILL.md': 'below a folder that one glob takes for a document',
      'docs/y.md': 'y',
      '.claude/skills/d/SKILL.md': 'd',
      'deep/er/skills/e/SKILL.md': 'e',
    };
    for (const [rel, text] of Object.entries(files)) {
      mkdirSync(dirname(join(root, rel)), { recursive: true });
      writeFileSync(join(root, rel), text);
    }
    mkdirSync(join(outside, 'skills', 'o'), { recursive: true });
    writeFileSync(join(outside, 'skills', 'o', 'SKILL.md'), 'o');
    symlinkSync(join(root, 'skills', 'a'), join(root, 'skills', 'linked'));
    symlinkSync(outside, join(root, 'out'));
    symlinkSync(root, join(root, 'deep', 'loop'));
    const globs = ['**/skills/*/SKILL.md', '**/*.md', '**/.claude/skills/*/SKILL.md', 'skills/**', 'skills/*/SKILL.md'];
    const place = (include: string[]) => new Layout([{ kind: 'skill', include, variants: false }]);
    let sets = 0;
    const folders = new (class extends Map<string, string | null> {
      override set(k: string, v: string | null): this {
        sets++;
        return super.set(k, v);
      }
    })();
    const together = discover(root, undefined, undefined, place(globs));
    // What each glob finds alone, in order, sorted by path: the first of two refs of a path kept.
    const alone = globs.flatMap((g) => discover(root, undefined, undefined, place([g])));
    alone.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
    expect(together).toEqual(alone.filter((r, i) => i === 0 || alone[i - 1]!.path !== r.path));
    expect(together.map((r) => r.path)).toContain('docs/x.md/skills/c/SKILL.md');
    expect(together.find((r) => r.path === 'docs/x.md')?.problem).toBe('directory');
    expect(together.some((r) => r.problem === 'folder-outside')).toBe(true);
    // The preset's four globs start from the root: each folder is listed and recorded once, not once per glob.
    discover(
      root,
      undefined,
      folders,
      place(['**/skills/*/SKILL.md', '**/.claude/skills/*/SKILL.md', '**/.github/skills/*/SKILL.md', '**/.agents/skills/*/SKILL.md']),
    );
    expect(folders.size).toBeGreaterThan(10);
    expect(sets).toBe(folders.size);
  });

  it('finds the link destinations of a body as the line-by-line scan does, without splitting it', () => {
    const root = mkdtempSync(join(tmpdir(), 'docgate-small-links-'));
    made.push(root);
    generateSkills({ n: 100, seed: 13, root, config: 'preset' });
    const bodies = markdownUnder(root).map((f) => readFileSync(f, 'utf8'));
    const random = mulberry32(21) as () => number;
    const pieces = [
      '](',
      ']:',
      '[a]: ',
      '   [b]: <x y>',
      '    [c]: d',
      '\n',
      '\r\n',
      '\r',
      ' ',
      '\t',
      '<',
      '>',
      ')',
      '(',
      ']',
      '[',
      'x.md',
      '#top',
      'https://e.x',
      '\\]',
      '\u2028',
      '](<a b>)',
      '](\n',
    ];
    for (let i = 0; i < 3000; i++) {
      let text = bodies[i % bodies.length]!.slice(0, 2000);
      for (let k = 0; k < 4; k++) {
        const at = Math.floor(random() * (text.length + 1));
        text = text.slice(0, at) + pieces[Math.floor(random() * pieces.length)]! + text.slice(at);
      }
      bodies.push(text);
    }
    let found = 0;
    for (const body of bodies) {
      const expected = candidatesByLine(body).sort();
      expect(candidateDestinations(body).sort(), JSON.stringify(body.slice(0, 200))).toEqual(expected);
      found += expected.length;
    }
    expect(found).toBeGreaterThan(1000);
  });

  it('writes sizes and counts with thousands separators as toLocaleString does, without loading ICU for integers', () => {
    const values = [0, 1, -1, 7, 999, 1000, -1000, 12_345, 123_456, 1_234_567, 65_536, Number.MAX_SAFE_INTEGER, -Number.MAX_SAFE_INTEGER];
    for (let i = 1; i < 2000; i++) values.push(Math.floor(i ** 3.7) * (i % 5 === 0 ? -1 : 1));
    const expected = values.map((n) => n.toLocaleString('en-US'));
    const spy = vi.spyOn(Number.prototype, 'toLocaleString');
    try {
      expect(values.map(formatBytes)).toEqual(expected);
      expect(spy).not.toHaveBeenCalled();
    } finally {
      spy.mockRestore();
    }
    // Anything else is still written by toLocaleString.
    expect([1.5, -0, Number.NaN, 1e21].map(formatBytes)).toEqual(['1.5', '-0', 'NaN', '1,000,000,000,000,000,000,000']);
  });
});
