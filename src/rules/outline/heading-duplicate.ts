import type { OutlineRuleTemplate } from './outline-rule.js';
import { hashes, wantedBlock } from './messages.js';

export const headingDuplicateOutline: OutlineRuleTemplate = {
  suffix: 'heading-duplicate',
  description: 'A section appears at most once.',
  examples: {
    ok: [
      {
        path: 'docs/sysrs/order-intake.md',
        text: '---\nid: 3f2b8c1e-5d4a-4e2f-9b6c-1a2b3c4d5e6f\n---\n\n# System Requirements Specification: Order Intake\n\n## System Purpose\n\nTake orders.\n',
      },
    ],
    notOk: [
      {
        path: 'docs/sysrs/order-intake.md',
        text: '---\nid: 3f2b8c1e-5d4a-4e2f-9b6c-1a2b3c4d5e6f\n---\n\n# System Requirements Specification: Order Intake\n\n## System Purpose\n\nTake orders.\n\n## System Purpose\n\nAgain.\n',
        expected: ['11:1 Unexpected second `## System Purpose`, expected each section once'],
      },
    ],
  },
  outline(model, report) {
    for (const scan of model.levels) {
      for (const f of scan.headings) {
        if (f.state !== 'repeated') continue;
        const at = wantedBlock(model, report, f.block);
        if (at !== null) report(at, `second ${hashes(scan.level, model.blocks[f.block]!.text)}`, 'each section once');
      }
    }
  },
};
