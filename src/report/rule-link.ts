import { RULE_DESCRIPTIONS } from './rule-descriptions.js';

/**
 * The rule's section of docs/rules.md, whose headings are the rule ids (`## \`<id>\``, anchored `#<id>`
 * as GitHub renders them). Only docgate's own rules have one: a rule of a kind declared in a root's
 * configuration has none.
 */
export function ruleHelpUri(id: string, rulesDoc: string | undefined): string | undefined {
  return rulesDoc !== undefined && Object.hasOwn(RULE_DESCRIPTIONS, id) ? `${rulesDoc}#${id}` : undefined;
}
