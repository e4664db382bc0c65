/**
 * One document of a kind of your own, read as its configuration says (docs/formats.md, "Kinds of your
 * own"): frontmatter (required, optional or none), the body after it, the id, and what the kind's own
 * rules report (the path agreement, the body's limits, a deprecated path) found while parsing.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import type { Located } from '../../model/analysis.js';
import { FILE_START, LineIndex } from '../../model/position.js';
import type { Locator, Pos } from '../../model/position.js';
import { readFrontmatterDoc } from '../../parse/frontmatter-doc.js';
import type { FrontmatterParse, SchemaCheck } from '../../parse/frontmatter-doc.js';
import { splitFrontmatter } from '../../parse/frontmatter.js';
import type { FrontmatterSplit } from '../../parse/frontmatter.js';
import { candidateDestinations, linkPath, pathLinks } from '../../parse/links.js';
import type { LinkDestination } from '../../parse/links.js';
import { buildOutlineModel } from '../../parse/outline/build.js';
import { compileOutline } from '../../parse/outline/data.js';
import type { OutlineData } from '../../parse/outline/data.js';
import type { OutlineModel } from '../../parse/outline/model.js';
import type { FileText, KindData, Layers } from '../../engine/kind.js';
import type { CustomKindConfig } from './config.js';
import { idField } from './config.js';
import { folderName } from './id.js';

// Made on first use: V8 parses a regular expression when it is created, and these Unicode classes make
// that parse cost ~1 ms, which a module-level literal would add to the start of every run
// (docs/performance.md, "Issue 26's rows again").
let customId: RegExp | undefined;

/**
 * Ids of documents that get tools can ask for: letters (any script) and digits, `._~:@+-`, no path
 * separators, no `..`, no control characters (an id is shape-checked before any file is read:
 * docs/mcp-tools.md).
 */
export function isCustomId(s: string): boolean {
  return (customId ??= /^(?!.*\.\.)[\p{L}\p{N}][\p{L}\p{M}\p{N}._~:@+-]{0,199}$/u).test(s);
}

/** A link whose target is not a file or folder inside the root. */
export interface BrokenLink extends LinkDestination {
  /** Why: it climbs out of the root, or names nothing. */
  why: 'outside' | 'missing';
}

export interface CustomParse extends Layers {
  /** Absent for a body-only kind (`frontmatter: none`). */
  frontmatter?: FrontmatterParse;
  schema: SchemaCheck | null;
  outline: OutlineModel | null;
  /** The document's id; null when it has none (a missing field, a root file's folder). */
  id: Located<string> | null;
  /** The body: everything after the frontmatter block. */
  body: string;
  bodyLineOffset: number;
  /** `match`: the field's value, where it is, and the name it differs from (null when they agree or the field is not a string). */
  mismatch: { field: string; value: Located<string>; other: string; equals: 'folder' | 'stem' } | null;
  /** `body.required`: where an empty body is reported. */
  emptyBodyAt: Pos | null;
  /** `body.maxLines`: the body's lines and the first line past the limit. */
  tooManyLines: { lines: number; max: number; at: Pos } | null;
  /** `body.maxBytes`: the body's bytes and the line holding the first byte past the limit. */
  tooManyBytes: { bytes: number; max: number; at: Pos } | null;
  /** `deprecatedInclude`: the file name and the message, `<stem>` filled in. */
  deprecated: { name: string; message: string } | null;
  /** The body's relative links whose target is missing (`link-target`), found when first asked. */
  brokenLinks(): BrokenLink[];
}

/** How a kind of your own reads its documents, made once per kind. */
export interface CustomReader {
  name: string;
  config: CustomKindConfig;
  stemOf(path: string): string;
  isDeprecated(path: string): boolean;
}

const NO_LOCATOR: Locator = { value: () => FILE_START, key: () => FILE_START };

/** The frontmatter of a file that has none, where the kind allows it: no data to check. */
function noFrontmatter(split: FrontmatterSplit): FrontmatterParse {
  return { split, issues: [], data: {}, written: {}, locator: NO_LOCATOR };
}

