import { formatBytes } from '../../../model/text.js';
import { exampleFiles } from './template.js';
import type { KindRuleTemplate } from './template.js';

const others = exampleFiles('    body: {maxLines: 3}\n');

export const bodyLines: KindRuleTemplate = {
  suffix: 'body-lines',
  description: 'The body has at most `body.maxLines` lines; reported at the first line past the limit',
  severity: 'warning',
  examples: {
    ok: [{ path: 'skills/pdf/SKILL.md', text: '---\nname: pdf\ndescription: Reads PDF files.\n---\n\nOne.\nTwo.\n', others }],
    notOk: [
      {
        path: 'skills/pdf/SKILL.md',
        text: '---\nname: pdf\ndescription: Reads PDF files.\n---\n\nOne.\nTwo.\nThree.\n',
        others,
        expected: ['8:1 Unexpected body of 4 lines, expected at most 3 lines'],
      },
    ],
  },
  document(p, report) {
    const t = p.tooManyLines;
    if (t) report(t.at, `body of ${formatBytes(t.lines)} lines`, `at most ${formatBytes(t.max)} lines`);
  },
};
