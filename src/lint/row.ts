/**
 * The MCP server keeps, per document, its row (what the list tools show) instead of its parsed document
 * (memory flat in the number of documents: docs/performance.md, "Scale (issue 17)"); a get tool parses its one file again
 * (`documentOf`). Rows are made where the document was parsed, on the worker thread that analyzed it,
 * so no parsed document crosses threads.
 */
import type { Analysis, DocRow } from '../model/analysis.js';
import { detached } from '../model/detach.js';
import { stem } from '../model/paths.js';
import type { Project } from '../project/project.js';

/**
 * A document's title: its H1 (a kind with an outline), its frontmatter `title`, else its frontmatter
 * `name` (a skill's, an agent's), else its id.
 */
export function titleOf(doc: Record<string, unknown>, id: string): string {
  if (typeof doc.title === 'string') return doc.title;
  const fm = doc.frontmatter as Record<string, unknown> | undefined;
  if (typeof fm?.title === 'string') return fm.title;
  return typeof fm?.name === 'string' ? fm.name : id;
}

/**
 * A document's description: its frontmatter `description` when that is a string (the field an agent
 * picks a skill by), else none. A kind whose row names one (a process's) keeps its own.
 */
function descriptionOf(doc: Record<string, unknown>): { description?: string } {
  const fm = doc.frontmatter as Record<string, unknown> | undefined;
  return typeof fm?.description === 'string' ? { description: fm.description } : {};
}

/** Replaces an analysis's parsed document by its row (in place); an analysis without one is left as it is. */
export function rowInsteadOfDoc(a: Analysis, project: Project): void {
  if (a.doc === null) return;
  const kind = project.kind(a.kind);
  const doc = a.doc as unknown as Record<string, unknown>;
  // Detached: a row lives as long as the server, its strings must not keep the file's text (detach.ts).
  a.row = detached({ ...descriptionOf(doc), ...kind?.row?.(a.doc), title: titleOf(doc, a.id || stem(a.path)) }) as DocRow;
  a.doc = null;
}

/** The analysis holds a document to serve: parsed, or kept as its row. */
export function served(a: Analysis): boolean {
  return a.doc !== null || a.row !== undefined;
}
