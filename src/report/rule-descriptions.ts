import { rulesOf } from '../kinds/index.js';

/** One-line descriptions of docgate's rule ids (SARIF `rules`), read from the registry. */
export const RULE_DESCRIPTIONS: Readonly<Record<string, string>> = Object.fromEntries([...rulesOf().values()].map((e) => [e.rule.id, e.rule.description]));

/**
 * The short description of a rule id. Every rule docgate reports is in the registry, and a test fails
 * for a rule without a description; a report assembled by hand may name other ids, which get a plain one.
 */
export function describeRule(id: string): string {
  return RULE_DESCRIPTIONS[id] ?? `docgate rule ${id}`;
}
