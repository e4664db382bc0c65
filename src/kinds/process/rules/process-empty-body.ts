import { defineRule } from '../../../engine/rule.js';
import type { ProcessParse } from '../parse.js';

export const processEmptyBody = defineRule<ProcessParse>({
  id: 'process-empty-body',
  description: 'A process must have a body after its frontmatter',
  examples: {
    ok: [{ path: 'processes/deploy.md', text: '---\nname: Deploy\n---\n\n# Deploy\n\nShip it.\n' }],
    notOk: [
      {
        path: 'processes/deploy.md',
        text: '---\nname: Deploy\n---\n\n',
        expected: ['4:1 Unexpected empty body, expected markdown content after the frontmatter'],
      },
    ],
  },
  document(p, report) {
    if (p.emptyBodyAt) report(p.emptyBodyAt, 'empty body', 'markdown content after the frontmatter');
  },
});
