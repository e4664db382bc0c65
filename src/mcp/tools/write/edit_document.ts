import { changeDocument } from './commit.js';
import { expectedInput, writeAnswerSchema, writeInputSchema } from './schemas.js';
import { existingDocument } from './target.js';
import { replaceText, textOf } from './text-change.js';
import { defineTool } from '../../tool.js';

interface Args {
  kind: string;
  id?: string;
  path?: string;
  old_str: string;
  new_str: string;
  replace_all?: boolean;
  expected_sha256?: string;
}

export const editDocumentTool = defineTool<Args>({
  name: 'edit_document',
  title: 'Replace a snippet of a document',
  description: [
    'Replace an exact snippet of an existing document, written only if the new text has no error (or, for a document that already fails, no error it did not have).',
    'Use update_document instead to replace the whole text or numbered body lines; check_content to try a text without writing.',
    'old_str matches byte for byte; not found is an error, and so is more than one match without replace_all (the error gives the count).',
    'An expected_sha256 that differs, a file changed since it was read, and a link on the way are errors; a text with new errors is answered with its ParseFailureResult (`written: false`, `new_errors`, `fixed_content`) and nothing is written.',
  ].join('\n'),
  inputSchema: writeInputSchema(
    {
      old_str: { type: 'string', minLength: 1, description: 'The exact text to replace (never a `<n>: ` prefixed line of numbered output).' },
      new_str: { type: 'string', description: 'The text put in its place.' },
      replace_all: { type: 'boolean', description: 'Replace every occurrence of old_str, not just a unique one.' },
      expected_sha256: expectedInput,
    },
    ['old_str', 'new_str'],
  ),
  outputSchema: writeAnswerSchema,
  annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: false },
  async handler(args, ctx) {
    const entry = await existingDocument('edit_document', args, ctx);
    return changeDocument('edit_document', ctx, entry.ref, args.expected_sha256, (current) =>
      Buffer.from(replaceText(textOf(current), args.old_str, args.new_str, args.replace_all === true), 'utf8'),
    );
  },
});
