/**
 * The body scanner (src/parse/outline/scan.ts) against markdown-it, block for block: on every SysRS of
 * a generated corpus (every generator variant and planted defect), every markdown fixture, hostile
 * bodies and seeded random line soups, the scanner either gives up (the body goes to markdown-it) or
 * gives exactly markdown-it's blocks — types, lines, heading levels and texts, list items with their
 * markers, leads and notes. And the json report of a lint of the corpus is the same byte for byte with
 * the scanner and with markdown-it alone (DOCGATE_BLOCK_PARSER=markdown-it).
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { splitFrontmatter } from '../src/parse/frontmatter.js';
import { markdownItBlocks, normalizeBody, readBody } from '../src/parse/outline/blocks.js';
import { scanBlocks } from '../src/parse/outline/scan.js';
import { expectSameReportBothWays, fixture, markdownUnder, REPO, runCli, tempRoot } from './helpers.js';
// @ts-expect-error: the bench corpus generator is plain JavaScript without types.
import { generateCorpus, mulberry32 } from '../bench/corpus.mjs';

/** The scanner's blocks of a body (null: it leaves the body to markdown-it) and markdown-it's. */
function both(body: string): { scanned: ReturnType<typeof scanBlocks>; reference: ReturnType<typeof markdownItBlocks> } {
  const { src, srcLines } = normalizeBody(body);
  return { scanned: scanBlocks(src, srcLines), reference: markdownItBlocks(src) };
}

const made: string[] = [];
afterAll(() => {
  for (const d of made) rmSync(d, { recursive: true, force: true });
});

describe('the scanner on the generated corpus', () => {
  let root = '';
  let sysrs: string[] = [];
  beforeAll(() => {
    root = mkdtempSync(join(tmpdir(), 'docgate-scanner-'));
    made.push(root);
    // 2,500 documents: 1,000 SysRS with every SysRS and variant defect of the generator planted.
    generateCorpus({ n: 2500, seed: 1, root });
    sysrs = markdownUnder(join(root, 'docs', 'sysrs'));
  });

  it('scans every SysRS body itself, with markdown-it’s blocks', () => {
    expect(sysrs.length).toBe(1000);
    let differ = 0;
    let fellBack = 0;
    for (const path of sysrs) {
      const { scanned, reference } = both(splitFrontmatter(readFileSync(path, 'utf8')).body);
      if (scanned === null) fellBack++;
      else if (JSON.stringify(scanned) !== JSON.stringify(reference)) {
        differ++;
        expect(scanned, path).toEqual(reference);
      }
    }
    expect({ differ, fellBack }).toEqual({ differ: 0, fellBack: 0 });
  });

  it('lints the corpus to the same json report with the scanner and with markdown-it alone', () => {
    // The planted outline defects are in it.
    expectSameReportBothWays(root, { DOCGATE_BLOCK_PARSER: 'markdown-it' }, ['"rule": "sysrs-unknown-heading"', '"rule": "sysrs-list-tag"']);
  });
});

describe('markdown-it is loaded only for a body the scanner leaves to it', () => {
  it('a one-file lint of a SysRS does not load it; of one with a block quote it does', () => {
    const text = readFileSync(fixture('sysrs-outline', 'valid.md'), 'utf8');
    const root = tempRoot('docgate-scanner-one-', { 'docs/sysrs/valid.md': text }, made);
    // NODE_DEBUG=module: Node's CommonJS loader names every module it is asked for on stderr.
    const plain = runCli(['lint', 'docs/sysrs/valid.md'], { cwd: root, env: { NODE_DEBUG: 'module' } });
    expect(plain.code).toBe(0);
    expect(plain.stderr).toContain('Module._load REQUEST');
    expect(plain.stderr).not.toContain('markdown-it');
    writeFileSync(join(root, 'docs/sysrs/valid.md'), text + '\n> quoted\n');
    const quoted = runCli(['lint', 'docs/sysrs/valid.md'], { cwd: root, env: { NODE_DEBUG: 'module' } });
    expect(quoted.stderr).toContain('Module._load REQUEST markdown-it');
  });
});

describe('the scanner on the fixtures', () => {
  it('gives markdown-it’s blocks for every markdown fixture it scans', () => {
    const files = markdownUnder(join(REPO, 'test', 'fixtures'));
    let scannedCount = 0;
    for (const path of files) {
      const { scanned, reference } = both(splitFrontmatter(readFileSync(path, 'utf8')).body);
      if (scanned === null) continue;
      scannedCount++;
      expect(scanned, path).toEqual(reference);
    }
    expect(files.length).toBeGreaterThan(100);
    expect(scannedCount).toBeGreaterThan(files.length / 2);
  });
});

