import { defineCrossFileRule } from '../../../engine/rule.js';
import type { TemplateFacts } from '../parse.js';
import { cycleText, cycles } from '../placeholder-graph.js';

export const templatePlaceholderCycle = defineCrossFileRule<TemplateFacts>({
  id: 'template-placeholder-cycle',
  description: 'Template placeholders must not form a cycle',
  examples: {
    ok: [
      {
        path: 'templates/power/api.txt',
        text: 'work: Read {{readme_summary}}.\nstore_as: api_summary\n',
        others: { 'templates/power/readme.txt': 'store_as: readme_summary\n' },
      },
    ],
    notOk: [
      {
        path: 'templates/power/api.txt',
        text: 'work: Read {{readme_summary}}.\nstore_as: api_summary\n',
        others: { 'templates/power/readme.txt': 'work: Read {{api_summary}}.\nstore_as: readme_summary\n' },
        expected: ['1:12 Unexpected placeholder cycle api → readme → api, expected templates to reference each other without a cycle'],
      },
    ],
  },
  checkAll(entries, report) {
    for (const c of cycles(entries)) report(c.entry.path, c.at, `placeholder cycle ${cycleText(c.ids)}`, 'templates to reference each other without a cycle');
  },
});
