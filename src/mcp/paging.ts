/**
 * Paging of the MCP list tools (docs/mcp-tools.md): list_sysrs and list_documents 25 rows by default;
 * list_processes, list_templates and list_frameworks answer at most 1,000 rows without arguments.
 */
import { formatBytes } from '../model/text.js';
import type { ParseFailureResult } from '../model/types.js';
import { failuresText } from './entries.js';
import { byCodePoint, compileGlob } from './text.js';
import { ToolError } from './tool.js';
import type { ToolOutput } from './tool.js';
export const DEFAULT_PAGE = 25;
export const MAX_PAGE = 100;

/** Page sizes of a list tool: the default and the largest a caller may ask for. */
export interface PageSizes {
  default: number;
  max: number;
}

/** list_sysrs and list_documents: 25 rows by default, at most 100. */
export const ID_PAGE: PageSizes = { default: DEFAULT_PAGE, max: MAX_PAGE };

/**
 * The list tools that answered every document before they paged (list_processes, list_templates,
 * list_frameworks): up to 1,000 rows, so that a repository of up to 1,000 documents of a kind sees the
 * answer it always saw, and no larger one floods an agent's context.
 */
export const FULL_PAGE: PageSizes = { default: 1000, max: 1000 };

/**
 * Characters of row JSON one window of a full listing holds at most (see `windowOf`): the answer carries
 * them twice (the text and structuredContent; pretty-printed JSON adds indentation), well under 1 MB.
 */
export const ROWS_BUDGET = 300_000;
/** Title (and status) of a row whose document fails to parse. */
export const FAILED = '<failed to parse>';

/** A list call's page and id filter, from its `max_results`, `offset` and `glob` (clamped, as docs/mcp-tools.md says). */
export interface PageRequest {
  pageSize: number;
  offset: number;
  /** The id filter, null without a glob (failed rows never match one). */
  pattern: ((id: string) => boolean) | null;
}

export function pageRequest(args: { max_results?: number; offset?: number; glob?: string }, sizes: PageSizes = ID_PAGE): PageRequest {
  const pageSize = Math.min(sizes.max, Math.max(1, args.max_results ?? sizes.default));
  const offset = Math.max(0, args.offset ?? 0);
  if (args.glob === undefined) return { pageSize, offset, pattern: null };
  try {
    return { pageSize, offset, pattern: compileGlob(args.glob) };
  } catch {
    throw new ToolError(`Invalid glob '${args.glob}': use * for any run of characters, ? for one, [abc] or [a-f] for a class.`);
  }
}

/** One page of the rows, with the counts every list answer carries. */
export function page<R extends { error: string | null }>(
  rows: readonly R[],
  req: PageRequest,
): { results: R[]; total: number; offset: number; max_results: number; truncated: boolean; error_count: number } {
  return {
    results: rows.slice(req.offset, req.offset + req.pageSize),
    total: rows.length,
    offset: req.offset,
    max_results: req.pageSize,
    truncated: req.offset + req.pageSize < rows.length,
    error_count: rows.filter((r) => r.error !== null).length,
  };
}

/** The input-schema properties `max_results` and `offset` of a list tool with these page sizes. */
export function pageInput(sizes: PageSizes) {
  return {
    max_results: { type: 'integer', default: sizes.default, description: `Rows per answer; a value outside 1..${sizes.max} is clamped to it.` },
    offset: { type: 'integer', default: 0, description: 'Rows to skip before the first one shown; a negative offset counts as 0.' },
  } as const;
}

/** The output-schema properties of a `Window`. */
export function windowProperties(sizes: PageSizes) {
  return {
    total: { type: 'integer', minimum: 0, description: 'Rows of the whole listing (with a glob: the rows it keeps).' },
    offset: { type: 'integer', minimum: 0, description: 'Rows skipped before this page.' },
    max_results: { type: 'integer', minimum: 1, maximum: sizes.max, description: 'The page size used.' },
    truncated: { type: 'boolean', description: 'More rows follow this page: ask again with an offset past its last row.' },
  } as const;
}

