import type { OutlineRuleTemplate } from './outline-rule.js';
import { describe, h1Wanted, wantedBlock } from './messages.js';

export const h1FirstOutline: OutlineRuleTemplate = {
  suffix: 'h1-first',
  description: 'Nothing comes before the H1.',
  examples: {
    ok: [
      {
        path: 'docs/sysrs/order-intake.md',
        text: '---\nid: 3f2b8c1e-5d4a-4e2f-9b6c-1a2b3c4d5e6f\n---\n\n# System Requirements Specification: Order Intake\n\nIntro.\n',
      },
    ],
    notOk: [
      {
        path: 'docs/sysrs/order-intake.md',
        text: '---\nid: 3f2b8c1e-5d4a-4e2f-9b6c-1a2b3c4d5e6f\n---\n\nIntro.\n\n# System Requirements Specification: Order Intake\n',
        expected: ['5:1 Unexpected text `Intro.` before the H1, expected `# System Requirements Specification: <title>` first'],
      },
    ],
  },
  outline(model, report) {
    const first = model.h1s[0];
    if (first === undefined || first === 0) return;
    const at = wantedBlock(model, report, 0);
    if (at !== null) report(at, `${describe(model, model.blocks[0]!)} before the H1`, `${h1Wanted(model)} first`);
  },
};
