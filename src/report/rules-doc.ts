/**
 * docs/rules.md, generated from the registry (`npm run docs`; test/rules-doc.test.ts fails when the file
 * differs from what this makes). Each rule's section shows its description, the kinds it applies to,
 * its default severity, whether it is fixable, and its examples with the lines they give.
 */
import type { Example, ExampleFile } from '../engine/rule.js';
import type { RuleEntry } from '../kinds/index.js';
import { kindLanguageRules } from '../kinds/custom/kind.js';

const INTRO = `# Rules

<!-- Generated from the rule registry by \`npm run docs\`; do not edit by hand. -->

Every diagnostic has a rule id, a message and a 1-based \`line:column\` in the file on disk. Messages
follow one grammar, \`Unexpected <what was found>, expected <what is wanted>\`, and quote content in
backticks (at most 60 characters, newlines shown as \`\\n\`). Where a value breaks a keyword of its JSON
Schema, the message names what the keyword asks, then the \`description\` of the property in parentheses,
so editing the schema edits the message too; [messages.md](messages.md) has the words of each keyword.

Each rule below is one module of the source (\`src/rules/\` for rules every kind shares,
\`src/kinds/<kind>/rules/\` for the rules of one kind). Its examples are run as tests
(\`test/rule-examples.test.ts\`): a file of the *ok* examples gives no diagnostic of the rule, a file of the
*not ok* examples gives exactly the lines shown. Examples are checked in a root of their own holding
only the files shown, so a short example may have other findings that are not the rule's.
`;

function fence(text: string): string {
  return `~~~~\n${text.endsWith('\n') ? text : `${text}\n`}~~~~`;
}

function shown(file: ExampleFile, override: string | undefined): string {
  if (override !== undefined) return override;
  if (typeof file === 'string') return file;
  return 'bytes' in file ? `(${file.bytes.length} bytes)` : `(${file.entry})`;
}

function example(ex: Example, lines?: readonly string[], output?: string): string {
  const parts = [`\`${ex.path}\`:`, '', fence(shown(ex.text, ex.shown))];
  for (const [path, text] of Object.entries(ex.others ?? {})) parts.push('', `with \`${path}\`:`, '', fence(text));
  if (lines) parts.push('', 'gives:', '', fence(lines.join('\n')));
  if (output !== undefined) parts.push('', '`docgate lint --fix` makes it:', '', fence(output));
  return parts.join('\n');
}

function section(e: RuleEntry, shownId = e.rule.id, kinds = e.kinds.map((k) => `\`${k}\``).join(', ')): string {
  const r = e.rule;
  const facts = [
    `kinds: ${kinds}`,
    `default severity: \`${r.offByDefault ? 'off' : r.severity}\``,
    `fixable: ${r.fixable ? 'yes' : 'no'}`,
    ...(e.crossFile ? ['looks across the documents of a kind'] : []),
    ...(r.fileLevel ? ['about the file as a whole: not disabled by inline directives'] : []),
  ];
  const out = [`## \`${shownId}\``, '', r.description.endsWith('.') ? r.description : `${r.description}.`, '', facts.join(' · ')];
  r.examples.ok.forEach((ex, i) => out.push('', `### ok${r.examples.ok.length > 1 ? ` ${i + 1}` : ''}`, '', example(ex)));
  r.examples.notOk.forEach((ex, i) => out.push('', `### not ok${r.examples.notOk.length > 1 ? ` ${i + 1}` : ''}`, '', example(ex, ex.expected, ex.output)));
  return out.join('\n');
}

const OWN_KINDS = `## Rules of kinds of your own

A kind declared in the configuration (docs/formats.md, "Kinds of your own") brings the rules below besides
the file, frontmatter, schema and outline rules. The first ones run under the kind's name
(\`<kind>-path-match\` is \`skill-path-match\` for the kind \`skill\`), each where the kind's configuration
asks for it; their examples declare a kind \`skill\` in the example's own \`docgate.config.yaml\`. The
shared ones keep their id in every kind. Every kind of your own also has \`<kind>-duplicate-id\`: ids
are unique across its documents, compared after NFKC (and ignoring case with \`uniqueIgnoreCase\`).
`;

function anchor(id: string): string {
  return id.replace(/[<>]/g, '');
}

/** The whole of docs/rules.md for these rules (in id order), then the rules of kinds of your own. */
export function rulesMarkdown(rules: Iterable<RuleEntry>): string {
  const list = [...rules];
  const own = kindLanguageRules().map((r) => ({ ...r, entry: { rule: r.rule, kinds: [], crossFile: false } as RuleEntry }));
  const ownKinds = 'kinds of your own';
  const index = [
    ...list.map((e) => `| [\`${e.rule.id}\`](#${e.rule.id}) | ${e.rule.description} | ${e.kinds.join(', ')} |`),
    ...own.map((o) => `| [\`${o.shownId}\`](#${anchor(o.shownId)}) | ${o.rule.description} | ${ownKinds} |`),
  ];
  return [
    INTRO,
    '| rule | what it wants | kinds |',
    '| --- | --- | --- |',
    ...index,
    '',
    ...list.map((e) => section(e)).flatMap((s) => [s, '']),
    OWN_KINDS,
    ...own.map((o) => section(o.entry, o.shownId, ownKinds)).flatMap((s) => [s, '']),
    '',
  ]
    .join('\n')
    .replace(/\n+$/, '\n');
}
