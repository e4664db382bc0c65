import fc from 'fast-check';
import picomatch from 'picomatch';
import { describe, expect, it } from 'vitest';
import { GlobError, compilePathGlob } from '../src/io/glob.js';

/** What picomatch says (the semantics the SPEC names); our matcher must agree. */
function reference(glob: string, path: string): boolean {
  return picomatch(glob)(path);
}

const PATHS = [
  'README.md',
  'processes/deploy.md',
  'processes/README.md',
  'processes/.hidden.md',
  'processes/legacy-deploy.md',
  'handbook/processes/deploy.md',
  'handbook/.archive/processes/old.md',
  'docs/sysrs/a.md',
  'docs/sysrs/de/a.md',
  'docs/sysrs/archive/x/y.md',
  'docs/adr/0001-use-docgate.md',
  'templates/power/readme.txt',
  'templates/power/my-guide.txt',
  'a',
  'a/b',
  'a/b/c',
  '.x',
  'x.md',
  'a*b/c',
];

const GLOBS = [
  '**/README.md',
  'processes/*.md',
  'processes/legacy-*.md',
  '{processes,handbook/processes}/*.md',
  'handbook/**/*.md',
  'docs/sysrs/**',
  'docs/sysrs/archive/**',
  'docs/sysrs/*/*.md',
  'docs/adr/[0-9][0-9][0-9][0-9]-*.md',
  'templates/power/*.txt',
  'templates/power/?y-*.txt',
  '**',
  '*',
  '**/*',
  'a/**/c',
  'a/**',
  '**/b',
  '.*',
  '*.md',
  '[!a]*',
  '[.]x',
  'a\\*b/c',
  'docs/sysrs/{a,b}.md',
  'x{1..3}',
  './processes/*.md',
];

describe('path globs: picomatch semantics, linear time', () => {
  it.each(GLOBS)('%s matches what picomatch matches', (glob) => {
    const ours = compilePathGlob(glob);
    for (const path of PATHS) expect([path, ours.match(path)]).toEqual([path, reference(glob, path)]);
  });

  it('agrees with picomatch on generated globs and paths', () => {
    const piece = fc.constantFrom(
      'a',
      'b',
      'ab',
      '.a',
      '*',
      '?',
      '[ab]',
      '[!b]',
      '[^b]',
      '**',
      'a*',
      '*b',
      '*a*',
      '{a,b}',
      '{a,.b}',
      'x.md',
      '*.md',
      '.*',
      '?b',
    );
    const glob = fc.array(piece, { minLength: 1, maxLength: 4 }).map((p) => p.join('/'));
    const name = fc.constantFrom('a', 'b', 'ab', 'ba', '.a', 'x.md', '.md', 'aab', 'c');
    const path = fc.array(name, { minLength: 1, maxLength: 4 }).map((p) => p.join('/'));
    fc.assert(
      fc.property(glob, path, (g, p) => {
        expect(compilePathGlob(g).match(p)).toBe(reference(g, p));
      }),
      { numRuns: 5000, seed: 7 },
    );
  });

  it('matches a pattern that makes a RegExp backtrack, on 10,000 paths, without backtracking', () => {
    const glob = compilePathGlob(`docs/${'*a'.repeat(20)}*b.md`);
    let hits = 0;
    for (let i = 0; i < 10_000; i++) if (glob.match(`docs/${'a'.repeat(40)}${i}.md`)) hits++;
    expect(hits).toBe(0);
  });

  it('names the folders discovery lists', () => {
    expect(compilePathGlob('processes/*.md').bases).toEqual([{ dir: 'processes', depth: 1 }]);
    expect(compilePathGlob('handbook/**/*.md').bases).toEqual([{ dir: 'handbook', depth: Infinity }]);
    expect(compilePathGlob('{a,b/c}/*.md').bases).toEqual([
      { dir: 'a', depth: 1 },
      { dir: 'b/c', depth: 1 },
    ]);
    expect(compilePathGlob('*.md').bases).toEqual([{ dir: '', depth: 1 }]);
  });

  it.each([
    ['', 'it is empty'],
    ['!processes/*.md', 'negated globs'],
    ['/etc/*', 'it is absolute'],
    ['+(a|aa)', 'extglobs'],
    ['../x/*.md', 'climbs out of the root'],
    ['[z-a]', 'invalid range z-a'],
    ['{a,b}{c,d}{e,f}{g,h}{i,j}{k,l}{m,n}{o,p}{q,r}', 'more than 256 alternatives'],
  ])('refuses %j (%s)', (glob, why) => {
    expect(() => compilePathGlob(glob)).toThrow(GlobError);
    expect(() => compilePathGlob(glob)).toThrow(why);
  });
});
