/**
 * The flat fast path of frontmatter YAML (src/parse/yaml-flat.ts) against the `yaml` package: on every
 * frontmatter of a generated corpus (every planted frontmatter defect), of every markdown fixture, and
 * on seeded mutations of them, the fast path either gives up (the text goes to the package) or gives
 * exactly the package's result — the data with its key order, the findings with their positions, and
 * the position of every key and value a diagnostic can ask for. And the json report of a lint of the
 * corpus is the same byte for byte with the fast path and with the package alone (DOCGATE_YAML=library).
 */
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { splitFrontmatter } from '../src/parse/frontmatter.js';
import { parseYamlFrontmatter } from '../src/parse/yaml-frontmatter.js';
import { readFlatYaml } from '../src/parse/yaml-flat.js';
import { expectSameReportBothWays, markdownUnder, REPO } from './helpers.js';
// @ts-expect-error: the bench corpus generator is plain JavaScript without types.
import { generateCorpus, mulberry32 } from '../bench/corpus.mjs';
// @ts-expect-error: the bench's skills generator is plain JavaScript without types.
import { generateSkills } from '../bench/skills.mjs';

/** Everything a caller can read from a parsed frontmatter, as one comparable value. */
function observed(text: string, fast: boolean): unknown {
  const { data, issues, locator } = parseYamlFrontmatter(text, 2, fast);
  const paths: string[][] = [[], ['not-a-key'], ['not-a-key', 'x']];
  for (const key of Object.keys(data ?? {})) paths.push([key], [key, '0'], [key, 'x', 'y']);
  return {
    data: data === undefined ? 'undefined' : JSON.stringify(data),
    keys: data === undefined ? [] : Object.keys(data),
    issues,
    positions: paths.map((p) => [p, locator.value(p), locator.key(p)]),
  };
}

/** Whether the fast path took the text, and then whether both paths agree on everything observed. */
function compare(text: string): 'fell back' | 'same' {
  if (readFlatYaml(text) === null) return 'fell back';
  expect(observed(text, true), JSON.stringify(text)).toEqual(observed(text, false));
  return 'same';
}

function frontmatters(files: string[]): string[] {
  const out: string[] = [];
  for (const f of files) {
    const split = splitFrontmatter(readFileSync(f, 'utf8'));
    if (split.present) out.push(split.yaml);
  }
  return out;
}

/** Pieces a mutation puts into a frontmatter: every character class the fast path must judge right. */
const PIECES = [
  ':',
  ': ',
  ' #',
  '#',
  "'",
  '"',
  "''",
  '\\',
  '\\"',
  '-',
  '- ',
  '? ',
  '[',
  ']',
  '{',
  '}',
  ',',
  '&a',
  '*a',
  '!',
  '|',
  '>',
  '%',
  '@',
  '`',
  ' ',
  '  ',
  '\t',
  '\r',
  '\r\n',
  '\n',
  '\n\n',
  '\n  ',
  '~',
  '.',
  '0',
  '1',
  'e3',
  'x',
  'é',
  '😀',
  '\u2028',
  '\ufeff',
  '\u0085',
  '\u0000',
  '---',
  '...',
];
/** Whole values a mutation puts after a key: strings, and everything the core schema reads otherwise. */
const VALUES = [
  'null',
  'Null',
  'NULL',
  '~',
  'true',
  'True',
  'FALSE',
  'yes',
  'no',
  'on',
  '0',
  '-0',
  '+1',
  '007',
  '0o17',
  '0x1F',
  '0X1F',
  '1_000',
  '1.0',
  '1.',
  '.5',
  '-.5',
  '1e3',
  '1E-3',
  '.inf',
  '-.Inf',
  '.nan',
  '.NaN',
  '1.1.0',
  '2.0.0',
  '2024-01-05',
  '2024-01-05 10:00:00',
  '2024-01-05T10:00:00.5Z',
  '2024-1-5 1:00:00 +01:00',
  "'2024-01-05 10:00:00'",
  "'it''s'",
  "'a'b",
  '"a\\"b"',
  '"tab\\tx"',
  '"plain"',
  "'plain'",
  '"',
  "'",
  'a: b',
  'a #c',
  'a#b',
  'a:b',
  'a:',
  ':a',
  "it's",
  'say "x"',
  '[a, b]',
  '{a: b}',
  '&anchor x',
  '*alias',
  '!tag x',
  '|',
  '>',
  '- a',
  '?x',
  '%x',
  '@x',
  '`x`',
  'ÄÖÜ ß',
  'x  y',
  'x ',
  '',
];
const KEYS = [
  'name',
  'id',
  'type',
  'status',
  'true',
  'Null',
  'null',
  '__proto__',
  'constructor',
  'a-b',
  'a_b',
  '_x',
  '9x',
  'a b',
  'a:b',
  '"q"',
  "'q'",
  '? k',
  '- k',
  '<<',
];