/** Hostile and edge bodies, each with whether the scanner takes it (true) or leaves it to markdown-it. */
const EDGES: [name: string, scans: boolean, body: string][] = [
  ['empty', true, ''],
  ['blank lines only', true, '\n\n  \n\t\n'],
  ['no final LF', true, '# T\n\ntext'],
  ['trailing blanks line', true, '# T\n\ntext\n   '],
  ['ATX levels, closing hashes, blanks', true, '# A #\n## B ##  \n###### C\n####### seven\n#no space\n#\n## \n### x ###y\n  ## indented\n#\tTab\n'],
  ['heading without blank lines around', true, 'para\n# H\npara\n## H2\n'],
  ['CRLF', true, '# T\r\n\r\n- REQ a: b\r\n  wrapped\r\n\r\n  note\r\n\r\n## S\r\n'],
  ['lone CR and NUL', true, '# T\r\nA\rB\0C\n\n- x\0y\n'],
  ['tight list', true, '- a\n- b\n- c\n'],
  ['star and plus lists', true, '* a\n* b\n\n+ c\n\n  note\n'],
  ['ordered lists, both delimiters, notes', true, '1. one\n2. two\n\n   note\n3) three\n10. ten\n'],
  ['ordered item interrupts a paragraph only from 1, an item’s paragraph at any number', true, 'text\n2. still text\n1. list\n- item\n3. lazy ends it\n'],
  ['another marker starts another list', true, '- a\n* b\n+ c\n- d\ntext\n* e\n'],
  ['loose list with notes', true, '- a\n\n  note one\n  more\n\n- b\n\n\n  note two\n\n## Next\n'],
  ['marker spacing', true, '-  two\n-    four\n   lazy\n'],
  ['lazy continuation', true, '- lead\nlazy line\n  indented\n        deep\n- next\n'],
  ['list ended by a heading, a fence, a comment, text after a blank', true, '- a\n# H\n- b\n```\ncode\n```\n- c\n<!-- c -->\n- d\n\ntext\n'],
  ['fences: tilde, longer closer, unclosed', true, '~~~\n~~\n~~~~\n\n````js\n```\n````  \n\n```\nnever closed\n# not a heading\n'],
  ['fence closer indented', true, '```\n    ```\n   ```\n'],
  ['fence with tab indentation inside', true, '```\n\tcode\n \t```\n```\n'],
  ['HTML comment blocks', true, '<!-- one -->\n<!--\nmulti\n\nline\n-->\nafter\n\n  <!-- x --> y\n<!-- unclosed\n\n# H\n'],
  [
    'text that looks like markup but is not',
    true,
    '-not a list\n*emph*\n**bold**\n+plus\n1.5 ms\n2024-01-01 date\n<5 ms\n`code`\n``two``\n|a|b|\n\\# escaped\n',
  ],
  ['item text with trailing and inner blanks', true, '- REQ  id:   title   \n  second\t line  \n'],
  ['no-break spaces kept', true, '# \u00a0Title\u00a0\n\n- \u00a0lead\u00a0\n'],
  ['paragraph interrupted by a list and a fence', true, 'text\n- item\ntext\n```\nx\n```\n'],
  ['blockquote', false, '> quote\n'],
  ['thematic break', false, 'a\n\n---\n'],
  ['setext heading', false, 'Title\n=====\n'],
  ['setext in a list', false, '- a\n  ---\n'],
  ['ordered empty item', false, '1.\n'],
  ['ten digits', false, '1234567890. x\n'],
  ['nested list', false, '- a\n  - b\n'],
  ['indented list', false, ' - a\n'],
  ['second-level item indented', false, '- a\n - b\n'],
  ['empty item', false, '-\n  text\n'],
  ['empty item with spaces', false, '-   \n'],
  ['fence inside a list item', false, '- a\n\n  ```\n  x\n  ```\n'],
  ['heading inside a list item', false, '- # h\n'],
  ['indented code', false, '    code\n'],
  ['indented code in an item', false, '- a\n\n      code\n'],
  ['five spaces after the marker', false, '-     code\n'],
  ['tab after the marker', false, '-\ttext\n'],
  ['tab in an item paragraph', false, '- a\n\tb\n'],
  ['HTML block other than a comment', false, '<div>\nx\n</div>\n'],
  ['HTML block interrupting a paragraph', false, 'text\n<div>\n'],
  ['link reference definition', false, '[a]: /url\n\ntext\n'],
  ['backtick in a fence info', false, '``` a`b\n'],
  ['deep indentation', false, '                    deep\n'],
];

