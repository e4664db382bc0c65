import { exampleFiles } from './template.js';
import type { KindRuleTemplate } from './template.js';

const others = exampleFiles('    body: {required: true}\n');

export const bodyRequired: KindRuleTemplate = {
  suffix: 'body-required',
  description: 'The body after the frontmatter has more than white space (`body.required`)',
  severity: 'error',
  examples: {
    ok: [{ path: 'skills/pdf/SKILL.md', text: '---\nname: pdf\ndescription: Reads PDF files.\n---\n\nUse it on PDFs.\n', others }],
    notOk: [
      {
        path: 'skills/pdf/SKILL.md',
        text: '---\nname: pdf\ndescription: Reads PDF files.\n---\n\n',
        others,
        expected: ['5:1 Unexpected empty body, expected markdown content after the frontmatter'],
      },
    ],
  },
  document(p, report) {
    if (p.emptyBodyAt) report(p.emptyBodyAt, 'empty body', 'markdown content after the frontmatter');
  },
};