/** Seeded mutations of a frontmatter: pieces put in anywhere, values and keys replaced, lines repeated. */
function mutate(text: string, random: () => number): string {
  const pick = <T>(list: readonly T[]): T => list[Math.floor(random() * list.length)]!;
  const lines = text.split('\n');
  const i = Math.floor(random() * lines.length);
  const line = lines[i]!;
  const colon = line.indexOf(': ');
  switch (Math.floor(random() * 5)) {
    case 0: {
      const at = Math.floor(random() * (text.length + 1));
      return text.slice(0, at) + pick(PIECES) + text.slice(at);
    }
    case 1:
      if (colon !== -1) lines[i] = `${line.slice(0, colon)}: ${pick(VALUES)}`;
      return lines.join('\n');
    case 2:
      if (colon !== -1) lines[i] = `${pick(KEYS)}${line.slice(colon)}`;
      return lines.join('\n');
    case 3:
      lines.splice(i, 0, line);
      return lines.join('\n');
    default:
      return lines.join('\r\n');
  }
}

/** Of 20 rounds of 1–3 seeded mutations of every base, how many the fast path read (to the package's result: `check`) and left to it. */
function mutationCounts(
  bases: readonly string[],
  seed: number,
  step: (text: string, random: () => number) => string,
  check: (text: string) => 'fell back' | 'same',
): { same: number; 'fell back': number } {
  const random = mulberry32(seed) as () => number;
  const counts = { same: 0, 'fell back': 0 };
  for (let round = 0; round < 20; round++) {
    for (const base of bases) {
      let text = base;
      const steps = 1 + Math.floor(random() * 3);
      for (let s = 0; s < steps; s++) text = step(text, random);
      counts[check(text)]++;
    }
  }
  return counts;
}

const made: string[] = [];
afterAll(() => {
  for (const d of made) rmSync(d, { recursive: true, force: true });
});

