/**
 * Outline rules are the same for every kind with an outline (SysRS, and kinds configured with one);
 * each kind gets them under its own prefix (`sysrs-h1`, `adr-h1`). A template here is one rule module
 * without the prefix; `outlineRules(prefix)` makes the kind's rules.
 */
import type { Example, NotOkExample, Rule } from '../../engine/rule.js';
import { defineRule } from '../../engine/rule.js';

export interface OutlineRuleTemplate {
  /** The id without the kind prefix. */
  suffix: string;
  description: string;
  /** Examples as SysRS documents (the kind the outline engine was written for). */
  examples: { ok: readonly Example[]; notOk: readonly NotOkExample[] };
}

const MESSAGE = /^Unexpected (.*), expected (.*)$/s;

/** The outline rule `t` for the kind whose rule ids start with `prefix`. */
export function outlineRule(t: OutlineRuleTemplate, prefix: string): Rule<never> {
  return defineRule({
    id: `${prefix}-${t.suffix}`,
    description: t.description,
    examples: prefix === 'sysrs' ? t.examples : { ok: [], notOk: [] },
    outline(model, report) {
      for (const f of model.findings) {
        if (f.rule !== t.suffix) continue;
        // Any split of 'Unexpected X, expected Y' at ', expected ' gives the same message back.
        const m = MESSAGE.exec(f.message);
        if (m) report(f.at, m[1]!, m[2]!);
        else report(f.at, f.message.replace(/^Unexpected /, ''), null);
      }
    },
  });
}
