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

/**
 * A ParseFailureResult's `kind` is any kind's name, not an enum of the kinds a listing saw: a client
 * keeps the output schemas of its first `tools/list`, and a kind added to the configuration (or by a
 * preset) while the server runs must still validate (docs/mcp-tools.md).
 */
const failureProperties = {
  id: { type: 'string' },
  path: { type: 'string' },
  kind: {
    type: 'string',
    minLength: 1,
    description: "The document's kind: template, framework, process, sysrs, or a kind the configuration or its presets declare.",
  },
  error: { type: 'string' },
  diagnostics: { type: 'array', items: diagnostic },
};

/** The `ParseFailureResult` (docs/formats.md) of a document of any kind (the registry's, and a root's own). */
export const parseFailureSchema = closedObject(
  failureProperties,
  undefined,
  'A document that fails to parse: where, and every diagnostic (`error` is their canonical text).',
);

/** The ParseFailureResult a get tool answers (docs/mcp-tools.md): with `content`, the file's text, to repair it. */
export const parseFailureAnswerSchema = closedObject(
  {
    ...failureProperties,
    content: {
      type: 'string',
      description: "The file's text as it is on disk, hidden characters written as visible escapes such as \\u{202E} (absent when it is not UTF-8 text).",
    },
  },
  ['id', 'path', 'kind', 'error', 'diagnostics'],
  'A document that fails to parse: where, every diagnostic (`error` is their canonical text), and the text to repair.',
);

/** `{ error: "<KIND>_NOT_FOUND", message, available }`: a name that matches no document (a normal result). */
export function notFoundSchema(code: string) {
  return closedObject(
    {
      error: { type: 'string', const: code },
      message: { type: 'string' },
      available: { type: 'array', items: { type: 'string' }, description: 'The names that would be found, sorted.' },
    },
    undefined,
    'A name no document has (a normal answer, not a tool error).',
  );
}

export const languageInput = {
  type: 'string',
  default: 'en',
  description:
    'Two-letter lowercase language code: en for the English documents in docs/sysrs/, another code for the variants in docs/sysrs/<language>/ (which need a heading table schemas/sysrs-headings.<language>.json).',
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
export const sysrsResultSchema = resultSchema(
  sysrsDocumentSchema,
  { type: 'string', description: 'With raw: true, the body text as asked (windowed, numbered).' },
  parseFailureAnswerSchema,
);

const string = { type: 'string' } as const;

/**
 * What get_document answers for a document that parses: one branch per kind of document, each the
 * object the kind makes of it (`KindDef.doc`), plus `warnings` when it passes with warnings only.
 */
export const documentSchemas = [
  closedObject(
    {
      kind: {
        type: 'string',
        description: "The document's kind: its name for a kind of your own (declared by the configuration or its presets), else the built-in kind's.",
      },
      id: { type: ['string', 'null'], description: 'The document id; null for a document that has none (get it by its path).' },
      frontmatter: { type: 'object', description: 'The frontmatter as YAML reads it, defaults applied.' },
      content: {
        type: 'string',
        description:
          "A document's body as markdown, without its frontmatter and the blank lines after it (in a ParseFailureResult: the file's whole text, hidden characters written as visible escapes such as \\u{202E}).",
      },
      title: { type: 'string', description: 'The whole H1 text, for a kind with an outline.' },
      body: { type: 'object', description: "The body parsed by the kind's outline, keyed by its sections, for a kind with an outline." },
      warnings: warningsProperty,
    },
    ['kind', 'id', 'frontmatter', 'content'],
    'A document of a kind of your own.',
  ),
  closedObject(
    { kind: { type: 'string', const: 'template' }, name: string, fields: { type: 'object' }, content: string, warnings: warningsProperty },
    ['kind', 'name', 'fields', 'content'],
    'A POWER template: its fields and its whole text.',
  ),
  closedObject(
    { kind: { type: 'string', const: 'framework' }, name: string, size: { type: 'integer', minimum: 0 }, content: string, warnings: warningsProperty },
    ['kind', 'name', 'size', 'content'],
    'A framework doc: its size in bytes and its whole text.',
  ),
  closedObject(
    { kind: { type: 'string', const: 'process' }, name: string, slug: string, description: string, content: string, warnings: warningsProperty },
    ['kind', 'name', 'slug', 'description', 'content'],
    'A process: its name, slug, description and body.',
  ),
  closedObject(
    {
      kind: { type: 'string', const: 'sysrs' },
      id: string,
      lang: { type: ['string', 'null'] },
      ref: string,
      title: string,
      frontmatter: { type: 'object' },
      body: { type: 'object' },
      rawBody: string,
      rawBodyLine: { type: 'integer', minimum: 1 },
      warnings: warningsProperty,
    },
    ['kind', 'id', 'lang', 'ref', 'title', 'frontmatter', 'body', 'rawBody', 'rawBodyLine'],
    'A System Requirements Specification: frontmatter, body by section, and the body verbatim.',
  ),
];
