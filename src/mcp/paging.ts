/** Paging of the MCP list tools (SPEC §4.4: list_sysrs; list_documents pages the same way). */
import { compileGlob } from './text.js';
import { ToolError } from './tool.js';
export const DEFAULT_PAGE = 25;
export const MAX_PAGE = 100;
/** Title (and status) of a row whose document fails to parse. */
export const FAILED = '<failed to parse>';

/** A list call's page and id filter, from its `max_results`, `offset` and `glob` (clamped, as SPEC §4.4 says). */
export interface PageRequest {
  pageSize: number;
  offset: number;
  /** The id filter, null without a glob (failed rows never match one). */
  pattern: ((id: string) => boolean) | null;
}

export function pageRequest(args: { max_results?: number; offset?: number; glob?: string }): PageRequest {
  const pageSize = Math.min(MAX_PAGE, Math.max(1, args.max_results ?? DEFAULT_PAGE));
  const offset = Math.max(0, args.offset ?? 0);
  if (args.glob === undefined) return { pageSize, offset, pattern: null };
  try {
    return { pageSize, offset, pattern: compileGlob(args.glob) };
  } catch {
    throw new ToolError(`Invalid glob '${args.glob}': use * for any run of characters, ? for one, [abc] or [a-f] for a class.`);
  }
}

/** One page of the rows, with the counts every list answer carries. */
export function page<R extends { error: string | null }>(rows: readonly R[], req: PageRequest): { results: R[]; total: number; offset: number; max_results: number; truncated: boolean; error_count: number } {
  return {
    results: rows.slice(req.offset, req.offset + req.pageSize),
    total: rows.length,
    offset: req.offset,
    max_results: req.pageSize,
    truncated: req.offset + req.pageSize < rows.length,
    error_count: rows.filter((r) => r.error !== null).length,
  };
}

/** The output-schema properties of a page (after `results`), as `page` fills them. */
export const PAGE_PROPERTIES = {
  total: { type: 'integer', minimum: 0 },
  offset: { type: 'integer', minimum: 0 },
  max_results: { type: 'integer', minimum: 1, maximum: MAX_PAGE },
  truncated: { type: 'boolean' },
  error_count: { type: 'integer', minimum: 0 },
} as const;
