import { FILE_START } from '../../../model/position.js';
import { defineCrossFileRule } from '../../../engine/rule.js';
import { sourceOf } from '../parse.js';
import type { SysrsFacts } from '../parse.js';

const A = '---\nid: 3f2b8c1e-5d4a-4e2f-9b6c-1a2b3c4d5e6f\n---\n';

export const sysrsVariantSource = defineCrossFileRule<SysrsFacts>({
  id: 'sysrs-variant-source',
  description: 'A SysRS variant must have an English source with the same file name',
  examples: {
    ok: [{ path: 'docs/sysrs/de/order-intake.md', text: A, others: { 'docs/sysrs/order-intake.md': A } }],
    notOk: [
      {
        path: 'docs/sysrs/de/order-intake.md',
        text: A,
        others: { 'docs/sysrs/orders.md': A },
        expected: ['1:1 Unexpected language variant without an English source, expected docs/sysrs/order-intake.md'],
      },
    ],
  },
  checkAll(entries, report) {
    const paths = new Set(entries.filter((e) => e.facts.lang === null).map((e) => e.path));
    for (const v of entries) {
      if (v.facts.lang === null) continue;
      const source = sourceOf(v.path, v.facts.lang);
      if (!paths.has(source)) report(v.path, FILE_START, 'language variant without an English source', source);
    }
  },
});
