import { SYSRS_OUTLINE_RULES } from '../kinds/sysrs/outline.js';

/**
 * One-line descriptions of docgate's rule ids, for reports that list the rules (SARIF `rules`).
 * Messages carry the detail of each finding; these say what the rule checks.
 */
export const RULE_DESCRIPTIONS: Readonly<Record<string, string>> = {
  // Any file
  'file-bom': 'File must be UTF-8 without a byte order mark',
  'file-encoding': 'File must be valid UTF-8',
  'file-nul': 'File must not contain NUL bytes',
  'file-size': 'File must stay under the size limit of its kind',
  'file-type': 'A name matching a document must be a regular file',
  'file-symlink': 'A symbolic link must resolve inside the root',
  'file-read': 'File must be readable',
  'file-name': 'File name must follow the naming rule of its kind',
  'file-empty': 'File must not be empty',
  // Frontmatter (YAML) and JSON Schema
  'frontmatter-unterminated': 'Frontmatter must be closed by a `---` line',
  'frontmatter-not-mapping': 'Frontmatter must be a YAML mapping',
  'yaml-syntax': 'Frontmatter must be valid YAML',
  'yaml-alias': 'Frontmatter must not use YAML anchors and aliases',
  'yaml-unquoted-timestamp': 'Timestamps in frontmatter must be quoted strings',
  'duplicate-key': 'A key must appear only once',
  'missing-key': 'A required key must be present',
  'unknown-key': 'Only the keys the schema defines are allowed',
  'wrong-type': 'A value must have the type the schema requires',
  'empty-value': 'A required value must not be empty',
  'invalid-value': 'A value must match the pattern, format or allowed values of the schema',
  schema: 'Data must match its JSON Schema',
  // POWER templates
  'template-stray-text': 'A template must start with its fields; only `#` comments may come before them',
  'template-field-order': 'Template fields must appear in the order of the schema',
  'template-examples-bullet': 'Template examples must be `- <example>` bullets',
  'template-placeholder': 'A `{{<x>_summary}}` placeholder must name the `store_as` of another template',
  'template-placeholder-cycle': 'Template placeholders must not form a cycle',
  'template-duplicate-store-as': 'Template `store_as` values must be unique',
  // Framework docs
  'framework-heading': 'A framework doc must start with a `# ` heading',
  // Processes
  'process-empty-body': 'A process must have a body after its frontmatter',
  'process-duplicate-name': 'Process names must be unique, ignoring case',
  // SysRS
  'sysrs-language': 'A SysRS variant folder must be a language with a heading table',
  'sysrs-duplicate-id': 'SysRS ids must be unique across documents',
  'sysrs-variant-source': 'A SysRS variant must have an English source with the same file name',
  'sysrs-variant-id': 'A SysRS variant must share the id of its source',
  // SysRS body outline: described where the rules are implemented.
  ...SYSRS_OUTLINE_RULES,
};

/** The short description of a rule id; an id not in the table gets a generic one. */
export function describeRule(id: string): string {
  return RULE_DESCRIPTIONS[id] ?? `docgate rule ${id}`;
}
