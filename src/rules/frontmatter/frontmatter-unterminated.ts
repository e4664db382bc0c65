import { FILE_START } from '../../model/position.js';
import { defineRule } from '../../engine/rule.js';

export const frontmatterUnterminated = defineRule({
  id: 'frontmatter-unterminated',
  description: 'Frontmatter must be closed by a `---` line',
  examples: {
    ok: [{ path: 'processes/deploy.md', text: '---\nname: Deploy\n---\n\n# Deploy\n' }],
    notOk: [
      {
        path: 'processes/deploy.md',
        text: '---\nname: Deploy\n\n# Deploy\n',
        expected: ['1:1 Unexpected frontmatter without a closing `---` line, expected `---` after the YAML'],
      },
    ],
  },
  frontmatter(fm, report) {
    if (fm.split.unterminated) report(FILE_START, 'frontmatter without a closing `---` line', '`---` after the YAML');
  },
});
