import { FILE_START } from '../../model/position.js';
import { defineRule } from '../../engine/rule.js';

export const fileBom = defineRule({
  id: 'file-bom',
  description: 'File must be UTF-8 without a byte order mark',
  fileLevel: true,
  fixable: true,
  examples: {
    ok: [{ path: 'frameworks/POWER.md', text: '# POWER\n' }],
    notOk: [
      {
        path: 'frameworks/POWER.md',
        text: '\uFEFF# POWER\n',
        shown: '<U+FEFF># POWER',
        output: '# POWER\n',
        expected: ['1:1 Unexpected byte order mark (BOM), expected UTF-8 without a BOM'],
      },
    ],
  },
  file(stage, report) {
    // The BOM is the first character of the decoded text (U+FEFF at 1:1): removing it keeps every other byte.
    if (stage.decoding?.bom)
      report(FILE_START, 'byte order mark (BOM)', 'UTF-8 without a BOM', { fix: { line: 1, column: 1, endLine: 1, endColumn: 2, text: '' } });
  },
});