describe('the scanner on hostile bodies', () => {
  for (const [name, scans, body] of EDGES) {
    it(`${name}: ${scans ? 'scanned, same blocks' : 'left to markdown-it'}`, () => {
      const { scanned, reference } = both(body);
      if (scans) expect(scanned).toEqual(reference);
      else expect(scanned).toBeNull();
      // Either way, what the engine reads is markdown-it's.
      expect(readBody(body, 0).blocks).toEqual(reference);
    });
  }
});

describe('the scanner on random line soups', () => {
  /** 4,000 bodies of 1 to `maxLines` lines drawn from `pool` (some joined by CRLF): each one the scanner takes must have markdown-it's blocks. Returns how many it took. */
  function soup(pool: readonly string[], seed: number, maxLines: number, crlf: boolean): number {
    const rng = mulberry32(seed) as () => number;
    let scannedCount = 0;
    for (let k = 0; k < 4000; k++) {
      const n = 1 + Math.floor(rng() * maxLines);
      const parts: string[] = [];
      for (let i = 0; i < n; i++) parts.push(pool[Math.floor(rng() * pool.length)]!);
      const body = parts.join(crlf && rng() < 0.1 ? '\r\n' : '\n') + (rng() < 0.8 ? '\n' : '');
      const { scanned, reference } = both(body);
      if (scanned === null) continue;
      scannedCount++;
      expect(scanned, JSON.stringify(body)).toEqual(reference);
    }
    return scannedCount;
  }

  // Lines that start or end every construct the scanner knows, and some it leaves to markdown-it.
  const LINES = [
    '',
    '',
    '',
    '  ',
    '\t',
    '# H',
    '## Section',
    '### 2024-01-05 10:00:00.000Z - t',
    '#x',
    '####### 7',
    '# closing #',
    'text',
    'more text',
    'lazy',
    ' one',
    '  indented text',
    '   three',
    '    four',
    '      six',
    '-x',
    '**b**',
    '1.5',
    '<5',
    '[x](y)',
    '- item',
    '- REQ 3f2b8c1e-5d4a-4e2f-9b6c-1a2b3c4d5e6f: title',
    '-  two spaces',
    '-    four spaces',
    '  - nested',
    '- ',
    '-',
    '* star',
    '+ plus',
    '1. one',
    '2) two',
    '---',
    '***',
    '===',
    '- - -',
    '> quote',
    '```',
    '```sh',
    '````',
    '~~~',
    '  ```',
    '    ```',
    '<!-- c -->',
    '<!--',
    '-->',
    '  <!-- x',
    '<div>',
    '[a]: /u',
    '- # h',
    '- ```',
    '-\tt',
    '  \tx',
    'a\u00a0',
    '\u00a0b',
  ];
  it('gives markdown-it’s blocks whenever it scans (4,000 bodies, seeded)', () => {
    // The soups are mixed enough that many fall back, but the scanner must take a good share.
    expect(soup(LINES, 17, 14, true)).toBeGreaterThan(800);
  });

  // Only lines the scanner knows (items at every indentation, fences, comments, lazy lines): long bodies
  // it mostly takes, for the interplay of lists, lazy continuation and block ends.
  const KNOWN = [
    '',
    '',
    '',
    '',
    '  ',
    '# H',
    '## S',
    '### T #',
    'text',
    'more',
    ' one',
    '  two',
    '   three',
    '    four',
    '     five',
    '      six',
    '- a',
    '- REQ x: y',
    '-  b',
    '-   c',
    '-    d',
    '* s',
    '*  s2',
    '+ p',
    '+    p4',
    '*x*',
    '**b**',
    '1. one',
    '2. two',
    '1) p',
    '3) q',
    '01. z',
    '10.  ten',
    '1.    four',
    '```',
    '~~~',
    '````',
    '  ```',
    '<!-- c -->',
    '<!--',
    '-->',
    'x -->',
    '#x',
    '-x',
    '1.5',
    '<5',
    'a\u00a0',
    '\t',
    ' \t ',
  ];
  it('gives markdown-it’s blocks on long bodies of the lines it knows (4,000 bodies, seeded)', () => {
    expect(soup(KNOWN, 99, 40, false)).toBeGreaterThan(2000);
  });
});
