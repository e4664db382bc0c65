/**
 * Frontmatter fields a client reads more leniently than YAML (docs/formats.md, "Kinds of your own",
 * `lenient`): Cursor reads `globs: **\/*.ts` as the string `**\/*.ts`, where YAML reads an alias (or
 * fails). Such a value, plain and on one line, is read as the string the client reads: the YAML text
 * is given to the parser with that value quoted, so every line and every other column stays where it
 * is on disk, and the rule `unquoted-value` asks for the quotes the client does without.
 */
import type { Pos } from '../model/position.js';
import { yamlLibrary } from './yaml-library.js';

/** One value read leniently: where it is written, what it is, and why YAML would not read it so. */
export interface LenientValue {
  key: string;
  value: string;
  at: Pos;
  end: Pos;
  /** `alias`: YAML reads it as an alias; `syntax`: YAML refuses it. */
  why: 'alias' | 'syntax';
}

/** Characters a plain value cannot start with and still be one the client reads as written (quotes, flow and block scalars, a comment). */
const NOT_PLAIN = /^['"[{|>#]/;

/** A value as YAML reads it alone on a line: fine, an alias, or refused. */
function yamlReading(key: string, value: string): 'fine' | 'alias' | 'syntax' {
  const { isAlias, isMap, parseDocument } = yamlLibrary();
  const doc = parseDocument(`${JSON.stringify(key)}: ${value}\n`, { version: '1.2', schema: 'core', strict: true, uniqueKeys: false });
  if (doc.errors.length > 0) return 'syntax';
  const map = doc.contents;
  const item = isMap(map) ? map.items[0] : undefined;
  return item !== undefined && isAlias(item.value) ? 'alias' : 'fine';
}

/** A plain scalar quoted with single quotes (a `'` doubled): the same string to YAML. */
export function singleQuoted(value: string): string {
  return `'${value.replace(/'/g, "''")}'`;
}

/**
 * The YAML text with every lenient field's plain one-line value that YAML would not read as written
 * quoted, and those values. `firstLine` is the file line of the text's line 1.
 */
export function readLeniently(yaml: string, fields: readonly string[], firstLine: number): { yaml: string; values: LenientValue[] } {
  if (fields.length === 0) return { yaml, values: [] };
  const values: LenientValue[] = [];
  const lines = yaml.split('\n');
  let changed = false;
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!;
    const colon = line.indexOf(':');
    if (colon <= 0) continue;
    const key = line.slice(0, colon);
    if (!fields.includes(key)) continue;
    const rest = line.slice(colon + 1).replace(/\r$/, '');
    const value = rest.trim();
    if (!/^[ \t]/.test(rest) || value === '' || NOT_PLAIN.test(value)) continue;
    // A value continued on the next (indented) line is not on one line: YAML's reading stands.
    const next = lines[i + 1];
    if (next !== undefined && /^[ \t]+\S/.test(next)) continue;
    const why = yamlReading(key, value);
    if (why === 'fine') continue;
    const start = colon + 1 + (rest.length - rest.trimStart().length);
    values.push({
      key,
      value,
      at: { line: firstLine + i, column: start + 1 },
      end: { line: firstLine + i, column: start + value.length + 1 },
      why,
    });
    lines[i] = `${line.slice(0, start)}${singleQuoted(value)}${line.slice(start + value.length)}`;
    changed = true;
  }
  return { yaml: changed ? lines.join('\n') : yaml, values };
}
