import { FILE_START } from '../../core/position.js';
import { defineRule } from '../../engine/rule.js';

export const fileBom = defineRule({
  id: 'file-bom',
  description: 'File must be UTF-8 without a byte order mark',
  fileLevel: true,
  examples: {
    ok: [{ path: 'frameworks/POWER.md', text: '# POWER\n' }],
    notOk: [{ path: 'frameworks/POWER.md', text: '\uFEFF# POWER\n', shown: '<U+FEFF># POWER', expected: ['1:1 Unexpected byte order mark (BOM), expected UTF-8 without a BOM'] }],
  },
  file(stage, report) {
    if (stage.decoding?.bom) report(FILE_START, 'byte order mark (BOM)', 'UTF-8 without a BOM');
  },
});
