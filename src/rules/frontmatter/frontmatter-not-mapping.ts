import { quote } from '../../model/position.js';
import { defineRule } from '../../engine/rule.js';

export const frontmatterNotMapping = defineRule({
  id: 'frontmatter-not-mapping',
  description: 'Frontmatter must be a YAML mapping',
  examples: {
    ok: [{ path: 'processes/deploy.md', text: '---\nname: Deploy\n---\n\n# Deploy\n' }],
    notOk: [
      {
        path: 'processes/deploy.md',
        text: '---\n- name\n- Deploy\n---\n\n# Deploy\n',
        expected: ['2:1 Unexpected a sequence as frontmatter, expected a mapping of keys to values'],
      },
      {
        path: 'processes/deploy.md',
        text: '---\nDeploy\n---\n\n# Deploy\n',
        expected: ['2:1 Unexpected the scalar `Deploy` as frontmatter, expected a mapping of keys to values'],
      },
    ],
  },
  frontmatter(fm, report) {
    for (const i of fm.issues) {
      if (i.type !== 'not-mapping') continue;
      const what = 'sequence' in i.what ? 'a sequence' : 'scalar' in i.what ? `the scalar ${quote(i.what.scalar)}` : 'a non-mapping value';
      report(i.at, `${what} as frontmatter`, 'a mapping of keys to values');
    }
  },
});
