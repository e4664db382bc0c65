import { FILE_START } from '../../../model/position.js';
import { defineRule } from '../../../engine/rule.js';
import type { FrameworkParse } from '../parse.js';

export const fileEmpty = defineRule<FrameworkParse>({
  id: 'file-empty',
  description: 'File must not be empty',
  examples: {
    ok: [{ path: 'frameworks/POWER.md', text: '# POWER\n' }],
    notOk: [{ path: 'frameworks/POWER.md', text: '\n', expected: ['1:1 Unexpected empty file, expected a document starting with a `# ` heading'] }],
  },
  document(p, report) {
    if (p.empty) report(FILE_START, 'empty file', 'a document starting with a `# ` heading');
  },
});
