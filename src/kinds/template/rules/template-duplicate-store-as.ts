import { quote } from '../../../model/position.js';
import { reportDuplicates } from '../../../engine/groups.js';
import { defineCrossFileRule } from '../../../engine/rule.js';
import type { TemplateFacts } from '../parse.js';

export const templateDuplicateStoreAs = defineCrossFileRule<TemplateFacts>({
  id: 'template-duplicate-store-as',
  description: 'Template `store_as` values must be unique',
  examples: {
    ok: [{ path: 'templates/power/api.txt', text: 'store_as: api_summary\n', others: { 'templates/power/readme.txt': 'store_as: readme_summary\n' } }],
    notOk: [
      {
        path: 'templates/power/api.txt',
        text: 'store_as: readme_summary\n',
        others: { 'templates/power/readme.txt': 'store_as: readme_summary\n' },
        expected: ['1:11 Unexpected duplicate store_as `readme_summary`, expected it unique (also in templates/power/readme.txt)'],
      },
    ],
  },
  checkAll(entries, report) {
    reportDuplicates(
      entries,
      (f) => f.storeAs,
      (v) => v.value,
      (v) => `duplicate store_as ${quote(v.value)}`,
      (others) => `it unique (also in ${others})`,
      report,
    );
  },
});
