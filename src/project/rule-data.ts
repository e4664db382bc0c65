/**
 * The rule data of a root's kinds, read from their rule files: schemas compiled, outlines and heading
 * tables checked (a configuration error, positioned in the file, for one that is refused).
 */
import { sep } from 'node:path';
import type { HeadingTable } from '../model/types.js';
import type { CompiledSchema } from '../parse/schema-check.js';
import { checkOutline } from './outline-files.js';
import { BUNDLED_SCHEMA_DIR, listTables, ownSchemaDir, readRule, ruleFile, shownPath } from './rule-files.js';
import { bundledSchemas, compile, widenedText } from './schemas.js';
import { Recent } from '../model/recent.js';

/** The rule data of one kind: its compiled schema, its outline, its heading tables by language. */
export interface KindRules {
  schema: CompiledSchema | null;
  outline: unknown;
  headingTables: ReadonlyMap<string, HeadingTable>;
}

/** Where a kind's rule files are found (names in the root's rule folder, else docgate's own `schemas/`). */
export interface RuleFileNames {
  schema?: string;
  outline?: string;
  /** Heading tables of language variants: file names matching this, `<lang>` captured first. */
  headingTables?: RegExp;
  /** Schemas that widen `schema` (see `widenSchema`). */
  dialects?: readonly string[];
}

/** The rule data of every kind of a root, read from its rule files. */
export interface RuleData {
  kinds: ReadonlyMap<string, KindRules>;
  /** Every rule file's name and text: rules are the same exactly when their keys are (the lint cache keeps it). */
  key: string;
}

/** Rule data by the text of its files: the last few (rule files edited often in a long-lived server). */
const loaded = new Recent<string, RuleData>(8);

/**
 * Loads (once per rule-file content) what the rules of each kind read: its schema, its outline and its
 * heading tables, each from the root's rule folder (`folder`, default `schemas`) where it has that file,
 * else from docgate's own `schemas/`.
 */
export function loadRuleData(root: string, kinds: readonly { name: string; ruleFiles: RuleFileNames }[], folder = 'schemas'): RuleData {
  const parts: string[] = [];
  const texts = new Map<string, { file: string; text: string }>();
  const read = (name: string): { file: string; text: string } => {
    let r = texts.get(name);
    if (!r) {
      const file = ruleFile(root, name, folder);
      r = { file, text: readRule(file) };
      texts.set(name, r);
      parts.push(name, r.text);
    }
    return r;
  };
  const own = ownSchemaDir(root, folder);
  const tableFiles = new Map<string, Map<string, { text: string; file: string }>>();
  for (const kind of kinds) {
    if (kind.ruleFiles.schema) read(kind.ruleFiles.schema);
    if (kind.ruleFiles.outline) read(kind.ruleFiles.outline);
    for (const d of kind.ruleFiles.dialects ?? []) read(d);
    const pattern = kind.ruleFiles.headingTables;
    if (!pattern) continue;
    const found = new Map<string, string>();
    listTables(BUNDLED_SCHEMA_DIR, pattern, found);
    if (own !== null) listTables(own, pattern, found);
    const tables = new Map<string, { text: string; file: string }>();
    for (const [lang, file] of [...found].sort(([a], [b]) => (a < b ? -1 : 1))) {
      const text = readRule(file);
      tables.set(lang, { text, file: shownPath(root, file) });
      parts.push(lang, text);
    }
    tableFiles.set(kind.name, tables);
  }
  // A root's own schema that may `$ref` docgate's by `$id` depends on their texts too (the cache must
  // not replay results of a schema it refers to as it was in another build of the same version).
  if ([...texts.values()].some((r) => !r.file.startsWith(BUNDLED_SCHEMA_DIR + sep) && r.text.includes('"$ref"'))) {
    for (const [id, schema] of bundledSchemas()) parts.push(id, JSON.stringify(schema));
  }
  // NUL never occurs in a rule file that parses as JSON, so the key splits back into the same parts.
  const key = `${kinds.map((k) => k.name).join(',')}\0${parts.join('\0')}`;
  const cached = loaded.get(key);
  if (cached) return cached;

  const out = new Map<string, KindRules>();
  for (const kind of kinds) {
    const schemaFile = kind.ruleFiles.schema ? texts.get(kind.ruleFiles.schema)! : null;
    let schema = schemaFile ? compile(schemaFile.text, schemaFile.file, shownPath(root, schemaFile.file)) : null;
    const dialects = kind.ruleFiles.dialects ?? [];
    if (schema !== null && dialects.length > 0) {
      // Each dialect compiles on its own first, so that a broken one is reported in its own file.
      const read = dialects.map((name) => {
        const { file, text } = texts.get(name)!;
        const shown = shownPath(root, file);
        return { schema: compile(text, file, shown).schema, shown, text };
      });
      schema = compile(widenedText(schema.schema, read), schema.file, shownPath(root, schemaFile!.file));
    }
    let outline: unknown = null;
    let headingTables: ReadonlyMap<string, HeadingTable> = new Map();
    if (kind.ruleFiles.outline) {
      const { file, text } = texts.get(kind.ruleFiles.outline)!;
      ({ outline, headingTables } = checkOutline(text, shownPath(root, file), tableFiles.get(kind.name) ?? new Map()));
    }
    out.set(kind.name, { schema, outline, headingTables });
  }
  const data: RuleData = { kinds: out, key };
  loaded.set(key, data);
  return data;
}

/** The rule files a kind reads for a root, as messages name them (root-relative, or docgate's own by full path). */
export interface RuleFilesUsed {
  schema?: string;
  outline?: string;
  /** Heading tables by language. */
  headingTables?: Record<string, string>;
  /** The schemas that widen `schema` (a kind's `dialects`), in order. */
  dialects?: string[];
}

/** Which rule file each of a kind's rule files is for `root` (what `--print-config` shows): the root's own where it has one, else docgate's. */
export function ruleFilesUsed(root: string, names: RuleFileNames, folder = 'schemas'): RuleFilesUsed {
  const out: RuleFilesUsed = {};
  if (names.schema) out.schema = shownPath(root, ruleFile(root, names.schema, folder));
  if (names.outline) out.outline = shownPath(root, ruleFile(root, names.outline, folder));
  if (names.dialects && names.dialects.length > 0) out.dialects = names.dialects.map((n) => shownPath(root, ruleFile(root, n, folder)));
  if (names.headingTables) {
    const found = new Map<string, string>();
    listTables(BUNDLED_SCHEMA_DIR, names.headingTables, found);
    const own = ownSchemaDir(root, folder);
    if (own !== null) listTables(own, names.headingTables, found);
    out.headingTables = Object.fromEntries([...found].sort(([a], [b]) => (a < b ? -1 : 1)).map(([lang, file]) => [lang, shownPath(root, file)]));
  }
  return out;
}
