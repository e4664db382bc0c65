import { closedObject, parseFailureSchema, warningsProperty } from '../schemas.js';
import { defineTool, jsonOutput } from '../tool.js';
import { documentAt } from '../document-args.js';
import { verdictOf } from '../proposal.js';

export const fixedContent = { type: 'string', description: 'The content after every fix that applies: check it again, then write it.' } as const;

export const checkContent = defineTool<{ path: string; content: string }>({
  name: 'check_content',
  title: 'Check proposed content',
  description:
    "Validate text for the document at `path` before writing it, as docgate lint would if the file held that text: any kind (the path decides it, a kind of the repository's own included), cross-file rules against the live repository (a duplicate name or id with another document is found). Answers {valid: true, warnings?} or the ParseFailureResult (its error for the bytes on disk equals lint's), plus fixed_content when mechanical fixes apply. Writes nothing.",
  inputSchema: {
    type: 'object',
    properties: {
      path: {
        type: 'string',
        minLength: 1,
        description: 'Root-relative path of the document, e.g. processes/deploy.md or docs/sysrs/de/order-intake.md (it need not exist yet).',
      },
      content: { type: 'string', description: 'The whole text proposed for the file.' },
    },
    required: ['path', 'content'],
    additionalProperties: false,
  },
  outputSchema: {
    type: 'object',
    anyOf: [
      closedObject({ valid: { type: 'boolean', const: true }, warnings: warningsProperty, fixed_content: fixedContent }, ['valid']),
      closedObject({ ...parseFailureSchema.properties, fixed_content: fixedContent }, [...parseFailureSchema.required]),
    ],
  },
  async handler({ path, content }, ctx) {
    const ref = documentAt(path, ctx.project());
    const { failure, warnings, fixed } = await verdictOf(ctx, ref, Buffer.from(content, 'utf8'), 'check_content');
    const fix = fixed === null ? {} : { fixed_content: fixed };
    if (failure) return jsonOutput({ ...failure, ...fix });
    return jsonOutput({ valid: true, ...(warnings !== null ? { warnings } : {}), ...fix });
  },
});