export function parseCustom(reader: CustomReader, file: FileText, data: KindData, full: boolean): CustomParse {
  const { config, name } = reader;
  let frontmatter: FrontmatterParse | undefined;
  let schema: SchemaCheck | null = null;
  let body: string;
  let bodyLineOffset: number;
  if (config.frontmatter === null) {
    // A body-only kind: a frontmatter block is split off (it is not body), an unclosed `---` is a thematic break.
    const split = splitFrontmatter(file.text);
    body = split.unterminated ? file.text : split.body;
    bodyLineOffset = split.unterminated ? 0 : split.bodyLineOffset;
  } else {
    const split = splitFrontmatter(file.text);
    if (!split.present && config.frontmatterOptional) frontmatter = noFrontmatter(split);
    else ({ frontmatter, schema } = readFrontmatterDoc(file.text, data.schema!, config.lenient));
    body = frontmatter.split.body;
    bodyLineOffset = frontmatter.split.bodyLineOffset;
  }
  const stemName = reader.stemOf(file.path);
  const folder = folderName(file.path);
  const id = idOf(config, frontmatter, stemName, folder);
  const unterminated = frontmatter?.split.unterminated ?? false;

  let mismatch: CustomParse['mismatch'] = null;
  const written = frontmatter?.written;
  if (full && config.match !== null && written) {
    const value = written[config.match.field];
    const other = config.match.equals === 'folder' ? folder : stemName;
    if (typeof value === 'string' && other !== null && value.normalize('NFKC') !== other.normalize('NFKC')) {
      mismatch = { field: config.match.field, value: { value, ...frontmatter!.locator.value([config.match.field]) }, other, equals: config.match.equals };
    }
  }
  let emptyBodyAt: Pos | null = null;
  let tooManyLines: CustomParse['tooManyLines'] = null;
  let tooManyBytes: CustomParse['tooManyBytes'] = null;
  if (full && !unterminated) {
    if (config.body.required && body.trim() === '') {
      emptyBodyAt = { line: Math.min(bodyLineOffset + 1, new LineIndex(file.text).lineCount), column: 1 };
    }
    const maxLines = config.body.maxLines;
    if (maxLines !== null) {
      const lines = lineCount(body);
      if (lines > maxLines) tooManyLines = { lines, max: maxLines, at: { line: bodyLineOffset + maxLines + 1, column: 1 } };
    }
    const maxBytes = config.body.maxBytes;
    if (maxBytes !== null) {
      const bytes = Buffer.byteLength(body, 'utf8');
      if (bytes > maxBytes) tooManyBytes = { bytes, max: maxBytes, at: { line: bodyLineOffset + lineOfByte(body, maxBytes), column: 1 } };
    }
  }
  const deprecated =
    full && config.deprecatedInclude !== null && reader.isDeprecated(file.path)
      ? { name: file.path.slice(file.path.lastIndexOf('/') + 1), message: config.deprecatedInclude.message.replaceAll('<stem>', stemName) }
      : null;

  let outline: OutlineModel | null = null;
  if (full && data.outline !== null && !unterminated) {
    // The outline data was checked when the rule set was loaded; messages call it by the kind's name unless it has one.
    const compiled = compileOutline(data.outline as OutlineData, null);
    outline = buildOutlineModel(body, bodyLineOffset, compiled, name);
  }
  let broken: BrokenLink[] | undefined;
  const brokenLinks = (): BrokenLink[] => (broken ??= findBrokenLinks(body, bodyLineOffset, file.path, data.root));
  const out: CustomParse = { schema, outline, id, body, bodyLineOffset, mismatch, emptyBodyAt, tooManyLines, tooManyBytes, deprecated, brokenLinks };
  if (frontmatter !== undefined) out.frontmatter = frontmatter;
  return out;
}

/** The id the kind's `id` names; null when there is none (a missing or non-string field, a file at the root with `folder`). */
function idOf(config: CustomKindConfig, fm: FrontmatterParse | undefined, stemName: string, folder: string | null): Located<string> | null {
  const field = idField(config.id);
  if (field === null) {
    const value = config.id === 'folder' ? folder : stemName;
    return value === null ? null : { value, ...FILE_START };
  }
  const written = fm?.written?.[field];
  return typeof written === 'string' && isCustomId(written) ? { value: written, ...fm!.locator.value([field]) } : null;
}

/** Lines of a text: a last line without a line break counts, an empty text has none. */
function lineCount(text: string): number {
  let n = 0;
  for (let i = text.indexOf('\n'); i !== -1; i = text.indexOf('\n', i + 1)) n++;
  return text.length > 0 && !text.endsWith('\n') ? n + 1 : n;
}

/** The 1-based line of `text` that holds its byte at 0-based offset `byte` (UTF-8). */
function lineOfByte(text: string, byte: number): number {
  let bytes = 0;
  let line = 1;
  for (const ch of text) {
    const size = Buffer.byteLength(ch, 'utf8');
    if (bytes + size > byte) return line;
    bytes += size;
    if (ch === '\n') line++;
  }
  return line;
}

/** The body's path links whose target is not a file or folder inside the root. */
function findBrokenLinks(body: string, bodyLineOffset: number, docPath: string, root: string | undefined): BrokenLink[] {
  if (root === undefined) return [];
  const why = (dest: string): BrokenLink['why'] | null => {
    const target = linkPath(dest, docPath);
    return target === null ? 'outside' : target !== '' && !existsSync(join(root, target)) ? 'missing' : null;
  };
  // Most bodies link only to what exists: then no written destination fails, and the body is not parsed.
  if (candidateDestinations(body).every((d) => why(d) === null)) return [];
  const out: BrokenLink[] = [];
  for (const link of pathLinks(body, bodyLineOffset)) {
    const w = why(link.dest);
    if (w !== null) out.push({ ...link, why: w });
  }
  return out;
}
