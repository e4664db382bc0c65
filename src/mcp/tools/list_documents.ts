import { checkKind } from '../document-args.js';
import { listedId, uuidOf } from '../entries.js';
import { closedObject } from '../schemas.js';
import { defineTool, jsonOutput } from '../tool.js';
import { FAILED, ID_PAGE, PAGE_PROPERTIES, page, pageInput, pageRequest } from '../paging.js';

/** One row of the listing. */
export interface DocumentRow {
  /** Null for a document that fails, or that has no id (its id field missing): its path names it. */
  id: string | null;
  title: string;
  path: string;
  /** The frontmatter `description` when it is a string that is not empty. */
  description?: string;
  error: string | null;
}

export const listDocuments = defineTool<{ kind: string; max_results?: number; offset?: number; glob?: string }>({
  name: 'list_documents',
  title: 'List documents of a kind',
  description:
    'List the documents of one kind (any kind of the repository: template, framework, process, sysrs, or a kind its docgate.config.yaml or its presets declare, such as adr or skill), ordered by path: rows {id, title, path, description?, error}; description is the frontmatter description (what an agent picks a skill by), when there is one. A document without an id (its id field missing) is a row with id null: get it by its path. A document that fails to parse is a row with id null (or its frontmatter id when that is a valid lowercase UUID), title "<failed to parse>" and error = its ParseFailureResult error (read the full result with get_document, by id or path, or validate). Paging as list_sysrs: max_results (default 25, clamped to 1..100), offset (default 0, negative → 0); truncated = offset + max_results < total. glob filters ids ignoring case (* ? [..]); failed rows never match.',
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
      items: closedObject(
        {
          id: { type: ['string', 'null'], description: 'The document id; null for a document that fails or has no id (get_document takes its path).' },
          title: { type: 'string' },
          path: { type: 'string' },
          description: { type: 'string', description: "The document's frontmatter `description`, when it is a string that is not empty." },
          error: { type: ['string', 'null'] },
        },
        ['id', 'title', 'path', 'error'],
      ),
    },
    ...PAGE_PROPERTIES,
  }),
  async handler(args, ctx) {
    const kind = checkKind(args.kind, ctx);
    const req = pageRequest(args);
    const { pattern } = req;
    const rows: DocumentRow[] = [];
    for (const e of await ctx.repo.load(kind.name)) {
      if (e.failure) {
        if (!pattern) rows.push({ id: uuidOf(e), title: FAILED, path: e.ref.path, error: e.failure.error });
        continue;
      }
      const id = listedId(e, kind);
      // A document without an id never matches a glob on ids, as a failed row does not.
      if (pattern && (id === null || !pattern(id))) continue;
      // A passing document always has a row (src/lint/row.ts); should a kind make no document of one, it is listed all the same.
      const row = e.analysis.row;
      const description = row?.description;
      rows.push({
        id,
        title: row?.title ?? e.analysis.id,
        path: e.ref.path,
        ...(typeof description === 'string' && description !== '' ? { description } : {}),
        error: null,
      });
    }
    return jsonOutput({ kind: kind.name, ...page(rows, req) });
  },
});
