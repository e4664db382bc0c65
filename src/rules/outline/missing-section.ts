import type { OutlineRuleTemplate } from './outline-rule.js';
import { hashes, headingOf, reportInstead } from './messages.js';
import { validSysrs } from './valid-sysrs.js';

export const missingSectionOutline: OutlineRuleTemplate = {
  suffix: 'missing-section',
  description: 'Mandatory sections are present.',
  examples: {
    ok: [
      {
        path: 'docs/sysrs/order-intake.md',
        get text() {
          return validSysrs();
        },
        shown: 'a SysRS with every mandatory section',
      },
    ],
    notOk: [
      {
        path: 'docs/sysrs/order-intake.md',
        get text() {
          return validSysrs().replace(/## System Purpose\n[\s\S]*?(?=## System Scope)/, '');
        },
        shown: 'that SysRS without its `## System Purpose` section',
        expected: ['12:1 Unexpected `## System Scope`, expected `## System Purpose`'],
      },
    ],
  },
  outline(model, report) {
    for (const scan of model.levels) {
      const where = scan.parent.level > 1 ? ` in ${headingOf(scan.parent)}` : '';
      // Reported where the section was expected: at the heading that came instead, or where its parent ends.
      for (const m of scan.missing) reportInstead(model, report, m.at, () => `${hashes(scan.level, m.node.display)}${where}`);
    }
  },
};
