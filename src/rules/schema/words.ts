/**
 * What a schema asks for, in words, built from the schema itself: `at most 20 characters` for a
 * `maxLength` that failed, `a string matching `^@` or a list` for the branches of an `anyOf`. The
 * violated subschema's `description` follows its constraint in parentheses (`described`); a subschema
 * named inside another (a branch, the items of `contains`) is named by its description.
 * docs/messages.md has the words of each keyword.
 */
import { quote } from '../../model/position.js';

/** A literal value in a message: `` `POWER` ``, `` `42` ``, `` `{"a":1}` ``. */
export function constWords(v: unknown): string {
  return typeof v === 'object' && v !== null ? quote(v) : `\`${String(v)}\``;
}

function count(n: unknown, word: string): string {
  return `${String(n)} ${n === 1 ? word : `${word}s`}`;
}

/** Words a phrasing of a choice adds around its values (`one of: `a`, `b``, `` `a` or `b` ``). */
const JOINERS = new Set(['one', 'of', 'or', 'and']);

/** The words and backticked values of a phrase, in lowercase, without punctuation and joiners. */
function tokens(s: string): string[] {
  return (s.toLowerCase().match(/`[^`]*`|[\p{L}\p{N}-]+/gu) ?? []).filter((t) => !JOINERS.has(t));
}

/**
 * A constraint's words, then the schema's `description` in parentheses: the constraint says what is
 * wrong, the description what the value is for. A description that says nothing the constraint does
 * not (`` `a` or `b` `` beside `one of: `a`, `b``, `a string` beside `a string`) is left out.
 */
export function described(constraint: string, schema: { description?: unknown } | undefined): string {
  const d = schema?.description;
  if (typeof d !== 'string' || d.trim() === '') return constraint;
  const said = new Set(tokens(constraint));
  if (tokens(d).every((t) => said.has(t))) return constraint;
  // A description with parentheses of its own follows a colon: no parentheses inside parentheses.
  return /[()]/.test(d) ? `${constraint}: ${d}` : `${constraint} (${d})`;
}

/** The longest pattern a described value's message shows (as long as quoted content: docs/messages.md). */
const SHOWN_PATTERN = 60;

/**
 * What keyword `keyword` (a value keyword: length, pattern, format, range) asks of a value under
 * `schema`, with its description. A long pattern beside a description is named, not shown: the
 * description says it in words, and a regular expression of 70 characters says it to few readers.
 */
export function demandWords(keyword: string, value: unknown, schema: { description?: unknown } | undefined): string {
  const long = keyword === 'pattern' && typeof schema?.description === 'string' && String(value).length > SHOWN_PATTERN;
  return described(long ? 'a value matching the `pattern` of the schema' : limitWords(keyword, value)!.bare, schema);
}

/** `` a `name` entry ``, `` an `id` entry ``: the article goes by the key's first letter, as written. */
export function entryWords(key: string): string {
  return `${/^[aeiou]/i.test(key) ? 'an' : 'a'} \`${key}\` entry`;
}

/** A keyword's demand: `bare` stands alone after "expected", `after` follows a noun (`a string …`). */
export interface Words {
  bare: string;
  after: string;
}

const LIMITS: Record<string, (v: unknown) => Words | null> = {
  minLength: (v) => ({ bare: `at least ${count(v, 'character')}`, after: `of at least ${count(v, 'character')}` }),
  maxLength: (v) => ({ bare: `at most ${count(v, 'character')}`, after: `of at most ${count(v, 'character')}` }),
  pattern: (v) => ({ bare: `a value matching \`${String(v)}\``, after: `matching \`${String(v)}\`` }),
  format: (v) => ({ bare: `a value in \`${String(v)}\` format`, after: `in \`${String(v)}\` format` }),
  minimum: (v) => ({ bare: `at least ${String(v)}`, after: `of at least ${String(v)}` }),
  maximum: (v) => ({ bare: `at most ${String(v)}`, after: `of at most ${String(v)}` }),
  exclusiveMinimum: (v) => ({ bare: `more than ${String(v)}`, after: `more than ${String(v)}` }),
  exclusiveMaximum: (v) => ({ bare: `less than ${String(v)}`, after: `less than ${String(v)}` }),
  multipleOf: (v) => ({ bare: `a multiple of ${String(v)}`, after: `that is a multiple of ${String(v)}` }),
  minItems: (v) => ({ bare: `at least ${count(v, 'item')}`, after: `with at least ${count(v, 'item')}` }),
  maxItems: (v) => ({ bare: `at most ${count(v, 'item')}`, after: `with at most ${count(v, 'item')}` }),
  minProperties: (v) => ({ bare: `at least ${count(v, 'key')}`, after: `with at least ${count(v, 'key')}` }),
  maxProperties: (v) => ({ bare: `at most ${count(v, 'key')}`, after: `with at most ${count(v, 'key')}` }),
  uniqueItems: (v) => (v === true ? { bare: 'each item once', after: 'without duplicates' } : null),
  required: (v) =>
    Array.isArray(v) && v.length > 0 ? { bare: `the keys ${keyList(v)}`, after: `with ${v.length === 1 ? 'key' : 'keys'} ${keyList(v)}` } : null,
};

function keyList(keys: readonly unknown[]): string {
  return keys.map((k) => `\`${String(k)}\``).join(', ');
}

/** The words of keyword `keyword` whose value in the schema is `value`, or null for a keyword without words. */
export function limitWords(keyword: string, value: unknown): Words | null {
  return Object.hasOwn(LIMITS, keyword) ? LIMITS[keyword]!(value) : null;
}

const TYPES: Record<string, string> = {
  string: 'a string',
  integer: 'an integer',
  number: 'a number',
  boolean: 'a boolean',
  object: 'a mapping',
  array: 'a list',
  null: 'null',
};

/** `a string`, `an integer`, `a mapping`, `a string or a list` (null left out beside other types), or null. */
export function typeWords(type: unknown): string | null {
  const all = (Array.isArray(type) ? type : [type]).filter((t): t is string => typeof t === 'string');
  const shown = all.length > 1 ? all.filter((t) => t !== 'null') : all;
  return shown.length > 0 ? shown.map((t) => TYPES[t] ?? `a ${t}`).join(' or ') : null;
}

/** `a`, `a and b`, `a, b and c`. */
export function and(items: readonly string[]): string {
  return items.length <= 1 ? (items[0] ?? '') : `${items.slice(0, -1).join(', ')} and ${items[items.length - 1]!}`;
}

/** Where a `$ref` of the schema being described lands (undefined when it cannot be followed). */
export type Follow = (ref: string) => unknown;

/**
 * A schema as a noun phrase: its description; its constant or its values; else its type (or `noun`)
 * with what its keywords ask (`a string of at most 4 characters`); branches joined by `or`; a `$ref`
 * alone, what it refers to.
 */
export function phrase(schema: unknown, noun = 'a value', follow: Follow = () => undefined, depth = 0): string {
  if (schema === true || schema === undefined) return `any ${noun.replace(/^an? /, '')}`;
  if (schema === false) return `no ${noun.replace(/^an? /, '')}`;
  if (typeof schema !== 'object' || schema === null || Array.isArray(schema)) return noun;
  const s = schema as Record<string, unknown>;
  if (typeof s['description'] === 'string') return s['description'];
  if ('const' in s) return constWords(s['const']);
  if (Array.isArray(s['enum'])) return `one of ${s['enum'].map(constWords).join(', ')}`;
  const typed = typeWords(s['type']);
  const after = Object.keys(s)
    .map((k) => limitWords(k, s[k])?.after)
    .filter((w): w is string => w !== undefined);
  if (typed === null && after.length === 0) {
    const branches = s['anyOf'] ?? s['oneOf'];
    if (Array.isArray(branches)) return branches.map((b) => phrase(b, noun, follow, depth + 1)).join(' or ');
    if ('not' in s) return `anything but ${phrase(s['not'], noun, follow, depth + 1)}`;
    if (typeof s['$ref'] === 'string') {
      // A chain of references ends somewhere (refLoop refuses loops); the depth bounds the words anyway.
      const target = depth < 8 ? follow(s['$ref']) : undefined;
      return target === undefined ? `${noun} matching \`${s['$ref']}\`` : phrase(target, noun, follow, depth + 1);
    }
    return `${noun} matching ${quote(s)}`;
  }
  return after.length > 0 ? `${typed ?? noun} ${after.join(' and ')}` : typed!;
}
