import type { OutlineRuleTemplate } from './outline-rule.js';

export const updatesEmptyOutline: OutlineRuleTemplate = {
  suffix: 'updates-empty',
  description: 'An Updates entry has content.',
  examples: {
    ok: [{ path: 'docs/sysrs/order-intake.md', text: '---\nid: 3f2b8c1e-5d4a-4e2f-9b6c-1a2b3c4d5e6f\n---\n\n# System Requirements Specification: Order Intake\n\n## Updates\n\n### 2025-11-02 07:34:29.518Z - First draft\n\nWritten.\n' }],
    notOk: [{ path: 'docs/sysrs/order-intake.md', text: '---\nid: 3f2b8c1e-5d4a-4e2f-9b6c-1a2b3c4d5e6f\n---\n\n# System Requirements Specification: Order Intake\n\n## Updates\n\n### 2025-11-02 07:34:29.518Z - First draft\n', expected: ['9:1 Unexpected empty entry `### 2025-11-02 07:34:29.518Z - First draft`, expected content below it'] }],
  },
};
