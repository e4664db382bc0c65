import { closedObject, parseFailureSchema, warningsProperty } from '../schemas.js';
import { defineTool, jsonOutput } from '../tool.js';
import { documentAt } from '../document-args.js';
import { verdictOf } from '../proposal.js';

export const fixedContent = { type: 'string', description: 'The content after every fix that applies: check it again, then write it.' } as const;

export const checkContent = defineTool<{ path: string; content: string }>({
  name: 'check_content',
  title: 'Check proposed content',
  description: [
    'Check a proposed text for the document at a root-relative path before it is written, exactly as docgate lint would if the file held it; nothing is written.',
    'Use validate instead for files already on disk, and parse_sysrs only to see how a SysRS text parses.',
    'The path picks the kind, your own kinds included. Rules across files run against the live repository, so a name or id another document has is found.',
    'A failing text answers its ParseFailureResult; when mechanical fixes apply, fixed_content holds the fixed text (check it again before writing it). A path that is no document of any kind is an error.',
  ].join('\n'),
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
      closedObject(
        { valid: { type: 'boolean', const: true }, warnings: warningsProperty, fixed_content: fixedContent },
        ['valid'],
        'The text passes (with warnings, if any).',
      ),
      closedObject(
        { ...parseFailureSchema.properties, fixed_content: fixedContent },
        [...parseFailureSchema.required],
        'The text fails: its ParseFailureResult, and the fixed text when fixes apply.',
      ),
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
