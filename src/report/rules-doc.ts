/**
 * docs/rules.md, generated from the registry (`npm run docs`; test/rules-doc.test.ts fails when the file
 * differs from what this makes). Each rule's section shows its description, the kinds it applies to,
 * its default severity, whether it is fixable, and its examples with the lines they give.
 */
import type { Example, ExampleFile } from '../engine/rule.js';
import type { RuleEntry } from '../kinds/index.js';

const INTRO = `# Rules

<!-- Generated from the rule registry by \`npm run docs\`; do not edit by hand. -->

Every diagnostic has a rule id, a message and a 1-based \`line:column\` in the file on disk. Messages
follow one grammar, \`Unexpected <what was found>, expected <what is wanted>\`, and quote content in
backticks (at most 60 characters, newlines shown as \`\\n\`). Where a message says what a value should be,
the words come from the \`description\` of the property in the JSON Schema, so editing the schema edits
the message too.

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

function section(e: RuleEntry): string {
  const r = e.rule;
  const facts = [
    `kinds: ${e.kinds.map((k) => `\`${k}\``).join(', ')}`,
    `default severity: \`${r.severity}\``,
    `fixable: ${r.fixable ? 'yes' : 'no'}`,
    ...(e.crossFile ? ['looks across the documents of a kind'] : []),
    ...(r.fileLevel ? ['about the file as a whole: not disabled by inline directives'] : []),
  ];
  const out = [`## \`${r.id}\``, '', r.description.endsWith('.') ? r.description : `${r.description}.`, '', facts.join(' · ')];
  r.examples.ok.forEach((ex, i) => out.push('', `### ok${r.examples.ok.length > 1 ? ` ${i + 1}` : ''}`, '', example(ex)));
  r.examples.notOk.forEach((ex, i) => out.push('', `### not ok${r.examples.notOk.length > 1 ? ` ${i + 1}` : ''}`, '', example(ex, ex.expected, ex.output)));
  return out.join('\n');
}

/** The whole of docs/rules.md for these rules (in id order). */
export function rulesMarkdown(rules: Iterable<RuleEntry>): string {
  const list = [...rules];
  const index = list.map((e) => `| [\`${e.rule.id}\`](#${e.rule.id}) | ${e.rule.description} | ${e.kinds.join(', ')} |`);
  return [INTRO, '| rule | what it wants | kinds |', '| --- | --- | --- |', ...index, '', ...list.map(section).flatMap((s) => [s, '']), '']
    .join('\n')
    .replace(/\n+$/, '\n');
}
