/**
 * docs/mcp-tools.md, generated from the tool registry (`npm run docs`; test/mcp-tools-doc.test.ts fails
 * when the file differs from what this makes): every tool of `tools/list` with its title, description,
 * arguments and the shape of its structured answer, then the resources and the prompt.
 */
import { readdirSync } from 'node:fs';
import { BUNDLED_SCHEMA_DIR } from '../project/rule-files.js';
import { REPAIR_PROMPT } from './repair-prompt.js';
import { parseFailureSchema } from './schemas.js';
import type { ObjectSchema, ToolDefinition } from './tool.js';
import { TOOLS, WRITE_TOOLS } from './tools/index.js';

type Schema = Record<string, unknown>;

/** What the page is made of: the tools in `tools/list` order, the prompt, the bundled rule files. */
export interface McpDocInput {
  tools: readonly ToolDefinition[];
  /** The tools served only with `docgate mcp --allow-writes`, after the others. */
  writeTools?: readonly ToolDefinition[];
  prompt: { name: string; title: string; description: string; arguments: readonly { name: string; description: string; required: boolean }[] };
  failure: Schema;
  schemaFiles: readonly string[];
}

const INTRO = `# MCP tools

<!-- Generated from the tool registry by \`npm run docs\`; do not edit by hand. -->

\`docgate mcp [--root DIR] [--config FILE] [--suppressions-location FILE] [--allow-writes]\` serves one repository's
documents over the Model Context Protocol on stdio. It reads the same configuration and baseline as
\`docgate lint\` (see [configuration.md](configuration.md) and [formats.md](formats.md#the-baseline-file)),
so every tool sees the results lint gives. Stdout carries protocol only; logs go to stderr
(\`DOCGATE_MCP_DEBUG=1\` logs each call).

How every tool answers:

- Its arguments are checked against its input schema (no other property is allowed), then by the tool
  (an id's shape, a language, a combination of arguments) **before any file is read**. An invalid
  argument, and a tool that cannot run (an invalid configuration), is an \`isError\` result with a message
  that says what to change.
- A result carries one text item and, for a tool with an output schema (all of them), \`structuredContent\`
  of the shape shown below (\`?\` marks a property that may be absent).
- A document that fails to parse is **not** a tool error: it is a normal result carrying its
  ParseFailureResult, whose \`error\` is byte-identical to what \`docgate lint\` prints for that file. The
  get tools add \`content\`, the file's text, so that an agent can repair it and check the repair with
  \`check_content\`. A document that passes with warnings only is served, its answer adding \`warnings\`.
- The list tools page: \`list_sysrs\` and \`list_documents\` answer 25 rows by default (at most 100);
  \`list_templates\`, \`list_frameworks\` and \`list_processes\` at most 1,000 rows, and a window also ends
  early once its rows pass about 300,000 characters of JSON (\`truncated\` then says that rows remain).
`;

/** A schema's properties, or none. */
function propertiesOf(s: Schema): Record<string, Schema> {
  return (s.properties as Record<string, Schema> | undefined) ?? {};
}

function requiredOf(s: Schema): readonly string[] {
  return (s.required as readonly string[] | undefined) ?? [];
}

function isFailure(s: Schema): boolean {
  const keys = Object.keys(propertiesOf(s));
  return ['id', 'path', 'kind', 'error', 'diagnostics'].every((k) => keys.includes(k));
}

/** A value of no inner structure worth showing: a scalar, a free object, a list of scalars. */
function isPlain(s: Schema): boolean {
  if (s.anyOf !== undefined || s.const !== undefined) return false;
  if (s.type === 'array') return isPlain((s.items as Schema | undefined) ?? {});
  return Object.keys(propertiesOf(s)).length === 0;
}

function typeName(s: Schema): string {
  if (Array.isArray(s.type)) return s.type.join(' | ');
  if (s.type === 'array') return `${typeName((s.items as Schema | undefined) ?? {})}[]`;
  return typeof s.type === 'string' ? s.type : 'any';
}

/**
 * The shape of a value in one line: `{a, b?, c: [{d}]}`, branches joined by `|`. A ParseFailureResult
 * is named, not spelt out (`expand` spells out the first one met).
 */
