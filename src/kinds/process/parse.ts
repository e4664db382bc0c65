import type { Located } from '../../model/analysis.js';
import { splitFrontmatter } from '../../parse/frontmatter.js';
import { readFrontmatterDoc } from '../../parse/frontmatter-doc.js';
import type { FrontmatterParse, SchemaCheck } from '../../parse/frontmatter-doc.js';
import { FILE_START, LineIndex } from '../../model/position.js';
import type { Pos } from '../../model/position.js';
import type { FileText, KindData } from '../../engine/kind.js';
import { stem } from '../../model/paths.js';

export interface ProcessParse {
  frontmatter: FrontmatterParse;
  schema: SchemaCheck | null;
  slug: string;
  /** The frontmatter name, or the one derived from the slug when there is none; null when unreadable. */
  name: Located<string> | null;
  /** Where an empty body is reported; null when the body has content. */
  emptyBodyAt: Pos | null;
}

export interface ProcessFacts {
  kind: 'process';
  name: Located<string> | null;
}

/** What MCP clients get of a process that parses. */
export interface ProcessDoc {
  kind: 'process';
  name: string;
  slug: string;
  description: string;
  /** The body without frontmatter (and without the blank lines after it). */
  content: string;
}

/** `code-review` → `Code Review` (the name of a process without one in its frontmatter: docs/formats.md, "The name"). */
export function nameFromSlug(slug: string): string {
  return slug
    .split(/[-_\s]+/)
    .filter((w) => w !== '')
    .map((w) => w[0]!.toUpperCase() + w.slice(1))
    .join(' ');
}

export function parseProcess(file: FileText, data: KindData): ProcessParse {
  const slug = stem(file.path);
  const { frontmatter: fm, schema } = readFrontmatterDoc(file.text, data.schema!);
  let name: Located<string> | null = null;
  if (fm.data) {
    const written = fm.written?.name;
    if (typeof written === 'string' && written.trim() !== '') name = { value: written, ...fm.locator.value(['name']) };
    else if (written === undefined) name = { value: nameFromSlug(slug), ...FILE_START };
  }
  let emptyBodyAt: Pos | null = null;
  if (!fm.split.unterminated && fm.split.body.trim() === '') {
    const lines = new LineIndex(file.text).lineCount;
    emptyBodyAt = { line: Math.min(fm.split.bodyLineOffset + 1, lines), column: 1 };
  }
  return { frontmatter: fm, schema, slug, name, emptyBodyAt };
}

export function processDoc(p: ProcessParse): ProcessDoc | null {
  if (!p.name || !p.frontmatter.data) return null;
  const description = p.frontmatter.data.description;
  return {
    kind: 'process',
    name: p.name.value,
    slug: p.slug,
    description: typeof description === 'string' ? description : '',
    content: contentOf(p.frontmatter.split.body),
  };
}

/** A process's `content`: its body without frontmatter and without the blank lines after it. */
export function contentOf(body: string): string {
  return body.replace(/^(?:[ \t]*\r?\n)+/, '');
}

/**
 * The `content` of a process that parses, from its text alone (search_processes: the server keeps rows,
 * not documents, and a search reads each process again without parsing its frontmatter).
 */
export function processContent(text: string): string {
  return contentOf(splitFrontmatter(text).body);
}
