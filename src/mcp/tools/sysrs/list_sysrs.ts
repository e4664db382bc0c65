import type { DocRow } from '../../../model/analysis.js';
import { stem } from '../../../model/analysis.js';
import { rowOutcome, uuidOf } from '../../entries.js';
import { closedObject, languageInput } from '../../schemas.js';
import { checkLanguage } from './args.js';
import { defineTool, jsonOutput } from '../../tool.js';

import { FAILED, ID_PAGE, PAGE_PROPERTIES, page, pageInput, pageRequest } from '../../paging.js';

/** One row of the listing (also what the tests read). */
export interface SysrsRow {
  id: string | null;
  title: string;
  status: string;
  ref: string;
  path: string;
  error: string | null;
}

export const listSysrs = defineTool<{ max_results?: number; offset?: number; glob?: string; language?: string }>({
  name: 'list_sysrs',
  title: 'List System Requirements Specifications',
  description:
    'List System Requirements Specifications, ordered by path: rows {id, title, status, ref, path, error}. A document that fails to parse is a row with id null (or its frontmatter id when that is a valid lowercase UUID), title and status "<failed to parse>" and error = its ParseFailureResult error (read the full result with get_sysrs or validate). Paging: max_results (default 25, clamped to 1..100), offset (default 0, negative → 0); truncated = offset + max_results < total. glob filters ids ignoring case (* ? [..]); failed rows never match. language selects a variant folder (default en).',
  inputSchema: {
    type: 'object',
    properties: {
      ...pageInput(ID_PAGE),
      glob: { type: 'string', description: 'Filter on ids, case-insensitive: * any run, ? one character, [..] a class. Failed rows never match.' },
      language: languageInput,
    },
    additionalProperties: false,
  },
  outputSchema: closedObject({
    results: {
      type: 'array',
      items: closedObject({
        id: { type: ['string', 'null'] },
        title: { type: 'string' },
        status: { type: 'string' },
        ref: { type: 'string' },
        path: { type: 'string' },
        error: { type: ['string', 'null'] },
      }),
    },
    ...PAGE_PROPERTIES,
  }),
  async handler(args, ctx) {
    const req = pageRequest(args);
    const { pattern } = req;
    const lang = checkLanguage(args.language, ctx);

    const rows: SysrsRow[] = [];
    for (const e of await ctx.repo.load('sysrs')) {
      if (e.ref.lang !== lang) continue;
      const { row, failure } = rowOutcome<DocRow & { id: string; status: string; ref: string }>(e);
      if (failure) {
        if (pattern) continue;
        rows.push({ id: uuidOf(e), title: FAILED, status: FAILED, ref: stem(e.ref.path), path: e.ref.path, error: failure.error });
      } else {
        if (pattern && !pattern(row.id)) continue;
        rows.push({ id: row.id, title: row.title, status: row.status, ref: row.ref, path: e.ref.path, error: null });
      }
    }
    return jsonOutput(page(rows, req));
  },
});
