import type { AnyKind } from '../engine/kind.js';
import type { Doc, DocRow } from '../model/analysis.js';
import type { Entry } from '../lint/repository.js';
import type { ParseFailureResult } from '../model/types.js';
import { byCodePoint, firstLine } from './text.js';
import { ToolError, resultOutput } from './tool.js';
import type { ToolContext, ToolOutput } from './tool.js';
import { documentText } from '../lint/document-text.js';
import { escapeHidden } from '../model/hidden-unicode.js';
import { UUID } from '../model/uuid.js';

/** An entry's row (what list tools show), or its ParseFailureResult (the core sets exactly one of them). */
export function rowOutcome<R extends DocRow = DocRow>(e: Entry): { row: R; failure: null } | { row: null; failure: ParseFailureResult } {
  if (e.failure) return { row: null, failure: e.failure };
  if (e.analysis.row) return { row: e.analysis.row as R, failure: null };
  throw new Error(`internal: ${e.ref.path} has neither a row nor a failure`);
}

/**
 * An entry's parsed document, read and parsed again from its file (the server keeps rows, not
 * documents), or its ParseFailureResult.
 */
export function outcome<T extends Doc>(e: Entry, ctx: ToolContext): { doc: T; failure: null } | { doc: null; failure: ParseFailureResult } {
  if (e.failure) return { doc: null, failure: e.failure };
  // A passing document without a row: its kind made no document of it, which breaks the kind contract
  // (src/engine/kind.ts `doc`); nothing changed, and parsing it again would make none either.
  if (e.analysis.row === undefined) throw new Error(`internal: the ${e.ref.kind} kind makes no document of ${e.ref.path}, which passes`);
  const doc = ctx.repo.document(e);
  if (doc === null) throw new ToolError(`${e.ref.path} changed while it was read; call again to read it as it is now`);
  return { doc: doc as T, failure: null };
}

/**
 * The id a document is found by (and a passing one listed with): the one its facts give (KindDef.factsId:
 * a frontmatter field, a folder), else the kind's id of it (a stem, a slug); null for a document without
 * one (its id field missing): it is listed with its path, and found by it.
 */
export function listedId(e: Entry, kind: AnyKind): string | null {
  return kind.factsId === undefined ? e.analysis.id : kind.factsId(e.analysis.facts);
}

/**
 * A get tool's answer for a failing document: its ParseFailureResult with `content`, the file's text as
 * it is on disk, so that an agent can repair it without another tool. Hidden characters in it are
 * written as visible escapes (`\u{202E}`): an agent never receives text its reviewers cannot see.
 */
export function failureAnswer(failure: ParseFailureResult, e: Entry, ctx: ToolContext, id: string = failure.id): ParseFailureResult & { content?: string } {
  const content = documentText(e.ref, ctx.project());
  return { ...failure, id, ...(content === null ? {} : { content: escapeHidden(content) }) };
}

/** The frontmatter `id` of a failing document when it is a valid (lowercase) UUID: the id a list row can still name. */
export function uuidOf(e: Entry): string | null {
  const id = (e.analysis.facts as { id?: unknown }).id;
  const value = typeof id === 'string' ? id : typeof id === 'object' && id !== null ? (id as { value?: unknown }).value : undefined;
  return typeof value === 'string' && UUID.test(value) ? value : null;
}

/**
 * A document's answer, adding `warnings` (the `error` text of its diagnostics) when it passes with
 * warnings only (it is served, and its answer says what to look at: docs/formats.md, "Severities and warnings").
 */
export function withWarnings<T extends object>(answer: T, e: Entry): T & { warnings?: string } {
  return e.warnings ? { ...answer, warnings: e.warnings.error } : answer;
}

/**
 * A name that matches no document (a normal result, seed 000's wording):
 * text `<Label> '<x>' not found. Available: a, b`, structured `{ result: { error: <CODE>, message, available } }`.
 */
export function notFoundOutput(label: string, code: string, name: string, entries: readonly Entry[]): ToolOutput {
  const available = entries.map((e) => e.analysis.id).sort(byCodePoint);
  const message = `${label} '${name}' not found. Available: ${available.join(', ')}`;
  return resultOutput({ error: code, message, available }, message);
}

/** The rows of some entries that parse, and the failures of the others, both in path order. */
export function partition<R extends DocRow>(entries: readonly Entry[]): { rows: R[]; failures: ParseFailureResult[] } {
  const rows: R[] = [];
  const failures: ParseFailureResult[] = [];
  for (const e of entries) {
    const { row, failure } = rowOutcome<R>(e);
    if (failure) failures.push(failure);
    else rows.push(row);
  }
  return { rows, failures };
}

/**
 * What a listing's text adds for documents that fail: `\n\nFailed to parse: K` and `<id>: <first error
 * line>` each. A paged listing counts every failure (`total`) and lists those of its page.
 */
export function failuresText(failures: readonly ParseFailureResult[], total = failures.length): string {
  if (total === 0) return '';
  return `\n\nFailed to parse: ${total}${failures.map((f) => `\n${f.id}: ${firstLine(f.error)}`).join('')}`;
}
