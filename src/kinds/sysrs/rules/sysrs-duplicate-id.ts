import { quote } from '../../../model/position.js';
import { reportDuplicates } from '../../../engine/groups.js';
import { defineCrossFileRule } from '../../../engine/rule.js';
import type { SysrsFacts } from '../parse.js';

const A = '---\nid: 3f2b8c1e-5d4a-4e2f-9b6c-1a2b3c4d5e6f\n---\n';
const B = '---\nid: d74731c5-6668-43e0-99e9-ce36793e8e67\n---\n';

export const sysrsDuplicateId = defineCrossFileRule<SysrsFacts>({
  id: 'sysrs-duplicate-id',
  description: 'SysRS ids must be unique across documents',
  examples: {
    ok: [{ path: 'docs/sysrs/order-intake.md', text: A, others: { 'docs/sysrs/billing.md': B, 'docs/sysrs/de/order-intake.md': A } }],
    notOk: [
      {
        path: 'docs/sysrs/order-intake.md',
        text: A,
        others: { 'docs/sysrs/billing.md': A },
        expected: ['2:5 Unexpected duplicate id `3f2b8c1e-5d4a-4e2f-9b6c-1a2b3c4d5e6f`, expected ids unique across documents (also in docs/sysrs/billing.md)'],
      },
    ],
  },
  checkAll(entries, report) {
    // A variant shares its source's id: only English documents take part.
    reportDuplicates(
      entries.filter((e) => e.facts.lang === null),
      (f) => f.id,
      (v) => v.value,
      (v) => `duplicate id ${quote(v.value)}`,
      (others) => `ids unique across documents (also in ${others})`,
      report,
    );
  },
});
