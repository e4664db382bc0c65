import { FILE_START } from '../../model/position.js';
import { defineRule } from '../../engine/rule.js';

/** Only `lint --staged` meets it: a document whose path is in conflict in the git index has no blob to read. */
export const fileUnmerged = defineRule({
  id: 'file-unmerged',
  description: 'A staged document must not be in conflict',
  fileLevel: true,
  examples: {
    ok: [{ path: 'processes/deploy.md', text: '---\nname: Deploy\ndescription: How we deploy.\n---\n# Deploy\n\nStep one.\n' }],
    notOk: [
      {
        path: 'processes/deploy.md',
        text: { entry: 'unmerged' },
        shown: 'in conflict in the git index after a merge (stages 1–3), linted by lint --staged',
        expected: ['1:1 Unexpected unmerged file, expected a merged file: resolve the conflict first'],
      },
    ],
  },
  file(stage, report) {
    if (stage.problem?.type === 'unmerged') report(FILE_START, 'unmerged file', 'a merged file: resolve the conflict first');
  },
});
