import { quote } from '../../../model/position.js';
import { defineRule } from '../../../engine/rule.js';

export const templateExamplesBullet = defineRule({
  id: 'template-examples-bullet',
  description: 'Template examples must be `- <example>` bullets',
  examples: {
    ok: [{ path: 'templates/power/readme.txt', text: 'framework: POWER\nexamples:\n- README with installation steps\n' }],
    notOk: [
      {
        path: 'templates/power/readme.txt',
        text: 'framework: POWER\nexamples:\nREADME with installation steps\n',
        expected: ['3:1 Unexpected example line `README with installation steps`, expected a bullet `- <example>`'],
      },
    ],
  },
  fields(f, report) {
    for (const l of f.byKey.get('examples')?.lines ?? []) {
      if (l.text.trim() !== '' && !/^- \S/.test(l.text))
        report({ line: l.line, column: l.column }, `example line ${quote(l.text.trim())}`, 'a bullet `- <example>`');
    }
  },
});
