/**
 * A regular expression engine for ajv (`code.regExp`) that cannot backtrack: JSON Schema `pattern`s of rule
 * files compiled at run time (a root's own schemas, which a pull request can add) run on RE2's linear-time
 * engine (the pure-JS port re2js), so that `^(a+)+$` on `aaaa…b` takes microseconds, not hours.
 *
 * Patterns are ECMAScript (`u` mode, as ajv compiles them). Their syntax is checked by `new RegExp` (which
 * compiles in linear time and never matches here), then they are translated where RE2 reads the same
 * text differently: `\s`/`\S` (RE2's are ASCII only), `.` (RE2's matches CR, U+2028 and U+2029), `[]` and
 * `[^]`. Back-references and lookaround have no linear-time form: such a pattern does not compile (a
 * configuration error naming the schema and the pattern).
 */
import { createRequire } from 'node:module';
import type { RE2JS as RE2JSClass } from 're2js';
import { Recent } from '../model/recent.js';

/** ajv's RegExpEngine: a function with the `code` ajv would print for it in standalone code. */
export interface RegExpEngine {
  (pattern: string, flags: string): { test(s: string): boolean; toString(): string };
  code: string;
}

/** ECMAScript's `\s` (WhiteSpace and LineTerminator), as code point ranges. */
const SPACE: readonly [number, number][] = [
  [0x09, 0x0d],
  [0x20, 0x20],
  [0xa0, 0xa0],
  [0x1680, 0x1680],
  [0x2000, 0x200a],
  [0x2028, 0x2029],
  [0x202f, 0x202f],
  [0x205f, 0x205f],
  [0x3000, 0x3000],
  [0xfeff, 0xfeff],
];

function complement(ranges: readonly [number, number][]): [number, number][] {
  const out: [number, number][] = [];
  let next = 0;
  for (const [lo, hi] of ranges) {
    if (lo > next) out.push([next, lo - 1]);
    next = hi + 1;
  }
  if (next <= 0x10ffff) out.push([next, 0x10ffff]);
  return out;
}

function classBody(ranges: readonly [number, number][]): string {
  const cp = (n: number) => `\\x{${n.toString(16)}}`;
  return ranges.map(([lo, hi]) => (lo === hi ? cp(lo) : `${cp(lo)}-${cp(hi)}`)).join('');
}

const SPACE_BODY = classBody(SPACE);
const NON_SPACE_BODY = classBody(complement(SPACE));
/** ECMAScript's `.` without the `s` flag: anything but a line terminator. */
const DOT = `[^${classBody([
  [0x0a, 0x0a],
  [0x0d, 0x0d],
  [0x2028, 0x2029],
])}]`;
const NOTHING = `[^\\x{0}-\\x{10ffff}]`;
const ANYTHING = `[\\x{0}-\\x{10ffff}]`;

/**
 * The RE2 form of an ECMAScript pattern (already known to be valid `u`-mode syntax). Throws for
 * back-references, which RE2 would otherwise read as octal escapes or literal text.
 */
export function toRe2Syntax(pattern: string): string {
  let out = '';
  let inClass = false;
  for (let i = 0; i < pattern.length; i++) {
    const c = pattern[i]!;
    if (c === '\\') {
      const n = pattern[i + 1] ?? '';
      if ((n >= '1' && n <= '9') || n === 'k') throw new Error('back-references cannot run in linear time');
      i++;
      if (n === 's') out += inClass ? SPACE_BODY : `[${SPACE_BODY}]`;
      else if (n === 'S') out += inClass ? NON_SPACE_BODY : `[${NON_SPACE_BODY}]`;
      else if (n === 'b' && inClass)
        out += '\\x{8}'; // backspace in a class
      // Any other escape is kept as it is: what follows its first character (hex digits, a property
      // name in braces, a control letter) holds no `\`, `[`, `]` or `.` to translate.
      else out += c + n;
      continue;
    }
    if (inClass) {
      if (c === ']') inClass = false;
      out += c;
      continue;
    }
    if (c === '(' && /^\(\?<?[=!]/.test(pattern.slice(i, i + 4))) throw new Error('lookahead and lookbehind cannot run in linear time');
    if (c === '[') {
      // In ECMAScript `[]` matches nothing and `[^]` any character; in RE2 a `]` there is a literal.
      if (pattern.startsWith('[]', i)) {
        out += NOTHING;
        i += 1;
      } else if (pattern.startsWith('[^]', i)) {
        out += ANYTHING;
        i += 2;
      } else {
        inClass = true;
        out += c;
        if (pattern[i + 1] === '^') out += pattern[++i];
      }
      continue;
    }
    out += c === '.' ? DOT : c;
  }
  return out;
}

const require = createRequire(import.meta.url);
let RE2JS: typeof RE2JSClass | undefined;

/** Compiles an ECMAScript pattern for linear-time matching (throws, with RE2's reason, when it cannot). */
export function linearPattern(pattern: string): LinearPattern {
  const known = compiled.get(pattern);
  if (known !== undefined) return known;
  new RegExp(pattern, 'u'); // the syntax ajv would accept natively; throws otherwise
  RE2JS ??= (require('re2js') as { RE2JS: typeof RE2JSClass }).RE2JS;
  const re = RE2JS.compile(RE2JS.translateRegExp(toRe2Syntax(pattern)));
  const made: LinearPattern = { test: (s: string) => re.test(s), toString: () => `/${pattern}/u` };
  compiled.set(pattern, made);
  return made;
}

export interface LinearPattern {
  test(s: string): boolean;
  toString(): string;
}

/**
 * The patterns compiled last (a compile costs ~0.25 ms: the fix of an uppercase UUID asks for the same
 * pattern in every document that has one), bounded: patterns come from rule files a server sees edited.
 */
const compiled = new Recent<string, LinearPattern>(64);

/** ajv's `code.regExp`. Standalone code is never generated with it (docgate's own schemas are precompiled with RegExp). */
export const linearRegExp: RegExpEngine = Object.assign(
  (pattern: string) => {
    try {
      return linearPattern(pattern);
    } catch (e) {
      throw new Error(`pattern \`${pattern}\` cannot be used: ${(e as Error).message}`);
    }
  },
  { code: 'linearRegExp' },
);