describe('the flat fast path against the yaml package', () => {
  let corpus: string[] = [];
  let root = '';
  beforeAll(() => {
    root = mkdtempSync(join(tmpdir(), 'docgate-yaml-flat-'));
    made.push(root);
    // 2,500 documents with every frontmatter defect of the generator planted.
    generateCorpus({ n: 2500, seed: 3, root });
    corpus = frontmatters(markdownUnder(root));
  });

  it('reads nearly every frontmatter of the generated corpus itself, to the package’s result', () => {
    const counts = { same: 0, 'fell back': 0 };
    for (const text of corpus) counts[compare(text)]++;
    expect(counts.same + counts['fell back']).toBe(corpus.length);
    // The planted YAML defects, numbers and lists go to the package; everything else is read here.
    expect(counts.same).toBeGreaterThan(corpus.length * 0.9);
    expect(counts['fell back']).toBeGreaterThan(0);
  });

  it('gives the package’s result for every markdown fixture it reads', () => {
    const fixtures = frontmatters(markdownUnder(join(REPO, 'test', 'fixtures')));
    const counts = { same: 0, 'fell back': 0 };
    for (const text of fixtures) counts[compare(text)]++;
    expect(fixtures.length).toBeGreaterThan(50);
    expect(counts.same).toBeGreaterThan(20);
  });

  it('gives the package’s result for every seeded mutation it reads, and leaves the rest to it', () => {
    const counts = mutationCounts(corpus.slice(0, 300), 17, mutate, compare);
    // Both sides of the fast path's judgement are exercised many times over.
    expect(counts.same).toBeGreaterThan(1000);
    expect(counts['fell back']).toBeGreaterThan(1000);
  });

  it('keeps hand-picked edge cases equal or leaves them to the package', () => {
    const cases = [
      'name: x\n',
      'name: x',
      '\nname: x\n',
      'name:  x  \n',
      'name: x\r\nid: y\r\n',
      'name: x\n\n\nid: y\n',
      'created: 2024-01-05 10:00:00\n',
      "created: '2024-01-05 10:00:00'\n",
      'a: "x: y # z"\n',
      "a: 'x: y # z'\n",
      'a: x#y\n',
      'a: x,y[z]{w}\n',
      'a: ÄÖÜ\n',
      'a: 1.1.0\n',
      'a: .x\n',
      'a: x\na: y\n',
      'a: 1\n',
      'a:\n',
      'a: \n',
      'a: x\n  b: y\n',
      '# c\na: x\n',
      'a: x # c\n',
      '   \n',
      '',
      // A CR that no LF follows is no line break.
      'name: x\n\r',
      'name: x\r',
      'name: x\r\r\n',
    ];
    let same = 0;
    for (const text of cases) if (compare(text) === 'same') same++;
    expect(same).toBe(15);
  });

  it('lints the corpus to the same json report with the fast path and with the package alone', () => {
    // Frontmatter findings of both paths are in it.
    expectSameReportBothWays(root, { DOCGATE_YAML: 'library' }, ['"rule": "yaml-unquoted-timestamp"', '"rule": "invalid-value"']);
  });
});

/** As `observed`, with the paths into one level of mappings and lists that diagnostics of nested values ask for. */
function observedDeep(text: string, fast: boolean): unknown {
  const { data, issues, locator } = parseYamlFrontmatter(text, 2, fast);
  const paths: string[][] = [[], ['not-a-key'], ['not-a-key', 'x']];
  for (const [key, value] of Object.entries(data ?? {})) {
    paths.push([key], [key, '0'], [key, 'x', 'y']);
    if (typeof value === 'object' && value !== null) {
      for (const sub of [...Object.keys(value), '1', '01', '-0', '1.0', '', 'missing', '__proto__']) paths.push([key, sub], [key, sub, 'z']);
    }
  }
  return {
    data: data === undefined ? 'undefined' : JSON.stringify(data),
    keys: data === undefined ? [] : Object.keys(data),
    nested: Object.values(data ?? {}).map((v) =>
      typeof v === 'object' && v !== null ? [Array.isArray(v), Object.getPrototypeOf(v) === null, Object.keys(v)] : typeof v,
    ),
    issues,
    positions: paths.map((p) => [p, locator.value(p), locator.key(p)]),
  };
}

function compareDeep(text: string): 'fell back' | 'same' {
  if (readFlatYaml(text) === null) return 'fell back';
  expect(observedDeep(text, true), JSON.stringify(text)).toEqual(observedDeep(text, false));
  return 'same';
}

/** Pieces that make or break the nested shapes: indentation, list items, block headers, comments, markers. */
const NESTED_PIECES = [
  '  ',
  ' ',
  '   ',
  '\n  ',
  '\n ',
  '\n',
  '\n\n',
  '- ',
  '\n- ',
  '\n  - ',
  '>',
  '>-',
  '|',
  '|-',
  '|+',
  '>2',
  '# c',
  ' # c',
  '---',
  '...',
  '\t',
  ':',
  ': ',
  'x: ',
  '\n  x: y',
  '\n    x: y',
  '\r\n',
  "'",
  '"',
];

