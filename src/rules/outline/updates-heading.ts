import type { OutlineRuleTemplate } from './outline-rule.js';

export const updatesHeadingOutline: OutlineRuleTemplate = {
  suffix: 'updates-heading',
  description: 'An Updates entry heading reads `### YYYY-MM-DD HH:MM:SS.mmm(Z|±HH:MM) - <title>` (or ` : `).',
  examples: {
    ok: [{ path: 'docs/sysrs/order-intake.md', text: '---\nid: 3f2b8c1e-5d4a-4e2f-9b6c-1a2b3c4d5e6f\n---\n\n# System Requirements Specification: Order Intake\n\n## Updates\n\n### 2025-11-02 07:34:29.518Z - First draft\n\nWritten.\n' }],
    notOk: [{ path: 'docs/sysrs/order-intake.md', text: '---\nid: 3f2b8c1e-5d4a-4e2f-9b6c-1a2b3c4d5e6f\n---\n\n# System Requirements Specification: Order Intake\n\n## Updates\n\n### 2025-11-02 - First draft\n\nWritten.\n', expected: ['9:5 Unexpected date-only timestamp `2025-11-02`, expected `YYYY-MM-DD HH:MM:SS.mmm` then `Z` or `±HH:MM`'] }],
  },
};