/** The output-schema properties of a page (after its rows), as `page` fills them: a window and the failures counted. */
export function pageProperties(sizes: PageSizes) {
  return { ...windowProperties(sizes), error_count: { type: 'integer', minimum: 0, description: 'Rows of the whole listing that fail to parse.' } } as const;
}

export const PAGE_PROPERTIES = pageProperties(ID_PAGE);

/** Where a window of a full listing lies: shown in an answer only when paging applies (see `windowOf`). */
export interface Window {
  total: number;
  offset: number;
  max_results: number;
  truncated: boolean;
}

/**
 * A window over a listing of a list tool that answered every document before paging (list_processes,
 * list_templates, list_frameworks): its rows are the documents that parse, in the order the tool lists
 * them, then the failures (in path order), and the window is cut from that one sequence. `window` is
 * null when the caller gave no `max_results` or `offset` and nothing was cut: the answer then is the one
 * the tool always gave (up to 1,000 documents of a kind see exactly the old answer).
 *
 * A window also ends before its rows' JSON passes ROWS_BUDGET (one row at least): a failure carries its
 * diagnostics (up to 100), so 1,000 of them could make an answer of megabytes, and no answer may flood an
 * agent's context. `truncated` then says that rows remain after the window (`offset` + rows shown < total).
 */
export function windowOf<V, F>(
  valid: readonly V[],
  failures: readonly F[],
  args: { max_results?: number; offset?: number },
): { valid: V[]; failures: F[]; window: Window | null } {
  const req = pageRequest(args, FULL_PAGE);
  const total = valid.length + failures.length;
  let end = req.offset;
  for (let used = 0; end < Math.min(total, req.offset + req.pageSize); end++) {
    used += JSON.stringify(end < valid.length ? valid[end] : failures[end - valid.length]).length;
    if (used > ROWS_BUDGET && end > req.offset) break;
  }
  const window: Window = { total, offset: req.offset, max_results: req.pageSize, truncated: end < total };
  const shown = args.max_results !== undefined || args.offset !== undefined || window.truncated;
  return {
    valid: valid.slice(req.offset, end),
    failures: failures.slice(Math.max(0, req.offset - valid.length), Math.max(0, end - valid.length)),
    window: shown ? window : null,
  };
}

/**
 * The line a paged text answer ends with (list_templates, list_frameworks): which rows it shows, and how
 * to see the next ones. `what` names the rows, e.g. `templates`.
 */
export function windowText(w: Window, shown: number, what: string): string {
  if (shown === 0) return `\n\nShowing none of ${formatBytes(w.total)} rows (${what}, then failures): offset ${formatBytes(w.offset)} is past the end.`;
  const range = `Showing rows ${formatBytes(w.offset + 1)}–${formatBytes(w.offset + shown)} of ${formatBytes(w.total)} (${what}, then failures)`;
  return w.truncated ? `\n\n${range}; pass offset ${w.offset + shown} for the next rows.` : `\n\n${range}.`;
}

/** How a numbered listing reads: when empty, its heading, one row's text, and what its rows are called. */
export interface ListingView<V> {
  empty: string;
  heading: string;
  line: (row: V) => string;
  what: string;
}

/**
 * The answer of a list tool that numbers its rows in the text (list_templates, list_frameworks): the
 * rows sorted by name and windowed (`windowOf`), the failures after them, and the window when it applies;
 * structured, the rows under `key`, the failures, and the window with `error_count`.
 */
export function numberedListing<V extends { name: string }>(
  every: V[],
  all: readonly ParseFailureResult[],
  args: { max_results?: number; offset?: number },
  key: string,
  view: ListingView<V>,
): ToolOutput {
  every.sort((a, b) => byCodePoint(a.name, b.name));
  const { valid, failures, window } = windowOf(every, all, args);
  const first = window?.offset ?? 0;
  const text =
    (every.length === 0
      ? view.empty
      : `${view.heading}:\n\n${valid.map((v, i) => `${first + i + 1}. ${view.line(v)}\n`).join('')}\nTotal: ${every.length} ${view.what}`) +
    failuresText(failures, all.length) +
    (window ? windowText(window, valid.length + failures.length, view.what) : '');
  return { text, structured: { [key]: valid, failures, ...(window ? { ...window, error_count: all.length } : {}) } };
}
