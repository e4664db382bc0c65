import { BUILTIN_KINDS } from '../kinds/index.js';

/**
 * Output schema pieces shared by several tools. They use only keywords that draft-07 and draft 2020-12
 * read alike and carry no `$schema`, so any client validator (the SDK's client uses draft-07 ajv) accepts them.
 */

/**
 * An object of exactly these properties, as every tool output is: `required` names all of them unless
 * given (in their order), and no other property is allowed.
 */
export function closedObject<P extends Record<string, object>>(
  properties: P,
  required: readonly (keyof P & string)[] = Object.keys(properties),
  description?: string,
) {
  return { type: 'object', ...(description === undefined ? {} : { description }), properties, required, additionalProperties: false } as const;
}

const diagnostic = closedObject(
  {
    line: { type: 'integer', minimum: 1 },
    column: { type: 'integer', minimum: 1 },
    rule: { type: 'string' },
    message: { type: 'string' },
    endLine: { type: 'integer', minimum: 1 },
    endColumn: { type: 'integer', minimum: 1 },
    severity: { type: 'string', const: 'warning' },
    fix: closedObject(
      {
        line: { type: 'integer', minimum: 1 },
        column: { type: 'integer', minimum: 1 },
        endLine: { type: 'integer', minimum: 1 },
        endColumn: { type: 'integer', minimum: 1 },
        text: { type: 'string' },
      },
      undefined,
      'A repair that keeps the meaning: replace [line:column, endLine:endColumn) of the file with text.',
    ),
  },
  ['line', 'column', 'rule', 'message'],
);

const failureProperties = (kinds: readonly string[]) => ({
  id: { type: 'string' },
  path: { type: 'string' },
  kind: { type: 'string', enum: [...kinds] },
  error: { type: 'string' },
  diagnostics: { type: 'array', items: diagnostic },
});

/** The `ParseFailureResult` (docs/formats.md) of a document of one of `kinds` (the registry's, and a root's own). */
export function failureSchema(kinds: readonly string[]) {
  return closedObject(failureProperties(kinds), undefined, 'A document that fails to parse: where, and every diagnostic (`error` is their canonical text).');
}

/** The ParseFailureResult a get tool answers (docs/mcp-tools.md): with `content`, the file's text, to repair it. */
export function failureAnswerSchema(kinds: readonly string[]) {
  return closedObject(
    {
      ...failureProperties(kinds),
      content: {
        type: 'string',
        description: "The file's text as it is on disk, hidden characters written as visible escapes such as \\u{202E} (absent when it is not UTF-8 text).",
      },
    },
    ['id', 'path', 'kind', 'error', 'diagnostics'],
    'A document that fails to parse: where, every diagnostic (`error` is their canonical text), and the text to repair.',
  );
}

/** The ParseFailureResult of a document of docgate's own kinds (what their own tools answer). */
export const parseFailureSchema = failureSchema(BUILTIN_KINDS.map((k) => k.name));

/** The failing answer of the get tools of docgate's own kinds. */
export const parseFailureAnswerSchema = failureAnswerSchema(BUILTIN_KINDS.map((k) => k.name));

/** `{ error: "<KIND>_NOT_FOUND", message, available }`: a name that matches no document (a normal result). */
export function notFoundSchema(code: string) {
  return closedObject({
    error: { type: 'string', const: code },
    message: { type: 'string' },
    available: { type: 'array', items: { type: 'string' } },
  });
}

export const languageInput = {
  type: 'string',
  default: 'en',
  description:
    'Two-letter lowercase language code (ISO 639-1 shaped). `en` (default) = the English documents in docs/sysrs/; another code = the variants in docs/sysrs/<language>/, which needs a heading table schemas/sysrs-headings.<language>.json.',
} as const;

/** The `warnings` of a document that passes with warnings only (docs/formats.md, "Severities and warnings"): their `error` text. */
export const warningsProperty = { type: 'string', description: 'The document passes with warnings: their lines, as `error` has them.' } as const;

/** The parsed SysRS document of get_sysrs / parse_sysrs (docs/mcp-tools.md; the body model in docs/sysrs-outline.md). */
export const sysrsDocumentSchema = closedObject(
  { frontmatter: { type: 'object' }, body: { type: 'object' }, warnings: warningsProperty },
  ['frontmatter', 'body'],
  'A parsed System Requirements Specification: frontmatter (defaults applied) and body by canonical snake_case section keys.',
);

/** `{ result: <one of variants> }`: the output of the get tools, like the seed's get_sysrs output schema. */
export function resultSchema(...variants: object[]) {
  return closedObject({ result: { anyOf: variants } });
}

/** `{ result: document | raw string | ParseFailureResult }`. */
export const sysrsResultSchema = resultSchema(sysrsDocumentSchema, { type: 'string' }, parseFailureAnswerSchema);
