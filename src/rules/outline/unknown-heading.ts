import type { OutlineRuleTemplate } from './outline-rule.js';

export const unknownHeadingOutline: OutlineRuleTemplate = {
  suffix: 'unknown-heading',
  description: 'Every structural heading is one of the outline, at its level, in its parent (exact text).',
  examples: {
    ok: [{ path: 'docs/sysrs/order-intake.md', text: '---\nid: 3f2b8c1e-5d4a-4e2f-9b6c-1a2b3c4d5e6f\n---\n\n# System Requirements Specification: Order Intake\n\n## System Purpose\n\nTake orders.\n' }],
    notOk: [{ path: 'docs/sysrs/order-intake.md', text: '---\nid: 3f2b8c1e-5d4a-4e2f-9b6c-1a2b3c4d5e6f\n---\n\n# System Requirements Specification: Order Intake\n\n## System purpose\n\nTake orders.\n', expected: ['7:1 Unexpected heading `## System purpose`, expected `## System Purpose` (headings match exactly)'] }],
  },
};
