import { quote } from '../../../model/position.js';
import { defineRule } from '../../../engine/rule.js';

export const templateStrayText = defineRule({
  id: 'template-stray-text',
  description: 'A template must start with its fields; only `#` comments may come before them',
  examples: {
    ok: [{ path: 'templates/power/readme.txt', text: '# NOTE: generated docs live in docs/\nframework: POWER\n', shown: '# NOTE: …\nframework: POWER\n…' }],
    notOk: [
      {
        path: 'templates/power/readme.txt',
        text: 'README template\nframework: POWER\n',
        expected: ['1:1 Unexpected text `README template` before the first field, expected `framework: POWER`'],
      },
    ],
  },
  fields(f, report) {
    for (const s of f.stray) report(s.at, `text ${quote(s.text)} before the first field`, '`framework: POWER`');
  },
});
