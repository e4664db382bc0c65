import { bodyBytes } from './body-bytes.js';
import { bodyLines } from './body-lines.js';
import { bodyRequired } from './body-required.js';
import { deprecatedPath } from './deprecated-path.js';
import { pathMatch } from './path-match.js';
import type { KindRuleTemplate } from './template.js';

/** Every rule a kind of your own brings under its prefix besides `<kind>-duplicate-id`, in the order they run. */
export const KIND_RULE_TEMPLATES: readonly KindRuleTemplate[] = [pathMatch, bodyRequired, bodyLines, bodyBytes, deprecatedPath];
