import { quote } from '../../../model/position.js';
import { defineCrossFileRule } from '../../../engine/rule.js';
import { sourceOf } from '../parse.js';
import type { SysrsFacts } from '../parse.js';

const A = '---\nid: 3f2b8c1e-5d4a-4e2f-9b6c-1a2b3c4d5e6f\n---\n';
const B = '---\nid: d74731c5-6668-43e0-99e9-ce36793e8e67\n---\n';

export const sysrsVariantId = defineCrossFileRule<SysrsFacts>({
  id: 'sysrs-variant-id',
  description: 'A SysRS variant must share the id of its source',
  examples: {
    ok: [{ path: 'docs/sysrs/de/order-intake.md', text: A, others: { 'docs/sysrs/order-intake.md': A } }],
    notOk: [
      {
        path: 'docs/sysrs/de/order-intake.md',
        text: B,
        others: { 'docs/sysrs/order-intake.md': A },
        expected: [
          '2:5 Unexpected id `d74731c5-6668-43e0-99e9-ce36793e8e67`, expected the id of docs/sysrs/order-intake.md `3f2b8c1e-5d4a-4e2f-9b6c-1a2b3c4d5e6f`',
        ],
      },
    ],
  },
  checkAll(entries, report) {
    const english = new Map(entries.filter((e) => e.facts.lang === null).map((e) => [e.path, e]));
    for (const v of entries) {
      if (v.facts.lang === null || v.facts.id === null) continue;
      const path = sourceOf(v.path, v.facts.lang);
      const source = english.get(path)?.facts.id;
      if (source && source.value !== v.facts.id.value) report(v.path, v.facts.id, `id ${quote(v.facts.id.value)}`, `the id of ${path} \`${source.value}\``);
    }
  },
});
