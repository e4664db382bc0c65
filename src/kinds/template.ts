import type { Analysis, FileText, Located } from '../core/analysis.js';
import { stem } from '../core/analysis.js';
import { append, diag, FILE_START, quote } from '../core/position.js';
import type { Locator, Pos } from '../core/position.js';
import { schemaDiagnostics } from '../core/schema-messages.js';
import type { RuleSet } from '../core/schemas.js';
import type { Diagnostic } from '../core/types.js';

const KEY_LINE = /^([A-Za-z_][A-Za-z0-9_-]*):(?=[ \t]|$)[ \t]*(.*)$/;
const COMMENT_LINE = /^[ \t]*#/;
const FILE_NAME = /^[a-z0-9]+\.txt$/;
/** `{{readme_summary}}`: a reference to the `store_as` of another template. */
const PLACEHOLDER = /\{\{([A-Za-z0-9_]+_summary)\}\}/g;
const EXAMPLES_FIELD = 'examples';

interface Field {
  key: string;
  keyPos: Pos;
  valuePos: Pos;
  /** Value lines with their file line and the column where each starts. */
  lines: { text: string; line: number; column: number }[];
}

function fieldValue(f: Field): string {
  return f.lines.map((l) => l.text.trimEnd()).join('\n').trim();
}

/** Splits the POWER line format into fields; comments are skipped, continuation lines join the field above. */
function parseFields(text: string, diagnostics: Diagnostic[]): Field[] {
  const fields: Field[] = [];
  const lines = text.split('\n');
  let current: Field | null = null;
  for (let i = 0; i < lines.length; i++) {
    const raw = lines[i]!.endsWith('\r') ? lines[i]!.slice(0, -1) : lines[i]!;
    const line = i + 1;
    if (COMMENT_LINE.test(raw)) continue;
    const m = KEY_LINE.exec(raw);
    if (m) {
      const key = m[1]!;
      const valueColumn = raw.length - m[2]!.length + 1;
      current = { key, keyPos: { line, column: 1 }, valuePos: { line, column: valueColumn }, lines: [] };
      if (m[2]!.trim() !== '') current.lines.push({ text: m[2]!, line, column: valueColumn });
      fields.push(current);
    } else if (current) {
      if (raw.trim() !== '' || current.lines.length > 0) current.lines.push({ text: raw, line, column: 1 });
    } else if (raw.trim() !== '') {
      diagnostics.push(diag({ line, column: 1 }, 'template-stray-text', `Unexpected text ${quote(raw)} before the first field, expected \`framework: POWER\``));
    }
  }
  return fields;
}

export function analyzeTemplate(file: FileText, rules: RuleSet): Analysis {
  const diagnostics: Diagnostic[] = [];
  const name = stem(file.path);
  const fileName = file.path.slice(file.path.lastIndexOf('/') + 1);
  if (!FILE_NAME.test(fileName)) {
    diagnostics.push(diag(FILE_START, 'file-name', `Unexpected file name ${quote(fileName)}, expected lowercase letters and digits only, such as \`readme.txt\``));
  }
  const fields = parseFields(file.text, diagnostics);

  // First occurrence wins; later ones are reported.
  const byKey = new Map<string, Field>();
  for (const f of fields) {
    const first = byKey.get(f.key);
    if (first) {
      diagnostics.push(diag(f.keyPos, 'duplicate-key', `Unexpected duplicate field \`${f.key}\` (first on line ${first.keyPos.line}), expected each field once`));
    } else byKey.set(f.key, f);
  }

  // Field order is the order of the schema's `properties`.
  const order = Object.keys(rules.template.schema.properties ?? {});
  let highest = -1;
  let highestKey = '';
  for (const f of byKey.values()) {
    const idx = order.indexOf(f.key);
    if (idx === -1) continue;
    if (idx < highest) {
      diagnostics.push(diag(f.keyPos, 'template-field-order', `Unexpected field \`${f.key}\` after \`${highestKey}\`, expected the order ${order.join(', ')}`));
    } else {
      highest = idx;
      highestKey = f.key;
    }
  }

  const examples = byKey.get(EXAMPLES_FIELD);
  if (examples) {
    for (const l of examples.lines) {
      if (l.text.trim() !== '' && !/^- \S/.test(l.text)) {
        diagnostics.push(diag({ line: l.line, column: l.column }, 'template-examples-bullet', `Unexpected example line ${quote(l.text.trim())}, expected a bullet \`- <example>\``));
      }
    }
  }

  const data: Record<string, string> = {};
  for (const f of byKey.values()) data[f.key] = fieldValue(f);
  const locator: Locator = {
    value: (path) => {
      const f = path[0] === undefined ? undefined : byKey.get(path[0]);
      return f ? (f.lines[0] ? { line: f.lines[0].line, column: f.lines[0].column } : f.keyPos) : FILE_START;
    },
    key: (path) => (path[0] !== undefined && byKey.get(path[0])?.keyPos) || FILE_START,
  };
  if (!rules.template.validate(data)) append(diagnostics, schemaDiagnostics(rules.template.validate.errors ?? [], data, locator));

  const placeholders: Located<string>[] = [];
  for (const f of byKey.values()) {
    for (const l of f.lines) {
      for (const m of l.text.matchAll(PLACEHOLDER)) placeholders.push({ value: m[1]!, line: l.line, column: l.column + m.index });
    }
  }
  const storeField = byKey.get('store_as');
  const storeAs = storeField && data.store_as ? { value: data.store_as, ...locator.value(['store_as']) } : null;

  return {
    path: file.path,
    kind: 'template',
    id: name,
    diagnostics,
    facts: { kind: 'template', storeAs, placeholders },
    doc: diagnostics.length === 0 ? { kind: 'template', name, fields: data, content: file.text } : null,
  };
}
