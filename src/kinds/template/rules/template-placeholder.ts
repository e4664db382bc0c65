import { defineCrossFileRule } from '../../../engine/rule.js';
import type { TemplateFacts } from '../parse.js';
import { owners } from '../placeholder-graph.js';

export const templatePlaceholder = defineCrossFileRule<TemplateFacts>({
  id: 'template-placeholder',
  description: 'A `{{<x>_summary}}` placeholder must name the `store_as` of another template',
  examples: {
    ok: [
      {
        path: 'templates/power/api.txt',
        text: 'work: Read {{readme_summary}} first.\n',
        others: { 'templates/power/readme.txt': 'store_as: readme_summary\n' },
      },
    ],
    notOk: [
      {
        path: 'templates/power/api.txt',
        text: 'work: Read {{setup_summary}} first.\n',
        others: { 'templates/power/readme.txt': 'store_as: readme_summary\n' },
        expected: ['1:12 Unexpected placeholder `{{setup_summary}}` that no template stores, expected the `store_as` of another template'],
      },
    ],
  },
  checkAll(entries, report) {
    const byStore = owners(entries);
    for (const t of entries) {
      for (const p of t.facts.placeholders) {
        if (!byStore.has(p.value)) report(t.path, p, `placeholder \`{{${p.value}}}\` that no template stores`, 'the `store_as` of another template');
      }
    }
  },
});