function shape(s: Schema, expand = false): string {
  if (Array.isArray(s.anyOf)) return (s.anyOf as Schema[]).map((b) => shape(b)).join(' | ');
  if (s.const !== undefined) return JSON.stringify(s.const);
  if (s.type === 'array') return `[${shape((s.items as Schema | undefined) ?? {})}]`;
  const props = propertiesOf(s);
  if (Object.keys(props).length === 0) return s.type === 'object' ? 'object' : typeName(s);
  if (!expand && isFailure(s)) {
    const extra = Object.keys(props).filter((k) => !['id', 'path', 'kind', 'error', 'diagnostics', 'content'].includes(k));
    const name = 'content' in props ? 'ParseFailureResult with content' : 'ParseFailureResult';
    return extra.length === 0 ? name : `${name} + {${fields(s, extra)}}`;
  }
  return `{${fields(s, Object.keys(props))}}`;
}

function fields(s: Schema, keys: readonly string[]): string {
  const props = propertiesOf(s);
  const required = requiredOf(s);
  return keys
    .map((k) => {
      const v = props[k]!;
      const name = `${k}${required.includes(k) ? '' : '?'}`;
      return isPlain(v) ? name : `${name}: ${shape(v)}`;
    })
    .join(', ');
}

/** The described properties of an output schema (not inside a ParseFailureResult): name → description, first met. */
function described(s: Schema, out = new Map<string, string>()): Map<string, string> {
  for (const b of (s.anyOf as Schema[] | undefined) ?? []) described(b, out);
  if (s.type === 'array' && s.items) described(s.items as Schema, out);
  const failure = isFailure(s);
  for (const [k, v] of Object.entries(propertiesOf(s))) {
    if (failure && ['id', 'path', 'kind', 'error', 'diagnostics'].includes(k)) continue;
    if (typeof v.description === 'string' && !out.has(k)) out.set(k, v.description);
    described(v, out);
  }
  return out;
}

/** Markdown text of a description: `<` outside code spans escaped, so that `<name>` is shown, not taken for HTML. */
function prose(text: string): string {
  return text
    .split(/(`[^`]*`)/)
    .map((part, i) => (i % 2 === 1 ? part : part.replace(/</g, '\\<')))
    .join('');
}

function cell(text: string): string {
  return prose(text).replace(/\|/g, '\\|').replace(/\n/g, ' ');
}

/** What an argument must be besides its type: `at least 1 character`, `at most 4,096 characters`, the allowed values. */
function constraints(s: Schema): string[] {
  const out: string[] = [];
  const n = (v: unknown) => (typeof v === 'number' ? v.toLocaleString('en-US') : String(v));
  if (s.minLength !== undefined) out.push(`at least ${n(s.minLength)} character${s.minLength === 1 ? '' : 's'}`);
  if (s.maxLength !== undefined) out.push(`at most ${n(s.maxLength)} characters`);
  if (s.minimum !== undefined) out.push(`≥ ${n(s.minimum)}`);
  if (s.maximum !== undefined) out.push(`≤ ${n(s.maximum)}`);
  if (Array.isArray(s.enum)) out.push(`one of ${s.enum.map((v) => `\`${v}\``).join(', ')}`);
  const items = s.items as Schema | undefined;
  if (items?.minLength !== undefined) out.push(`each at least ${n(items.minLength)} character${items.minLength === 1 ? '' : 's'}`);
  return out;
}

function argumentsTable(input: ObjectSchema): string[] {
  const props = propertiesOf(input);
  if (Object.keys(props).length === 0) return ['No arguments.'];
  const rows = Object.entries(props).map(([k, v]) => {
    const type = [`\`${typeName(v)}\``, ...constraints(v)].join(', ');
    const dflt = v.default === undefined ? '' : `\`${JSON.stringify(v.default)}\``;
    const required = requiredOf(input).includes(k) ? 'yes' : 'no';
    return `| \`${k}\` | ${type} | ${required} | ${dflt} | ${cell(String(v.description ?? ''))} |`;
  });
  // A tool taking one of several forms of arguments says which in its input schema's description.
  const forms = typeof input.description === 'string' ? [prose(input.description), ''] : [];
  return [...forms, '| argument | type | required | default | description |', '| --- | --- | --- | --- | --- |', ...rows];
}

/** What the page says of a write tool, under its title. */
const WRITES_ONLY = 'Served only by `docgate mcp --allow-writes` ([mcp.md](mcp.md#validated-writes)).';

function toolSection(t: ToolDefinition, writes = false): string {
  const output = t.outputSchema;
  const only = writes ? [WRITES_ONLY, ''] : [];
  const out = [
    `## \`${t.name}\``,
    '',
    `**${t.title}.** ${t.description.split('\n').map(prose).join('\n\n')}`,
    '',
    ...only,
    '### Arguments',
    '',
    ...argumentsTable(t.inputSchema),
    '',
  ];
  out.push('### Answer', '');
  if (output === undefined) out.push('A text item only.');
  else {
    out.push(`\`structuredContent\`: \`${shape(output)}\``);
    const notes = described(output);
    if (notes.size > 0) out.push('', ...[...notes].map(([k, d]) => `- \`${k}\`: ${prose(d)}`));
  }
  return out.join('\n');
}

