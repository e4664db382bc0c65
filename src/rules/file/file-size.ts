import { FILE_START } from '../../model/position.js';
import { formatBytes } from '../../model/text.js';
import { defineRule } from '../../engine/rule.js';

export const fileSize = defineRule({
  id: 'file-size',
  description: 'File must stay under the size limit of its kind',
  fileLevel: true,
  examples: {
    ok: [{ path: 'frameworks/POWER.md', text: '# POWER\n' }],
    notOk: [
      {
        path: 'templates/power/readme.txt',
        text: 'x'.repeat(51_200),
        shown: '51,200 bytes of text',
        expected: ['1:1 Unexpected file size 51,200 bytes, expected less than 51,200 bytes'],
      },
      {
        path: 'processes/deploy.md',
        text: `---\nname: Deploy\n${'#'.repeat(65_536)}\n---\n\n# Deploy\n`,
        shown: 'frontmatter of 65,550 characters',
        expected: ['2:1 Unexpected frontmatter of 65,550 characters, expected at most 65,536 characters of YAML'],
      },
    ],
  },
  file(stage, report) {
    const p = stage.problem;
    if (p?.type === 'too-large') report(FILE_START, `file size ${formatBytes(p.size)} bytes`, `less than ${formatBytes(p.limit)} bytes`);
  },
  frontmatter(fm, report) {
    for (const i of fm.issues) {
      if (i.type === 'too-long') report(i.at, `frontmatter of ${formatBytes(i.length)} characters`, `at most ${formatBytes(i.max)} characters of YAML`);
    }
  },
});
