import type { Rule } from '../../engine/rule.js';
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

/** Every outline rule, in the order the engine checks them. */
export const OUTLINE_RULE_TEMPLATES: readonly OutlineRuleTemplate[] = [h1Outline, h1FirstOutline, h1DuplicateOutline, unknownHeadingOutline, headingDuplicateOutline, headingOrderOutline, sectionLastOutline, missingSectionOutline, containerEmptyOutline, listEmptyOutline, listItemOutline, listTagOutline, listUuidOutline, updatesContentOutline, updatesHeadingOutline, updatesEmptyOutline, updatesOrderOutline];

/** The outline rules of a kind whose rule ids start with `prefix`. */
export function outlineRules(prefix: string): Rule<never>[] {
  return OUTLINE_RULE_TEMPLATES.map((t) => outlineRule(t, prefix));
}
