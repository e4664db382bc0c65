/**
 * The POWER line format (docs/formats.md, "The line format"): `key: value` lines, values continuing on following lines that are
 * not `key:` lines, full-line `#` comments anywhere. Parsing finds the fields, repeated keys and text
 * before the first field; the rules say what is wrong with them.
 */
import type { Pos } from '../model/position.js';

export interface Field {
  key: string;
  keyPos: Pos;
  valuePos: Pos;
  /** Value lines with their file line and the column where each starts. */
  lines: { text: string; line: number; column: number }[];
}

export interface FieldsParse {
  /** Every field line, in file order (repeats included). */
  fields: Field[];
  /** The first field of each key. */
  byKey: Map<string, Field>;
  /** Later fields of a key given before. */
  duplicates: { key: string; keyPos: Pos; firstLine: number }[];
  /** Non-blank lines before the first field. */
  stray: { at: Pos; text: string }[];
}

const KEY_LINE = /^([A-Za-z_][A-Za-z0-9_-]*):(?=[ \t]|$)[ \t]*(.*)$/;
const COMMENT_LINE = /^[ \t]*#/;

export function fieldValue(f: Field): string {
  return f.lines
    .map((l) => l.text.trimEnd())
    .join('\n')
    .trim();
}

/** Splits the line format into fields; comments are skipped, continuation lines join the field above. */
export function parseFields(text: string): FieldsParse {
  const fields: Field[] = [];
  const stray: FieldsParse['stray'] = [];
  const lines = text.split('\n');
  let current: Field | null = null;
  for (let i = 0; i < lines.length; i++) {
    const raw = lines[i]!.endsWith('\r') ? lines[i]!.slice(0, -1) : lines[i]!;
    const line = i + 1;
    if (COMMENT_LINE.test(raw)) continue;
    const m = KEY_LINE.exec(raw);
    if (m) {
      const valueColumn = raw.length - m[2]!.length + 1;
      current = { key: m[1]!, keyPos: { line, column: 1 }, valuePos: { line, column: valueColumn }, lines: [] };
      if (m[2]!.trim() !== '') current.lines.push({ text: m[2]!, line, column: valueColumn });
      fields.push(current);
    } else if (current) {
      if (raw.trim() !== '' || current.lines.length > 0) current.lines.push({ text: raw, line, column: 1 });
    } else if (raw.trim() !== '') {
      stray.push({ at: { line, column: 1 }, text: raw });
    }
  }
  // First occurrence wins; later ones are repeats.
  const byKey = new Map<string, Field>();
  const duplicates: FieldsParse['duplicates'] = [];
  for (const f of fields) {
    const first = byKey.get(f.key);
    if (first) duplicates.push({ key: f.key, keyPos: f.keyPos, firstLine: first.keyPos.line });
    else byKey.set(f.key, f);
  }
  return { fields, byKey, duplicates, stray };
}
