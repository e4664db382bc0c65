/**
 * docs/configuration.md, generated from schemas/docgate.config.schema.json (`npm run docs`, after the
 * schema itself; test/configuration-doc.test.ts fails when the file differs from what this makes): a
 * short intro, then every key of the configuration with its type, whether it is required, its
 * description and the values it allows.
 */

type Schema = Record<string, unknown>;

const INTRO = `# Configuration

<!-- Generated from schemas/docgate.config.schema.json by \`npm run docs\`; do not edit by hand. -->

A root may hold one configuration file, \`docgate.config.yaml\` or \`docgate.config.json\` (both at once is
an error), or name another one with \`--config FILE\` (relative to the current folder), for \`docgate lint\`
and \`docgate mcp\` alike. Without one, docgate checks the built-in layout of [formats.md](formats.md)
with every rule at its default severity.

The configuration is **data, never code**: it is parsed as YAML (JSON is YAML), and a
\`docgate.config.js\`, \`.cjs\`, \`.mjs\` or \`.ts\` is refused unread, since CI and the MCP server read the
configurations of repositories they do not trust. It is checked against
\`schemas/docgate.config.schema.json\`, which the rule registry generates and which editors can use. An
invalid configuration (a key or kind that does not exist, an unknown rule id, a bad glob, a value of
the wrong type, a rule file that does not load) stops the run with exit code 2 and one line per
problem, \`<file>:<line>:<column> <message>\`, positioned in the file.

\`\`\`yaml
ignores: ["**/README.md", "docs/sysrs/archive/**"]
kinds:
  process: { include: ["processes/*.md", "handbook/processes/*.md"] }
  template: { include: ["templates/power/*.txt"], fileName: "^[a-z0-9-]+$" }
  adr:                               # a kind of your own
    include: ["docs/adr/*.md"]
    id: frontmatter
    frontmatter: adr.schema.json     # schemas/adr.schema.json
rules:
  template-field-order: warn
overrides:                           # later blocks win
  - files: ["processes/legacy-*.md"]
    rules: { process-empty-body: off }
\`\`\`

Globs are root-relative with picomatch's semantics (\`*\`, \`**\`, \`?\`, \`[…]\`, \`{a,b}\`); extglobs and
negation are refused. A rule's level is its default (\`error\`, unless [rules.md](rules.md) says
otherwise), then \`rules\`, then each \`overrides\` block whose \`files\` match the document, in order.
\`docgate lint --print-config PATH\` prints what is in effect for one path. Kinds of your own, and what
their rule files look like, are described in [formats.md](formats.md#kinds-of-your-own).

## Keys
`;

/** Enums longer than this (the rule ids) are listed in a section of their own, each linked to its rule in docs/rules.md. */
const LONG_ENUM = 12;

interface Row {
  key: string;
  type: string;
  required: string;
  description: string;
  allowed: string;
}

interface Walk {
  rows: Row[];
  /** Long enums by their values' JSON: the section that lists them. */
  lists: Map<string, { title: string; values: string[]; others: string[] }>;
}

function props(s: Schema): Record<string, Schema> {
  return (s.properties as Record<string, Schema> | undefined) ?? {};
}

