import { quote } from '../../../model/position.js';
import { reportDuplicates } from '../../../engine/groups.js';
import { defineCrossFileRule } from '../../../engine/rule.js';
import type { CrossFileRule } from '../../../engine/rule.js';
import type { Located } from '../../../model/analysis.js';
import { idKey } from '../id.js';

export interface CustomFacts {
  kind: string;
  id: Located<string> | null;
}

/** `<kind>-duplicate-id`: ids compared after NFKC, and case-folded when the kind's ids ignore case. */
export function duplicateIdRule(name: string, ignoreCase: boolean): CrossFileRule<CustomFacts> {
  return defineCrossFileRule<CustomFacts>({
    id: `${name}-duplicate-id`,
    description: `Ids of ${name} documents must be unique`,
    // Examples belong to the built-in kinds; a configured kind's documents are the team's own.
    examples: { ok: [], notOk: [] },
    checkAll(entries, report) {
      reportDuplicates(
        entries,
        (f) => f.id,
        (v) => idKey(v.value, ignoreCase),
        (v) => `duplicate id ${quote(v.value)}`,
        (others) => `ids unique across ${name} documents (also in ${others})`,
        report,
      );
    },
  });
}
