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
  description: [
    'List the System Requirements Specifications (docs/sysrs/) in path order, with the id, title, status and file of each.',
    'Use get_sysrs instead to read one by its id, and list_documents for the documents of any other kind.',
    'A document that fails to parse is a row titled "<failed to parse>" whose error is lint\'s text for it. It has a null id unless its frontmatter id is a valid UUID; open a row with a null id with get_document by its path.',
    'One page per answer, of at most 100 rows; while truncated is true, call again with offset raised by max_results. glob keeps the ids it matches (failed rows never match). language lists a translated variant folder.',
  ].join('\n'),
  inputSchema: {
    type: 'object',
    properties: {
      ...pageInput(ID_PAGE),
      glob: { type: 'string', description: 'Keep the rows whose id matches, ignoring case: * any run of characters, ? one, [..] a class.' },
      language: languageInput,
    },
    additionalProperties: false,
  },
  outputSchema: closedObject({
    results: {
      type: 'array',
      items: closedObject({
        id: { type: ['string', 'null'], description: 'The frontmatter id; null for a failed row without a valid UUID (get_document takes its path).' },
        title: { type: 'string' },
        status: { type: 'string' },
        ref: { type: 'string', description: 'The file name without .md.' },
        path: { type: 'string' },
        error: { type: ['string', 'null'], description: "Lint's text for a document that fails to parse; null for one that parses." },
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