/** Seeded mutations aimed at block scalars, one-level mappings and lists. */
function mutateNested(text: string, random: () => number): string {
  const pick = <T>(list: readonly T[]): T => list[Math.floor(random() * list.length)]!;
  const lines = text.split('\n');
  const i = Math.floor(random() * lines.length);
  const line = lines[i]!;
  switch (Math.floor(random() * 6)) {
    case 0: {
      const at = Math.floor(random() * (text.length + 1));
      return text.slice(0, at) + pick([...NESTED_PIECES, ...PIECES]) + text.slice(at);
    }
    case 1:
      // Indent or unindent a line.
      lines[i] = random() < 0.5 ? ` ${line}` : line.replace(/^ /, '');
      return lines.join('\n');
    case 2:
      // Give a line's value a nested value, a block header, or a list.
      if (line.includes(': '))
        lines[i] =
          `${line.slice(0, line.indexOf(': '))}:${pick(['', ' >-', ' |', ' >', ' |-'])}\n${pick(['  ', '', '    '])}${pick(['- a', 'a: b', 'text', '- "q"', "x: 'y'", 'when: 2024-01-05 10:00:00', '- 2024-01-05 10:00:00'])}`;
      return lines.join('\n');
    case 3:
      lines.splice(i, 0, pick(['', '  ', '  - x', '  k: v', 'k: v', '- x', '  more text', '     deeper']));
      return lines.join('\n');
    case 4:
      lines.splice(i, 1);
      return lines.join('\n');
    default:
      return mutate(text, random);
  }
}

