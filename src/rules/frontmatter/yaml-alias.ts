import { defineRule } from '../../engine/rule.js';

export const yamlAlias = defineRule({
  id: 'yaml-alias',
  description: 'Frontmatter must not use YAML anchors and aliases',
  examples: {
    ok: [{ path: 'processes/deploy.md', text: '---\nname: Deploy\n---\n\n# Deploy\n' }],
    notOk: [
      {
        path: 'processes/deploy.md',
        text: '---\na: &a [x, x, x, x, x, x, x, x, x, x]\nb: &b [*a, *a, *a, *a, *a, *a, *a, *a, *a, *a]\nc: [*b, *b, *b, *b, *b, *b, *b, *b, *b, *b]\n---\n\n# Deploy\n',
        expected: ['3:8 Unexpected alias expansion beyond 100 nodes, expected frontmatter without an alias bomb'],
      },
    ],
  },
  frontmatter(fm, report) {
    for (const i of fm.issues) {
      if (i.type === 'alias-bomb') report(i.at, `alias expansion beyond ${i.max} nodes`, 'frontmatter without an alias bomb');
    }
  },
});
