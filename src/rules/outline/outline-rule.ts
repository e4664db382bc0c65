/**
 * Outline rules are the same for every kind with an outline (SysRS, and kinds configured with one);
 * each kind gets them under its own prefix (`sysrs-h1`, `adr-h1`). A template here is one rule module
 * without the prefix: its meta and its check over the outline model; `outlineRules(prefix)` makes the
 * kind's rules.
 */
import type { OutlineModel } from '../../parse/outline/model.js';
import type { Example, NotOkExample, Report, Rule } from '../../engine/rule.js';
import { defineRule } from '../../engine/rule.js';

export interface OutlineRuleTemplate {
  /** The id without the kind prefix. */
  suffix: string;
  description: string;
  /** Its findings can carry a meaning-preserving fix (docs/formats.md, "Fixes"). */
  fixable?: boolean;
  /** Examples as SysRS documents (the kind the outline engine was written for). */
  examples: { ok: readonly Example[]; notOk: readonly NotOkExample[] };
  /** The check: findings from the model, reported as "Unexpected X, expected Y". */
  outline(model: OutlineModel, report: Report): void;
}

/**
 * The outline rule `t` for the kind whose rule ids start with `prefix`. The examples are SysRS
 * documents, so only the kind that checks SysRS's own outline takes them (`withExamples`).
 */
export function outlineRule(t: OutlineRuleTemplate, prefix: string, withExamples: boolean): Rule<never> {
  return defineRule({
    id: `${prefix}-${t.suffix}`,
    description: t.description,
    fixable: t.fixable ?? false,
    examples: withExamples ? t.examples : { ok: [], notOk: [] },
    outline: t.outline,
  });
}
