import type { OutlineRuleTemplate } from './outline-rule.js';
import { hashes, wantedBlock } from './messages.js';

export const h1DuplicateOutline: OutlineRuleTemplate = {
  suffix: 'h1-duplicate',
  description: 'The body has a single H1.',
  examples: {
    ok: [
      { path: 'docs/sysrs/order-intake.md', text: '---\nid: 3f2b8c1e-5d4a-4e2f-9b6c-1a2b3c4d5e6f\n---\n\n# System Requirements Specification: Order Intake\n' },
    ],
    notOk: [
      {
        path: 'docs/sysrs/order-intake.md',
        text: '---\nid: 3f2b8c1e-5d4a-4e2f-9b6c-1a2b3c4d5e6f\n---\n\n# System Requirements Specification: Order Intake\n\n# System Requirements Specification: Again\n',
        expected: ['7:1 Unexpected second H1 `# System Requirements Specification: Again`, expected a single H1'],
      },
    ],
  },
  outline(model, report) {
    for (let i = 1; i < model.h1s.length; i++) {
      const block = model.h1s[i]!;
      const at = wantedBlock(model, report, block);
      if (at !== null) report(at, `second H1 ${hashes(1, model.blocks[block]!.text)}`, 'a single H1');
    }
  },
};
