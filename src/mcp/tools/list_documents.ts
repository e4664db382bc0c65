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
  description: [
    'List the documents of one kind of the repository, in path order: a built-in kind, or one its configuration or presets declare (adr, skill, …).',
    "Use list_templates, list_frameworks, list_processes or list_sysrs instead for a built-in kind when you want that kind's own rows (sizes, slugs, status), and get_document to read one document.",
    "A document without an id, or one that fails to parse, is a row with a null id (a failing one keeps an id that is a valid UUID): open it with get_document by its path. A failed row's error is lint's text for it.",
    'One page per answer, of at most 100 rows; while truncated is true, call again with offset raised by max_results. glob keeps the ids it matches (rows with a null id never match). An unknown kind is an invalid argument that names the kinds there are.',
  ].join('\n'),
  inputSchema: {
    type: 'object',
    properties: {
      kind: {
        type: 'string',
        minLength: 1,
        description: 'The kind, e.g. process, sysrs, adr or skill: a built-in kind or one the configuration or its presets declare.',
      },
      ...pageInput(ID_PAGE),
      glob: { type: 'string', description: 'Keep the rows whose id matches, ignoring case: * any run of characters, ? one, [..] a class.' },
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
