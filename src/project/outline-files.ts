/**
 * Outline files and heading tables as rule files: each checked when the rule set is loaded (the outline
 * against schemas/outline.schema.json, then compiled; each heading table against the outline), so a
 * malformed one is one configuration error, positioned in the file (docs/configuration.md), rather than a failure of
 * every document. docgate's own outline and tables are checked by the build instead (the texts it
 * checked are listed in dist/validators/outlines.json).
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { jsonSyntaxPos, jsonValuePos } from '../parse/json-position.js';
import type { Pos } from '../model/position.js';
import { PRECOMPILED_DIR, compileRuleFile } from './schemas.js';
import { BUNDLED_SCHEMA_DIR, OUTLINE_SCHEMA_FILE } from './rule-files.js';
import { RuleDataError } from '../model/errors.js';
import type { CompiledSchema } from '../parse/schema-check.js';
import type { HeadingTable } from '../model/types.js';
import { compileOutline, OutlineDataError, pointerOf, pointerSegments } from '../parse/outline/data.js';
import type { CompiledOutline, OutlineData } from '../parse/outline/data.js';
import { outlineProblem } from '../parse/outline/schema-problem.js';
import { SYSRS_OUTLINE_NAME } from '../kinds/sysrs/parse.js';
import type { SysrsBodyCheck } from '../kinds/sysrs/outline.js';
import { checkOutlineBody } from '../rules/outline/index.js';

/** Where an outline's or a table's problem is in its file's text. */
function problemPos(text: string, e: OutlineDataError | TableProblem): Pos {
  if (e instanceof TableProblem && e.syntax !== undefined) return jsonSyntaxPos(text, e.syntax);
  return jsonValuePos(text, pointerSegments(e.instancePath), e instanceof OutlineDataError ? e.key : undefined);
}

let outlineSchema: CompiledSchema | undefined;

/**
 * Outline data checked against schemas/outline.schema.json (its validator precompiled by the build, as
 * the kinds' schemas are); an OutlineDataError names the first problem and where it is.
 */
export function checkOutlineData(raw: unknown): OutlineData {
  outlineSchema ??= compileRuleFile(join(BUNDLED_SCHEMA_DIR, OUTLINE_SCHEMA_FILE), OUTLINE_SCHEMA_FILE);
  const { validate, schema } = outlineSchema;
  if (!validate(raw)) throw outlineProblem(validate.errors ?? [], schema);
  return raw as OutlineData;
}

let checkedTexts: ReadonlySet<string> | undefined;

/**
 * Whether the build checked exactly this text (docgate's own outlines, and each of its heading tables
 * with the outline, as `outline\0table`: scripts/build-validators.mjs). Running the outline schema's
 * validator the first time and compiling the outline for each table cost a few milliseconds, several
 * percent of a one-file lint; a root's own outline or table (another text) is checked when loaded.
 */
function checkedAtBuild(text: string): boolean {
  if (checkedTexts === undefined) {
    try {
      checkedTexts = new Set(JSON.parse(readFileSync(join(PRECOMPILED_DIR, 'outlines.json'), 'utf8')) as string[]);
    } catch {
      checkedTexts = new Set(); // running from src/ (tests) or an unbuilt tree: check every outline
    }
  }
  return checkedTexts.has(text);
}

/** An outline file: JSON, checked by the outline schema, then compiled (which checks what a schema cannot). */
function loadOutline(text: string, file: string, trustBuild: boolean): OutlineData {
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch (e) {
    throw new RuleDataError(file, jsonSyntaxPos(text, e), `outline is not valid JSON: ${(e as Error).message}`);
  }
  try {
    if (trustBuild && checkedAtBuild(text)) return raw as OutlineData;
    const data = checkOutlineData(raw);
    compileOutline(data, null);
    return data;
  } catch (e) {
    if (e instanceof OutlineDataError) throw new RuleDataError(file, problemPos(text, e), `outline is invalid: ${e.message}`);
    throw e;
  }
}

/** What is wrong with a heading table, and where in it. */
class TableProblem extends Error {
  constructor(
    message: string,
    readonly instancePath: string,
    /** The JSON.parse error when the table is not JSON at all. */
    readonly syntax?: unknown,
  ) {
    super(message);
  }
}

function parseTable(text: string, lang: string): HeadingTable {
  let t: HeadingTable;
  try {
    t = JSON.parse(text) as HeadingTable;
  } catch (e) {
    throw new TableProblem(`not valid JSON: ${(e as Error).message}`, '', e);
  }
  if (typeof t?.h1Prefix !== 'string' || typeof t.headings !== 'object' || t.headings === null) throw new TableProblem('needs `h1Prefix` and `headings`', '');
  return { language: lang, h1Prefix: t.h1Prefix, headings: t.headings };
}

