import { formatBytes } from '../../../model/text.js';
import { exampleFiles } from './template.js';
import type { KindRuleTemplate } from './template.js';

const others = exampleFiles('    body: {maxBytes: 16}\n');

export const bodyBytes: KindRuleTemplate = {
  suffix: 'body-bytes',
  description: 'The body has at most `body.maxBytes` bytes (UTF-8); reported at the line holding the first byte past the limit',
  severity: 'warning',
  examples: {
    ok: [{ path: 'skills/pdf/SKILL.md', text: '---\nname: pdf\ndescription: Reads PDF files.\n---\n\nUse it on PDFs.\n', others }],
    notOk: [
      {
        path: 'skills/pdf/SKILL.md',
        text: '---\nname: pdf\ndescription: Reads PDF files.\n---\n\nUse it on PDFs.\nAsk first.\n',
        others,
        expected: ['6:1 Unexpected body of 28 bytes, expected at most 16 bytes'],
      },
    ],
  },
  document(p, report) {
    const t = p.tooManyBytes;
    if (t) report(t.at, `body of ${formatBytes(t.bytes)} bytes`, `at most ${formatBytes(t.max)} bytes`);
  },
};
