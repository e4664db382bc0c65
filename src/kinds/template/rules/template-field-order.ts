import { defineRule } from '../../../engine/rule.js';
import type { TemplateParse } from '../parse.js';

export const templateFieldOrder = defineRule<TemplateParse>({
  id: 'template-field-order',
  description: 'Template fields must appear in the order of the schema',
  examples: {
    ok: [{ path: 'templates/power/readme.txt', text: 'framework: POWER\npurpose: Generate README.md.\noutput: README.md with a header.\n' }],
    notOk: [
      {
        path: 'templates/power/readme.txt',
        text: 'framework: POWER\noutput: README.md with a header.\npurpose: Generate README.md.\n',
        expected: ['3:1 Unexpected field `purpose` after `output`, expected the order framework, purpose, output, work, examples, requirements, save_as, store_as'],
      },
    ],
  },
  document(p, report) {
    // The order of the schema's `properties` is the order of the fields (JSON keeps key order).
    let highest = -1;
    let highestKey = '';
    for (const f of p.fields.byKey.values()) {
      const idx = p.order.indexOf(f.key);
      if (idx === -1) continue;
      if (idx < highest) report(f.keyPos, `field \`${f.key}\` after \`${highestKey}\``, `the order ${p.order.join(', ')}`);
      else {
        highest = idx;
        highestKey = f.key;
      }
    }
  },
});
