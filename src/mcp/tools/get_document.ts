import { checkDocumentId, checkKind } from '../document-args.js';
import { failureAnswer, outcome, withWarnings } from '../entries.js';
import { closedObject, failureAnswerSchema } from '../schemas.js';
import { ToolError, defineTool, resultOutput } from '../tool.js';

export const getDocument = defineTool<{ kind: string; id: string }>({
  name: 'get_document',
  title: 'Get a document of a kind',
  description:
    "Read one document of a kind by its id (as list_documents shows it): the parsed document (its frontmatter with defaults applied, its body as markdown in `content`, and for a kind with an outline its `title` and parsed `body`, keyed by the outline's sections), or, for a document that fails to parse, its ParseFailureResult with `content` (the file's text, to repair it; check the repair with check_content), whose error is byte-identical to the list_documents row and to docgate lint. The kind and the id are checked before any file is read. structuredContent is {result: document | ParseFailureResult}.",
  inputSchema: {
    type: 'object',
    properties: {
      kind: { type: 'string', minLength: 1, description: 'The kind of document, e.g. adr.' },
      id: { type: 'string', minLength: 1, description: 'The document id, as list_documents shows it.' },
    },
    required: ['kind', 'id'],
    additionalProperties: false,
  },
  outputSchema: (kinds) => closedObject({ result: { anyOf: [{ type: 'object' }, failureAnswerSchema(kinds)] } }),
  async handler(args, ctx) {
    const id = checkDocumentId(args.id);
    const kind = checkKind(args.kind, ctx);
    const entry = (await ctx.repo.load(kind.name)).find((e) => e.analysis.id === id);
    if (!entry) throw new ToolError(`no ${kind.name} document found with id '${id}'`);
    const { doc, failure } = outcome(entry, ctx);
    if (failure) return resultOutput(failureAnswer(failure, entry, ctx, id));
    return resultOutput(withWarnings(doc as object, entry));
  },
});
