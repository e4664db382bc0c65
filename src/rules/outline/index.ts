import type { Pos } from '../../model/position.js';
import { CappedDiagnostics } from '../../model/result.js';
import type { Diagnostic } from '../../model/types.js';
import { unexpected } from '../../engine/rule.js';
import type { Report, Rule } from '../../engine/rule.js';
import { buildOutlineModel } from '../../parse/outline/build.js';
import type { CompiledOutline } from '../../parse/outline/data.js';
import type { OutlineBody } from '../../parse/outline/model.js';
import { outlineRule } from './outline-rule.js';
import type { OutlineRuleTemplate } from './outline-rule.js';
import { h1Outline } from './h1.js';
import { h1FirstOutline } from './h1-first.js';
import { h1DuplicateOutline } from './h1-duplicate.js';
import { unknownHeadingOutline } from './unknown-heading.js';
import { headingDuplicateOutline } from './heading-duplicate.js';
import { headingOrderOutline } from './heading-order.js';
import { sectionLastOutline } from './section-last.js';
import { missingSectionOutline } from './missing-section.js';
import { containerEmptyOutline } from './container-empty.js';
import { listEmptyOutline } from './list-empty.js';
import { listItemOutline } from './list-item.js';
import { listTagOutline } from './list-tag.js';
import { listUuidOutline } from './list-uuid.js';
import { updatesContentOutline } from './updates-content.js';
import { updatesHeadingOutline } from './updates-heading.js';
import { updatesEmptyOutline } from './updates-empty.js';
import { updatesOrderOutline } from './updates-order.js';
import { Recent } from '../../model/recent.js';

/** Every outline rule, in the order the engine checks them. */
export const OUTLINE_RULE_TEMPLATES: readonly OutlineRuleTemplate[] = [
  h1Outline,
  h1FirstOutline,
  h1DuplicateOutline,
  unknownHeadingOutline,
  headingDuplicateOutline,
  headingOrderOutline,
  sectionLastOutline,
  missingSectionOutline,
  containerEmptyOutline,
  listEmptyOutline,
  listItemOutline,
  listTagOutline,
  listUuidOutline,
  updatesContentOutline,
  updatesEmptyOutline,
  updatesHeadingOutline,
  updatesOrderOutline,
];

const byPrefix = new Recent<string, Rule<never>[]>(64);

/**
 * The outline rules of a kind whose rule ids start with `prefix` (the same objects for the same
 * prefix). `withExamples`: the kind checks the SysRS outline the rules' examples are written in.
 */
export function outlineRules(prefix: string, withExamples = false): Rule<never>[] {
  const key = `${prefix}\0${withExamples}`;
  let rules = byPrefix.get(key);
  if (rules === undefined) byPrefix.set(key, (rules = OUTLINE_RULE_TEMPLATES.map((t) => outlineRule(t, prefix, withExamples))));
  return [...rules];
}

export interface OutlineBodyCheck {
  /** The whole text of the first H1 (prefix included), null when there is none. */
  title: string | null;
  body: OutlineBody;
  diagnostics: Diagnostic[];
}

/**
 * A body checked against an outline by the outline rules of `prefix`, outside a lint (the engine's API;
 * a lint runs the same rules over the kind's parse). `name`: what messages call an outline without a
 * `name` of its own. `limit`: keep only the diagnostics a result shows (the first `limit` by position,
 * sorted as in a result, their messages the only ones built); without it, every diagnostic, sorted by
 * position, then in rule order and the order found.
 */
export function checkOutlineBody(
  body: string,
  bodyLineOffset: number,
  outline: CompiledOutline,
  o: { prefix: string; name: string; limit?: number },
): OutlineBodyCheck {
  const model = buildOutlineModel(body, bodyLineOffset, outline, o.name);
  const kept = o.limit === undefined ? null : new CappedDiagnostics(o.limit);
  const all: Diagnostic[] = [];
  for (const rule of outlineRules(o.prefix)) {
    const report = ((at: Pos, found: string, expected: string | null) => {
      const d = { line: at.line, column: at.column, rule: rule.id, message: unexpected(found, expected) };
      if (kept === null) all.push(d);
      else kept.add(d);
    }) as Report;
    report.wants = (at) => kept === null || kept.wants(at.line, at.column);
    rule.outline!(model, report);
  }
  const diagnostics =
    kept !== null
      ? kept.list()
      : all
          .map((d, i) => ({ d, i }))
          .sort((a, b) => a.d.line - b.d.line || a.d.column - b.d.column || a.i - b.i)
          .map((x) => x.d);
  return { title: model.title, body: model.body, diagnostics };
}
