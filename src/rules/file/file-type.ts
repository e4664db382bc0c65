import { FILE_START } from '../../model/position.js';
import { defineRule } from '../../engine/rule.js';

/** Never opened: an entry named like a document that is a folder. */
export const fileType = defineRule({
  id: 'file-type',
  description: 'A name matching a document must be a regular file',
  fileLevel: true,
  examples: {
    ok: [{ path: 'frameworks/POWER.md', text: '# POWER\n' }],
    notOk: [
      {
        path: 'processes/deploy.md',
        text: { entry: 'directory' },
        shown: 'a folder named processes/deploy.md',
        expected: ['1:1 Unexpected directory named like a document, expected a regular file'],
      },
    ],
  },
  file(stage, report) {
    if (stage.problem?.type === 'directory') report(FILE_START, 'directory named like a document', 'a regular file');
  },
});
