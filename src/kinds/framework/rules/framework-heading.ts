import { FILE_START, quote } from '../../../model/position.js';
import { defineRule } from '../../../engine/rule.js';
import type { FrameworkParse } from '../parse.js';

export const frameworkHeading = defineRule<FrameworkParse>({
  id: 'framework-heading',
  description: 'A framework doc must start with a `# ` heading',
  examples: {
    ok: [{ path: 'frameworks/POWER.md', text: '# POWER\n\nPurpose, Output, Work, Examples, Requirements.\n' }],
    notOk: [{ path: 'frameworks/POWER.md', text: 'POWER\n=====\n', expected: ['1:1 Unexpected first line `POWER`, expected a `# ` heading'] }],
  },
  document(p, report) {
    if (p.firstLine !== null && !/^# \S/.test(p.firstLine)) report(FILE_START, `first line ${quote(p.firstLine)}`, 'a `# ` heading');
  },
});
