import type { OutlineRuleTemplate } from './outline-rule.js';
import { hashes, wantedBlock } from './messages.js';

export const updatesEmptyOutline: OutlineRuleTemplate = {
  suffix: 'updates-empty',
  description: 'An Updates entry has content.',
  examples: {
    ok: [
      {
        path: 'docs/sysrs/order-intake.md',
        text: '---\nid: 3f2b8c1e-5d4a-4e2f-9b6c-1a2b3c4d5e6f\n---\n\n# System Requirements Specification: Order Intake\n\n## Updates\n\n### 2025-11-02 07:34:29.518Z - First draft\n\nWritten.\n',
      },
    ],
    notOk: [
      {
        path: 'docs/sysrs/order-intake.md',
        text: '---\nid: 3f2b8c1e-5d4a-4e2f-9b6c-1a2b3c4d5e6f\n---\n\n# System Requirements Specification: Order Intake\n\n## Updates\n\n### 2025-11-02 07:34:29.518Z - First draft\n',
        expected: ['9:1 Unexpected empty entry `### 2025-11-02 07:34:29.518Z - First draft`, expected content below it'],
      },
    ],
  },
  outline(model, report) {
    for (const u of model.updates) {
      for (const e of u.entries) {
        if (!e.empty) continue;
        const at = wantedBlock(model, report, e.block);
        if (at !== null) report(at, `empty entry ${hashes(u.level, model.blocks[e.block]!.text)}`, 'content below it');
      }
    }
  },
};
