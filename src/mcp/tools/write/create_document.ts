import { createDocument } from './commit.js';
import { idInput, pathInput, writeAnswerSchema, writeInputSchema } from './schemas.js';
import { newDocument } from './target.js';
import { defineTool } from '../../tool.js';

interface Args {
  kind: string;
  id?: string;
  path?: string;
  content: string;
}

export const createDocumentTool = defineTool<Args>({
  name: 'create_document',
  title: 'Create a document',
  description: [
    'Create a new document of a kind, written only if docgate finds no error in it (every rule, cross-file rules against the repository).',
    'Use check_content instead to try a text without writing; update_document or edit_document to change an existing document.',
    'Give `id` for a kind whose paths follow from ids (template, framework, process, a stem- or folder-id kind), else `path`.',
    'An existing file, a path outside the kind, and a link on the way are errors; a text that fails is answered with its ParseFailureResult (`written: false`, plus `fixed_content` when fixes apply) and nothing is written.',
  ].join('\n'),
  inputSchema: writeInputSchema(
    {
      content: { type: 'string', description: 'The whole text of the new file.' },
    },
    ['content'],
    {
      id: { ...idInput, description: 'The new document id; its path is where the kind keeps that id. Not with `path`.' },
      path: { ...pathInput, description: 'Root-relative path of the new file; it must lie where the kind keeps its documents. Not with `id`.' },
    },
  ),
  outputSchema: writeAnswerSchema,
  annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false },
  handler(args, ctx) {
    const ref = newDocument(args, ctx);
    return createDocument(ctx, ref, Buffer.from(args.content, 'utf8'));
  },
});
