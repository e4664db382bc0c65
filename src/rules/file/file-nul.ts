import { defineRule } from '../../engine/rule.js';

export const fileNul = defineRule({
  id: 'file-nul',
  description: 'File must not contain NUL bytes',
  fileLevel: true,
  examples: {
    ok: [{ path: 'frameworks/POWER.md', text: '# POWER\n' }],
    notOk: [
      { path: 'frameworks/POWER.md', text: '# POWER\n\0\n', shown: '# POWER\n<NUL>', expected: ['2:1 Unexpected NUL byte, expected text without NUL bytes'] },
    ],
  },
  file(stage, report) {
    const at = stage.decoding?.nul;
    if (at) report(at, 'NUL byte', 'text without NUL bytes');
  },
});