function failureSection(failure: Schema): string {
  const notes = [...described({ type: 'object', properties: { diagnostics: (propertiesOf(failure).diagnostics ?? {}) as Schema } })];
  return [
    '## The ParseFailureResult',
    '',
    `${prose(String(failure.description ?? ''))} Every tool answers a failing document with one, of this shape:`,
    '',
    `\`${shape(failure, true)}\``,
    '',
    ...notes.map(([k, d]) => `- \`${k}\`: ${prose(d)}`),
    '- `kind`: any kind of the repository: the four built-in ones and the kinds its configuration and its presets declare (any name is accepted, so a kind added while the server runs validates too).',
    '',
    'What each field means, how `error` is made from the diagnostics and where positions point: [formats.md](formats.md#the-result-parsefailureresult).',
  ].join('\n');
}

function resourcesSection(schemaFiles: readonly string[]): string {
  return [
    '## Resources',
    '',
    '- `docgate://schemas/<file>`: every JSON file of the rule folder (JSON Schemas, outlines, heading tables) as',
    "  `application/json`. docgate's own files are listed, and the root's rule folder (`schemas/`, or the",
    "  configuration's `schemas`) overrides them file by file and adds its own; a link that leaves the root is",
    '  not listed. docgate ships:',
    ...schemaFiles.map((f) => `  - \`docgate://schemas/${f}\``),
    '- `docgate://rules/<id>`: every rule of the root (the rules of its own kinds included) as JSON: `id`,',
    '  `description`, `kinds`, `severity` (the default), `fixable`, `crossFile`, `fileLevel` and its `examples`',
    '  (with the fixed text of a fixable rule). The same rules, as a page: [rules.md](rules.md).',
    '',
    'An unknown resource is a JSON-RPC `InvalidParams` error.',
  ].join('\n');
}

function promptSection(p: McpDocInput['prompt']): string {
  const args = p.arguments.map((a) => `| \`${a.name}\` | ${a.required ? 'yes' : 'no'} | ${cell(a.description)} |`);
  return [
    `## The \`${p.name}\` prompt`,
    '',
    `**${p.title}.** ${prose(p.description)}`,
    '',
    '| argument | required | description |',
    '| --- | --- | --- |',
    ...args,
    '',
    "Its one user message holds the document's diagnostics as `docgate lint` reports them, each rule they cite",
    "(its description, whether `check_content` fixes it, and its `docgate://rules/<id>` resource), the file's",
    'text as it is on disk (hidden characters written as visible escapes such as `\\u{202E}`), and the loop to',
    'follow: write the whole corrected text, check it with `check_content` until it answers `{"valid": true}`,',
    'then write the file: with `update_document` where the server runs with `--allow-writes`, else by the agent',
    '(the server writes nothing without the flag). A path that is no document is an `InvalidParams` error.',
  ].join('\n');
}

/** The whole of docs/mcp-tools.md. */
export function mcpToolsMarkdown(input: McpDocInput): string {
  const writes = input.writeTools ?? [];
  const index = [
    ...input.tools.map((t) => `| [\`${t.name}\`](#${t.name}) | ${cell(t.title)} |`),
    ...writes.map((t) => `| [\`${t.name}\`](#${t.name}) | ${cell(t.title)} (only with \`--allow-writes\`) |`),
  ];
  return [
    INTRO,
    '| tool | what it does |',
    '| --- | --- |',
    ...index,
    '',
    ...input.tools.flatMap((t) => [toolSection(t), '']),
    ...writes.flatMap((t) => [toolSection(t, true), '']),
    failureSection(input.failure),
    '',
    resourcesSection(input.schemaFiles),
    '',
    promptSection(input.prompt),
    '',
  ].join('\n');
}

/** docs/mcp-tools.md for the registry's tools, the repair prompt and the rule files docgate ships. */
export function registryMcpToolsMarkdown(): string {
  return mcpToolsMarkdown({
    tools: TOOLS,
    writeTools: WRITE_TOOLS,
    prompt: REPAIR_PROMPT,
    failure: parseFailureSchema,
    schemaFiles: readdirSync(BUNDLED_SCHEMA_DIR)
      .filter((f) => f.endsWith('.json'))
      .sort(),
  });
}