describe('the fast path’s nested shapes (block scalars, one-level mappings, lists) against the yaml package', () => {
  let skills: string[] = [];
  beforeAll(() => {
    const root = mkdtempSync(join(tmpdir(), 'docgate-yaml-flat-skills-'));
    made.push(root);
    generateSkills({ n: 400, seed: 5, root, config: 'preset' });
    skills = frontmatters(markdownUnder(join(root, 'skills')));
  });

  it('reads every frontmatter of a generated repository of skills itself, folded descriptions and metadata included, to the package’s result', () => {
    const counts = { same: 0, 'fell back': 0 };
    for (const text of skills) counts[compareDeep(text)]++;
    expect(skills.length).toBeGreaterThanOrEqual(400);
    expect(skills.filter((t) => /^description: >-$/m.test(t)).length).toBeGreaterThan(10);
    expect(skills.filter((t) => /^metadata:$/m.test(t)).length).toBeGreaterThan(40);
    // Before the nested shapes, every one of those went to the package.
    expect(counts['fell back']).toBe(0);
  });

  it('gives the package’s result for every seeded mutation of them it reads, and leaves the rest to it', () => {
    const bases = skills.filter((t) => /^(?:description: [>|]|metadata:|allowed-tools:)/m.test(t)).slice(0, 150);
    const counts = mutationCounts(bases, 29, mutateNested, compareDeep);
    expect(counts.same).toBeGreaterThan(500);
    expect(counts['fell back']).toBeGreaterThan(500);
  });

  it('keeps hand-picked nested cases equal or leaves them to the package', () => {
    const cases = [
      // Block scalars.
      'd: >-\n  abc\n  def\n\n  ghi\nx: y\n',
      'd: >\n  abc\n  def\n',
      'd: |\n  a\n   b\n',
      'd: |-\n  a\n\n\n  b\n',
      'd: >\n  a\n\n\n  b\n\n\nx: y\n',
      'd: >-   \n  a\n',
      'd: |\r\n  a\r\n  b\r\n',
      'd: >-\r\n  a\r\n  b\r\nx: y\r\n',
      'd: |\n  # not a comment\n  - not a list\n  k: not a key\n',
      'd: >\n  a\n   more indented\n  b\n',
      'd: |\n\n  leading blank\n',
      'd: |+\n  kept\n\n',
      'd: >2\n   x\n',
      'd: | # c\n  a\n',
      'd: |\n  a',
      'd: |\n  trailing space \n',
      'd: |\n  a\n b\n',
      'd: |\nx: y\n',
      'd: |\n',
      'd: >-\n  a\n  ---\n',
      'd: >-\n  a\n---\n',
      'd: >-\n  a\n...\n',
      'd: >-\n  a\tb\n',
      'd: >-\n  2024-01-05 10:00:00\n',
      'd: >-\n  a\n  \n  b\n',
      // One-level mappings.
      'metadata:\n  author: x\n  version: "1.2"\nb: y\n',
      'm:  \n  a: b\n',
      'm:\n  a: b\n\n  c: d\n\nz: w\n',
      'm:\n  a: b\n   c: d\n',
      'm:\n   a: b\n  c: d\n',
      'm:\n  a: b\n  a: c\n',
      'm:\n  a:\n    b: c\n',
      'm:\n  a: 1\n',
      'm:\n  a: true\n',
      'm:\n  a: 2024-01-05 10:00:00\n  b: "2024-01-05 10:00:00"\n',
      'm:\n  a: b # c\n',
      'm:\n  __proto__: x\n',
      'm:\n  constructor: x\n',
      'm:\n  null: x\n',
      'm:\n\n  a: b\n',
      'm:\nx: y\n',
      'm:\n',
      'm:\n  a: >-\n    b\n',
      'm:\n  a: [b]\n',
      'm:\r\n  a: b\r\n',
      // Lists.
      'tools:\n  - Read\n  - Write\n',
      'tools:\n- Read\n- Write\nx: y\n',
      'tools:\n  - Read\n\n  - "Bash(git:*)"\nx: y\n',
      'tools:\n  - Read\n   - Write\n',
      'tools:\n  - Read\n  Write\n',
      'tools:\n  -\n',
      'tools:\n  - \n',
      'tools:\n  -   spaced\n',
      'tools:\n  - a: b\n',
      'tools:\n  - - a\n',
      'tools:\n  - 1\n',
      'tools:\n  - 2024-01-05 10:00:00\n',
      'tools:\n- a\n  - b\n',
      'tools:\n  - a\n- b\n',
      'tools: [a, b]\n',
      'tools:\n  - a\n  k: v\n',
      'm:\n  k: v\n  - a\n',
    ];
    let same = 0;
    for (const text of cases) if (compareDeep(text) === 'same') same++;
    // The rest are left to the package: leading blank lines, `+`, an indentation digit, a comment, a
    // more-indented folded line, trailing spaces, a tab, nulls, numbers, deeper levels, flow lists…
    expect(same).toBe(22);
  });

  it('lints skills with nested frontmatter to the same json report with the fast path and with the package alone', () => {
    const root = mkdtempSync(join(tmpdir(), 'docgate-yaml-flat-skills-lint-'));
    made.push(root);
    generateSkills({ n: 60, seed: 7, root, config: 'preset' });
    // A list where the specification wants a string, and a YAML 1.1 date-time in `metadata`.
    const body = '\n# Listed\n\nInstructions.\n';
    mkdirSync(join(root, 'skills', 'listed-tools'), { recursive: true });
    writeFileSync(
      join(root, 'skills', 'listed-tools', 'SKILL.md'),
      `---\nname: listed-tools\ndescription: >-\n  Lists its tools.\n  Use it to see a list.\nallowed-tools:\n  - Read\n  - Write\nmetadata:\n  author: a\n  created: 2024-01-05 10:00:00\n---\n${body}`,
    );
    expectSameReportBothWays(root, { DOCGATE_YAML: 'library' }, ['"rule": "yaml-unquoted-timestamp"', '"rule": "wrong-type"']);
  });
});
