import type { Located } from '../../model/analysis.js';
import { readFrontmatterDoc } from '../../parse/frontmatter-doc.js';
import { blankLead } from '../../parse/frontmatter.js';
import type { FrontmatterParse, SchemaCheck } from '../../parse/frontmatter-doc.js';
import type { HeadingTable } from '../../model/types.js';
import type { FileText, KindData, Layers } from '../../engine/kind.js';
import { baseName, stem } from '../../model/paths.js';
import { buildOutlineModel } from '../../parse/outline/build.js';
import { compileOutline } from '../../parse/outline/data.js';
import type { OutlineData } from '../../parse/outline/data.js';
import type { OutlineModel } from '../../parse/outline/model.js';
import { UUID } from '../../model/uuid.js';

export { UUID };
/** What messages call the SysRS outline ("a section heading of the SysRS outline") when its data has no `name`. */
export const SYSRS_OUTLINE_NAME = 'SysRS';
export const LANGUAGE = /^[a-z]{2}$/;
const UUID_IN_NAME = /[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}/;

export interface SysrsParse extends Layers {
  frontmatter: FrontmatterParse;
  schema: SchemaCheck | null;
  outline: OutlineModel | null;
  /** A variant folder without a heading table: the folder, and the languages that have one. */
  language: { folder: string; available: string[] } | null;
  /** The frontmatter id, when it is a lowercase UUID. */
  id: Located<string> | null;
}

export interface SysrsFacts {
  kind: 'sysrs';
  id: Located<string> | null;
  /** `null` for an English document, else the variant's language folder. */
  lang: string | null;
}

/** What MCP clients get of a SysRS that parses. */
export interface SysrsDoc {
  kind: 'sysrs';
  id: string;
  lang: string | null;
  /** File name without `.md`. */
  ref: string;
  title: string;
  frontmatter: Record<string, unknown>;
  body: unknown;
  /** The frontmatter-stripped body, verbatim (get_sysrs `raw: true`, docs/mcp-tools.md). */
  rawBody: string;
  /** File line of the raw body's line 1. */
  rawBodyLine: number;
}

/** The id of a SysRS known only by its path (docs/formats.md, "SysRS"): the UUID in its file name, else the file stem. */
export function sysrsFileId(path: string): string {
  return UUID_IN_NAME.exec(baseName(path))?.[0].toLowerCase() ?? stem(path);
}

/** The English source of a variant `<dir>/<lang>/<file>`: `<dir>/<file>`. */
export function sourceOf(path: string, lang: string): string {
  const name = path.slice(path.lastIndexOf('/') + 1);
  const dir = path.slice(0, path.length - name.length - 1 - lang.length - 1);
  return `${dir}/${name}`;
}

/** Strips the blank lines directly after the frontmatter: raw line 1 is the first line after them (get_sysrs, docs/mcp-tools.md). */
function rawBodyOf(body: string, bodyLineOffset: number): { rawBody: string; rawBodyLine: number } {
  const lead = blankLead(body);
  return { rawBody: body.slice(lead.length), rawBodyLine: bodyLineOffset + 1 + lead.lines };
}

/**
 * Parses one SysRS: frontmatter, and (when `full`) the body against the outline, through the variant's
 * heading table. A variant folder without a table is reported and its body is not checked.
 */
export function parseSysrs(file: FileText, data: KindData, full: boolean): SysrsParse {
  let table: HeadingTable | null = null;
  let language: SysrsParse['language'] = null;
  if (file.lang !== null) {
    const t = LANGUAGE.test(file.lang) ? data.headingTables.get(file.lang) : undefined;
    if (t) table = t;
    else language = { folder: file.lang, available: [...data.headingTables.keys()].sort() };
  }
  const { frontmatter, schema } = readFrontmatterDoc(file.text, data.schema!);
  const written = frontmatter.written?.id;
  const id = typeof written === 'string' && UUID.test(written) ? { value: written, ...frontmatter.locator.value(['id']) } : null;
  let outline: OutlineModel | null = null;
  if (full && language === null && !frontmatter.split.unterminated) {
    // The outline data was checked when the rule set was loaded.
    const compiled = compileOutline(data.outline as OutlineData, table);
    outline = buildOutlineModel(frontmatter.split.body, frontmatter.split.bodyLineOffset, compiled, SYSRS_OUTLINE_NAME);
  }
  return { frontmatter, schema, outline, language, id };
}

export function sysrsDoc(p: SysrsParse, file: FileText): SysrsDoc | null {
  if (p.frontmatter.data === null || p.id === null || p.outline === null) return null;
  return {
    kind: 'sysrs',
    id: p.id.value,
    lang: file.lang,
    ref: stem(file.path),
    title: p.outline.title ?? '',
    frontmatter: p.frontmatter.data,
    body: p.outline.body,
    ...rawBodyOf(p.frontmatter.split.body, p.frontmatter.split.bodyLineOffset),
  };
}
