import { entryAt, entryOf } from '../document-args.js';
import { failureAnswer, outcome, withWarnings } from '../entries.js';
import { closedObject, documentSchemas, parseFailureAnswerSchema } from '../schemas.js';
import { ToolError, defineTool, resultOutput } from '../tool.js';

interface Args {
  kind?: string;
  id?: string;
  path?: string;
}

const FORMS = 'get_document takes either {kind, id} or {path}';

/**
 * Which of the two forms the arguments are. The choice is checked here, not by a top-level `anyOf` of
 * the input schema: several clients refuse a tool whose input schema has one (docs/mcp-tools.md).
 */
function formOf(args: Args): { kind: string; id: string } | { path: string } {
  const { kind, id, path } = args;
  if (path !== undefined) {
    if (kind !== undefined || id !== undefined)
      throw new ToolError(
        `${FORMS}, not both: drop ${kind !== undefined && id !== undefined ? "'kind' and 'id'" : kind !== undefined ? "'kind'" : "'id'"} or 'path'.`,
      );
    return { path };
  }
  if (kind !== undefined && id !== undefined) return { kind, id };
  if (kind !== undefined) throw new ToolError(`${FORMS}: 'kind' was given without 'id'.`);
  if (id !== undefined) throw new ToolError(`${FORMS}: 'id' was given without 'kind'.`);
  throw new ToolError(`${FORMS}: neither was given.`);
}

export const getDocument = defineTool<Args>({
  name: 'get_document',
  title: 'Get a document of a kind',
  description: [
    'Read one document of any kind, by {kind, id} or by {path}: its frontmatter with defaults applied, its markdown body, and for a kind with an outline its sections parsed.',
    "Use get_template, get_framework, get_process or get_sysrs instead for a built-in kind when you want that tool's own answer (a template's heading, raw SysRS line windows); pass {path} for a row listed with a null id.",
    "A document that fails to parse answers its ParseFailureResult with the file's text in content: repair that text and check it with check_content. Its error is the list row's and lint's.",
    "The arguments are checked before any file is read; a path that is no document is an error saying why (outside the root, through '..', ignored, of no kind, missing).",
  ].join('\n'),
  inputSchema: {
    type: 'object',
    description: 'Either {kind, id} or {path}, not both.',
    properties: {
      kind: { type: 'string', minLength: 1, description: 'With `id`: the kind of document, e.g. adr or skill. Not with `path`.' },
      id: { type: 'string', minLength: 1, description: 'With `kind`: the document id, as list_documents shows it. Not with `path`.' },
      path: {
        type: 'string',
        minLength: 1,
        description: 'Instead of `kind` and `id`: the root-relative path of the document, as list_documents shows it, e.g. skills/pdf/SKILL.md.',
      },
    },
    additionalProperties: false,
  },
  outputSchema: closedObject({ result: { anyOf: [...documentSchemas, parseFailureAnswerSchema] } }),
  async handler(args, ctx) {
    const form = formOf(args);
    const entry = 'path' in form ? await entryAt(form.path, ctx) : await entryOf(form.kind, form.id, ctx);
    const { doc, failure } = outcome(entry, ctx);
    if (failure) return resultOutput('id' in form ? failureAnswer(failure, entry, ctx, form.id) : failureAnswer(failure, entry, ctx));
    return resultOutput(withWarnings(doc as object, entry));
  },
});
