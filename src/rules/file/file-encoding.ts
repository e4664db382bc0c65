import { defineRule } from '../../engine/rule.js';

export const fileEncoding = defineRule({
  id: 'file-encoding',
  description: 'File must be valid UTF-8',
  fileLevel: true,
  examples: {
    ok: [{ path: 'frameworks/POWER.md', text: '# POWER: Café\n' }],
    notOk: [
      {
        path: 'frameworks/POWER.md',
        text: { bytes: [0x23, 0x20, 0x43, 0x61, 0x66, 0xe9, 0x0a] },
        shown: '# Caf<0xE9>  (Latin-1 é)',
        expected: ['1:6 Unexpected byte 0xe9 that is not valid UTF-8, expected UTF-8 text'],
      },
    ],
  },
  file(stage, report) {
    const bad = stage.decoding?.invalid;
    if (bad) report(bad.at, `byte ${bad.byte === null ? 'end of file' : `0x${bad.byte.toString(16).padStart(2, '0')}`} that is not valid UTF-8`, 'UTF-8 text');
  },
});
