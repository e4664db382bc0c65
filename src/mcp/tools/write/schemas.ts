/** What the write tools share: their answer's schema, their annotations, the arguments that name a document. */
import { closedObject, parseFailureSchema } from '../../schemas.js';
import { fixedContent } from '../check_content.js';
import type { ObjectSchema } from '../../tool.js';

const errorLines = (what: string) => ({ type: 'string', description: `${what}, as \`error\` lines.` }) as const;

/** `{written: true, …}` or the refused text's ParseFailureResult with `written: false`. */
export const writeAnswerSchema: ObjectSchema = {
  type: 'object',
  anyOf: [
    closedObject(
      {
        written: { type: 'boolean', const: true },
        path: { type: 'string', description: 'Root-relative path of the document written.' },
        sha256: { type: 'string', description: "The file's new SHA-256 (lowercase hex): pass it as expected_sha256 to the next write." },
        warnings: { type: 'string', description: "The new text's warnings, as `error` lines; empty when none." },
        remaining_errors: errorLines('Errors the document had before this write and still has'),
      },
      ['written', 'path', 'sha256', 'warnings'],
      'The document now holds the new text.',
    ),
    closedObject(
      {
        written: { type: 'boolean', const: false },
        ...parseFailureSchema.properties,
        fixed_content: fixedContent,
        new_errors: errorLines('For a document that already failed: the errors the new text adds, which block the write'),
      },
      ['written', ...parseFailureSchema.required],
      'Nothing was written: the ParseFailureResult of the proposed text.',
    ),
  ],
};

export const kindInput = { type: 'string', minLength: 1, description: 'The kind of document, e.g. sysrs, process or a kind of your own such as adr.' } as const;
export const idInput = { type: 'string', minLength: 1, description: 'The document id, as list_documents shows it. Not with `path`.' } as const;
export const pathInput = {
  type: 'string',
  minLength: 1,
  description: 'Root-relative path of the document, e.g. docs/sysrs/order-intake.md. Not with `id`.',
} as const;
export const expectedInput = {
  type: 'string',
  pattern: '^[0-9a-fA-F]{64}$',
  description: 'The SHA-256 (hex) of the file as you read it: a file that differs is not written, and the error names its current hash.',
} as const;

/**
 * A write tool's input schema: `kind`, `id` and `path` (one of the two; checked by the tool, not by a
 * top-level `anyOf`, which several clients refuse), then its own arguments.
 */
export function writeInputSchema(own: Record<string, object>, required: readonly string[], ids: { id?: object; path?: object } = {}): ObjectSchema {
  return {
    type: 'object',
    description: `kind, ${required.join(', ')}, and either id or path.`,
    properties: { kind: kindInput, id: ids.id ?? idInput, path: ids.path ?? pathInput, ...own },
    required: ['kind', ...required],
    additionalProperties: false,
  };
}
