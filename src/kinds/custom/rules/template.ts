/**
 * The rules a kind of your own brings under its own prefix (`skill-path-match`, `agents-md-body-bytes`):
 * one template per rule, without the prefix, as the outline rules are (src/rules/outline/outline-rule.ts).
 * Their examples are written for a kind named `skill` declared in the example's own configuration, so
 * they run (test/kind-language.test.ts) and are shown (docs/rules.md) as a user meets them.
 */
import type { Example, NotOkExample, Report, Rule, Severity } from '../../../engine/rule.js';
import { defineRule } from '../../../engine/rule.js';
import type { CustomParse } from '../parse.js';

export interface KindRuleTemplate {
  /** The id without the kind prefix. */
  suffix: string;
  description: string;
  severity: Severity;
  /** Examples for the kind `skill` (its configuration among the example's files). */
  examples: { ok: readonly Example[]; notOk: readonly NotOkExample[] };
  document(p: CustomParse, report: Report): void;
}

/** The rule of template `t` for the kind `name`; the examples go with the kind they are written for. */
export function kindRule(t: KindRuleTemplate, name: string): Rule<CustomParse> {
  return defineRule<CustomParse>({
    id: `${name}-${t.suffix}`,
    description: t.description,
    severity: t.severity,
    examples: name === EXAMPLE_KIND ? t.examples : { ok: [], notOk: [] },
    document: t.document,
  });
}

/** The kind the templates' examples are written for. */
export const EXAMPLE_KIND = 'skill';

/** A skill's frontmatter schema, as the examples' root has it in its rule folder. */
const EXAMPLE_SCHEMA = `${JSON.stringify(
  {
    $schema: 'https://json-schema.org/draft/2020-12/schema',
    type: 'object',
    properties: {
      name: { type: 'string', description: 'the skill name, as its folder' },
      description: { type: 'string', description: 'what the skill does and when to use it' },
    },
    required: ['name', 'description'],
    additionalProperties: false,
  },
  null,
  2,
)}\n`;

/**
 * The other files of an example root: a configuration declaring the kind `skill` (`skills/<name>/SKILL.md`,
 * id from `name`) with the lines `more` added under it, and its schema.
 */
export function exampleFiles(more: string, include = '"skills/*/SKILL.md"'): Record<string, string> {
  return {
    'docgate.config.yaml': `kinds:\n  skill:\n    include: [${include}]\n    id: {field: name}\n    frontmatter: skill.schema.json\n${more}`,
    'schemas/skill.schema.json': EXAMPLE_SCHEMA,
  };
}
