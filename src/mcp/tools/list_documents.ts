import { checkKind } from '../document-args.js';
import { rowOutcome, uuidOf } from '../entries.js';
import { closedObject } from '../schemas.js';
import { defineTool, jsonOutput } from '../tool.js';
import { FAILED, ID_PAGE, PAGE_PROPERTIES, page, pageInput, pageRequest } from '../paging.js';

/** One row of the listing. */
export interface DocumentRow {
  id: string | null;
  title: string;
  path: string;
  error: string | null;
}

export const listDocuments = defineTool<{ kind: string; max_results?: number; offset?: number; glob?: string }>({
  name: 'list_documents',
  title: 'List documents of a kind',
  description:
    'List the documents of one kind (any kind of the repository: template, framework, process, sysrs, or a kind its docgate.config.yaml declares, such as adr), ordered by path: rows {id, title, path, error}. A document that fails to parse is a row with id null (or its frontmatter id when that is a valid lowercase UUID), title "<failed to parse>" and error = its ParseFailureResult error (read the full result with get_document or validate). Paging as list_sysrs: max_results (default 25, clamped to 1..100), offset (default 0, negative → 0); truncated = offset + max_results < total. glob filters ids ignoring case (* ? [..]); failed rows never match.',
  inputSchema: {
    type: 'object',
    properties: {
      kind: { type: 'string', minLength: 1, description: 'The kind of document, e.g. adr (list_documents answers an unknown kind with the kinds there are).' },
      ...pageInput(ID_PAGE),
      glob: { type: 'string', description: 'Filter on ids, case-insensitive: * any run, ? one character, [..] a class. Failed rows never match.' },
    },
    required: ['kind'],
    additionalProperties: false,
  },
  outputSchema: closedObject({
    kind: { type: 'string' },
    results: {
      type: 'array',
      items: closedObject({ id: { type: ['string', 'null'] }, title: { type: 'string' }, path: { type: 'string' }, error: { type: ['string', 'null'] } }),
    },
    ...PAGE_PROPERTIES,
  }),
  async handler(args, ctx) {
    const kind = checkKind(args.kind, ctx);
    const req = pageRequest(args);
    const { pattern } = req;
    const rows: DocumentRow[] = [];
    for (const e of await ctx.repo.load(kind.name)) {
      const { row, failure } = rowOutcome(e);
      if (failure) {
        if (!pattern) rows.push({ id: uuidOf(e), title: FAILED, path: e.ref.path, error: failure.error });
        continue;
      }
      const id = e.analysis.id;
      if (pattern && !pattern(id)) continue;
      rows.push({ id, title: row.title, path: e.ref.path, error: null });
    }
    return jsonOutput({ kind: kind.name, ...page(rows, req) });
  },
});