/**
 * What is wrong with a heading table for this outline: every heading of the outline needs a
 * translation, each a non-empty string of its own (a text shared by two headings could not tell them
 * apart), and the H1 prefix must not be blank.
 */
function checkTable(table: HeadingTable, outline: CompiledOutline): void {
  if (table.h1Prefix.trim() === '') throw new TableProblem(`unexpected h1Prefix ${JSON.stringify(table.h1Prefix)}, expected a non-empty string`, '/h1Prefix');
  if (Array.isArray(table.headings)) throw new TableProblem('unexpected list for `headings`, expected an object of translations', '/headings');
  const owner = new Map<string, string>();
  for (const [heading, text] of Object.entries(table.headings as Record<string, unknown>)) {
    const at = pointerOf(['headings', heading]);
    if (typeof text !== 'string' || text.trim() === '')
      throw new TableProblem(`unexpected translation ${JSON.stringify(text) ?? String(text)} of ${JSON.stringify(heading)}, expected a non-empty string`, at);
    const other = owner.get(text);
    if (other !== undefined)
      throw new TableProblem(
        `unexpected translation ${JSON.stringify(text)} of both ${JSON.stringify(other)} and ${JSON.stringify(heading)}, expected a different text for each heading`,
        at,
      );
    owner.set(text, heading);
  }
  const missing = outline.all.filter((n) => !Object.hasOwn(table.headings, n.heading)).map((n) => JSON.stringify(n.heading));
  if (missing.length > 0)
    throw new TableProblem(`unexpected table without a translation of ${missing.join(', ')}, expected one for every heading of the outline`, '/headings');
}

/** A heading table file for an outline: its shape, its translations, and the outline compiled through it. */
function loadHeadingTable(text: string, file: string, lang: string, outline: OutlineData, checked: boolean): HeadingTable {
  try {
    const table = parseTable(text, lang);
    if (checked) return table;
    checkTable(table, compileOutline(outline, null));
    compileOutline(outline, table);
    return table;
  } catch (e) {
    if (e instanceof TableProblem && e.syntax !== undefined) throw new RuleDataError(file, problemPos(text, e), `heading table is ${e.message}`);
    if (e instanceof TableProblem || e instanceof OutlineDataError)
      throw new RuleDataError(file, problemPos(text, e), `heading table is invalid: ${e.message}`);
    throw e;
  }
}

/**
 * Checks an outline, and every heading table against it, when they are loaded: a malformed outline or
 * heading table is a configuration error here, once, rather than a failure of every document at 1:1
 * (docs/configuration.md). The compiled forms are cached for the outline engine. `trustBuild`: skip what the build
 * checked (false: the build itself).
 */
export function checkOutline(
  text: string,
  outlineFile: string,
  tables: ReadonlyMap<string, { text: string; file: string }>,
  trustBuild = true,
): { outline: OutlineData; headingTables: Map<string, HeadingTable> } {
  const outline = loadOutline(text, outlineFile, trustBuild);
  const headingTables = new Map<string, HeadingTable>();
  for (const [lang, table] of tables)
    headingTables.set(lang, loadHeadingTable(table.text, table.file, lang, outline, trustBuild && checkedAtBuild(`${text}\0${table.text}`)));
  return { outline, headingTables };
}

/**
 * Checks a SysRS body against the outline and parses it into the body model.
 * body = file text after the frontmatter; bodyLineOffset = number of file lines before it;
 * table = null for English, else the variant's heading table.
 * limit: keep only the diagnostics a result shows (the first `limit` by position, sorted as in a
 * result); without it, every diagnostic, sorted by position, then in rule order and the order found.
 * Outline data that schemas/outline.schema.json (or the compile) refuses throws an OutlineDataError.
 */
export function checkSysrsBody(body: string, bodyLineOffset: number, outline: unknown, table: HeadingTable | null, limit?: number): SysrsBodyCheck {
  const offset = Number.isInteger(bodyLineOffset) && bodyLineOffset > 0 ? bodyLineOffset : 0;
  const compiled = compileOutline(checkOutlineData(outline), table);
  return checkOutlineBody(typeof body === 'string' ? body : '', offset, compiled, {
    prefix: 'sysrs',
    name: SYSRS_OUTLINE_NAME,
    ...(limit === undefined ? {} : { limit }),
  });
}
