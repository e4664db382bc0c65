import { FILE_START, quote } from '../../../model/position.js';
import type { KindRuleTemplate } from './template.js';

const others = {
  'docgate.config.yaml':
    'kinds:\n  skill:\n    include: ["skills/*.skill.md"]\n    id: stem\n    frontmatter: none\n    deprecatedInclude:\n      globs: ["skills/*.prompt.md"]\n      message: "a skill file: rename it to `<stem>.skill.md`"\n',
};

export const deprecatedPath: KindRuleTemplate = {
  suffix: 'deprecated-path',
  description: 'A document matched by `deprecatedInclude` is renamed as the kind says',
  severity: 'warning',
  examples: {
    ok: [{ path: 'skills/review.skill.md', text: 'Review the change.\n', others }],
    notOk: [
      {
        path: 'skills/review.prompt.md',
        text: 'Review the change.\n',
        others,
        expected: ['1:1 Unexpected deprecated file name `review.prompt.md`, expected a skill file: rename it to `review.skill.md`'],
      },
    ],
  },
  document(p, report) {
    if (p.deprecated) report(FILE_START, `deprecated file name ${quote(p.deprecated.name)}`, p.deprecated.message);
  },
};