function isObject(v: unknown): v is Schema {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** GitHub's anchor of a heading. */
function anchor(title: string): string {
  return title
    .toLowerCase()
    .replace(/[^a-z0-9 _-]/g, '')
    .replace(/ /g, '-');
}

function typeOf(s: Schema): string {
  if (s.type === 'array') {
    const items = isObject(s.items) ? s.items : {};
    return `list of ${typeOf(items)
      .replace(/^(string|integer|number|boolean)$/, '$1s')
      .replace(/^mapping$/, 'mappings')}`;
  }
  if (s.type === 'object') return 'mapping';
  if (Array.isArray(s.type)) return s.type.join(' or ');
  if (typeof s.type === 'string') return s.type;
  if (Array.isArray(s.enum) && s.enum.every((v) => typeof v === 'string')) return 'string';
  return 'any';
}

function values(list: readonly unknown[]): string {
  return list.map((v) => `\`${String(v)}\``).join(', ');
}

/** What a value must be besides its type. */
function allowed(s: Schema): string {
  const out: string[] = [];
  if (Array.isArray(s.enum)) out.push(`one of ${values(s.enum)}`);
  if (typeof s.pattern === 'string') out.push(`matches \`${s.pattern}\``);
  if (s.minLength === 1) out.push('not empty');
  else if (typeof s.minLength === 'number') out.push(`at least ${s.minLength} characters`);
  if (typeof s.minItems === 'number') out.push(`at least ${s.minItems} item${s.minItems === 1 ? '' : 's'}`);
  const items = isObject(s.items) ? s.items : null;
  if (items && items.minLength === 1) out.push('each not empty');
  return out.join('; ');
}

/** What a placeholder key stands for: a kind's name, a rule id, or any key the mapping allows. */
function placeholderOf(key: string): string {
  const last = key.slice(key.lastIndexOf('.') + 1);
  return last === 'kinds' ? '<name>' : last === 'rules' ? '<rule id>' : '<key>';
}

/**
 * The keys a mapping allows besides its `properties` (its `propertyNames`): said in the table's cell, or,
 * when a branch is a long enum (the rule ids), in a section of their own that the cell links to.
 */
function keyNames(s: Schema, placeholder: string, walk: Walk): string {
  const names = isObject(s.propertyNames) ? s.propertyNames : null;
  if (!names) return '';
  const branches = Array.isArray(names.anyOf) ? (names.anyOf as Schema[]) : [names];
  const long = branches.find((b) => Array.isArray(b.enum) && b.enum.length > LONG_ENUM);
  if (!long) return `key: ${branches.map(allowed).join(', or ')}`;
  const title = placeholder === '<rule id>' ? 'Rule ids' : `Keys ${placeholder}`;
  const id = JSON.stringify(names);
  if (!walk.lists.has(id)) {
    // For the rule ids: the other branch is the pattern of the rules a kind of your own brings under its name.
    const whose = placeholder === '<rule id>' ? ' (a rule of a kind of your own, named after it: `adr-duplicate-id`, `adr-h1`, …)' : '';
    const others = branches.filter((b) => b !== long).map((b) => `Or a key that ${allowed(b)}${whose}.`);
    walk.lists.set(id, { title, values: (long.enum as unknown[]).map(String), others });
  }
  return `key: see [${title}](#${anchor(title)})`;
}

function row(walk: Walk, key: string, s: Schema, required: boolean, extra = ''): void {
  const description = typeof s.description === 'string' ? s.description : '';
  const a = [allowed(s), extra].filter((x) => x !== '').join('; ');
  walk.rows.push({ key, type: typeOf(s), required: required ? 'yes' : 'no', description, allowed: a });
}

function visit(walk: Walk, key: string, s: Schema, required: boolean): void {
  row(walk, key, s, required);
  visitChildren(walk, key, s);
}

function visitChildren(walk: Walk, key: string, s: Schema): void {
  const req = (s.required as string[] | undefined) ?? [];
  const prefix = key === '' ? '' : `${key}.`;
  for (const [k, v] of Object.entries(props(s))) visit(walk, `${prefix}${k}`, v, req.includes(k));
  const more = s.additionalProperties;
  if (isObject(more)) {
    const placeholder = placeholderOf(key);
    const childKey = `${prefix}${placeholder}`;
    row(walk, childKey, more, false, keyNames(s, placeholder, walk));
    visitChildren(walk, childKey, more);
  }
  if (s.type === 'array' && isObject(s.items) && Object.keys(props(s.items)).length > 0) visitChildren(walk, `${key}[]`, s.items);
}

function cell(text: string): string {
  return text.replace(/\|/g, '\\|');
}

/** The whole of docs/configuration.md for this configuration schema. */
export function configMarkdown(schema: Schema): string {
  const walk: Walk = { rows: [], lists: new Map() };
  visitChildren(walk, '', schema);
  const table = [
    '| key | type | required | description | allowed |',
    '| --- | --- | --- | --- | --- |',
    ...walk.rows.map((r) => `| \`${r.key}\` | ${r.type} | ${r.required} | ${cell(r.description)} | ${cell(r.allowed)} |`),
  ];
  const intro = [
    INTRO,
    '`<name>` stands for the name of a kind of your own, `<rule id>` for a rule id, `[]` for each item of a',
    'list. No key is required at the top level, and no key other than those below is allowed anywhere.',
    '',
  ];
  const lists = [...walk.lists.values()].flatMap((l) => [
    `## ${l.title}`,
    '',
    ...l.values.map((v) => `- [\`${v}\`](rules.md#${v})`),
    '',
    ...l.others.flatMap((o) => [o, '']),
  ]);
  return [...intro, ...table, '', ...lists].join('\n').replace(/\n+$/, '\n');
}
