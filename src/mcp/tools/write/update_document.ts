import { changeDocument } from './commit.js';
import { expectedInput, writeAnswerSchema, writeInputSchema } from './schemas.js';
import { existingDocument } from './target.js';
import { spliceBody, textOf } from './text-change.js';
import { ToolError, defineTool } from '../../tool.js';

interface Args {
  kind: string;
  id?: string;
  path?: string;
  content: string;
  offset?: number;
  limit?: number;
  expected_sha256?: string;
}

export const updateDocumentTool = defineTool<Args>({
  name: 'update_document',
  title: 'Replace a document or some of its body lines',
  description: [
    "Replace an existing document's whole text, or a run of its body lines, written only if the new text has no error (or, for a document that already fails, no error it did not have).",
    'Use edit_document instead to replace a unique snippet; check_content to try a text without writing.',
    'With `offset`, body lines count as get_sysrs numbered shows them (line 1: the first line after the frontmatter and the blank lines after it).',
    '`limit` lines from `offset` are replaced by `content`; limit 0 inserts before offset, and offset one past the last line appends.',
    'Out-of-range lines, an expected_sha256 that differs, a file changed since it was read, and a link on the way are errors naming what to do; a text with new errors is answered with its ParseFailureResult (`written: false`, `new_errors`, `fixed_content`) and nothing is written.',
  ].join('\n'),
  inputSchema: writeInputSchema(
    {
      content: { type: 'string', description: 'The whole new text; with `offset`, the lines put in place of the lines replaced.' },
      offset: { type: 'integer', description: 'First body line replaced, 1-based, as get_sysrs numbered shows it.' },
      limit: { type: 'integer', minimum: 0, description: 'How many body lines are replaced (default: through the last); 0 inserts. Only with `offset`.' },
      expected_sha256: expectedInput,
    },
    ['content'],
  ),
  outputSchema: writeAnswerSchema,
  annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: false },
  async handler(args, ctx) {
    if (args.limit !== undefined && args.offset === undefined)
      throw new ToolError('limit needs offset (the first body line replaced); drop limit to replace the whole text.');
    const entry = await existingDocument('update_document', args, ctx);
    const { offset, limit, content } = args;
    return changeDocument('update_document', ctx, entry.ref, args.expected_sha256, (current) =>
      Buffer.from(offset === undefined ? content : spliceBody(textOf(current), offset, limit, content), 'utf8'),
    );
  },
});
