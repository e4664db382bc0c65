import type { OutlineRuleTemplate } from './outline-rule.js';

export const h1Outline: OutlineRuleTemplate = {
  suffix: 'h1',
  description: 'The body has an H1 `# <prefix><title>` with the (translated) prefix and a title.',
  examples: {
    ok: [{ path: 'docs/sysrs/order-intake.md', text: '---\nid: 3f2b8c1e-5d4a-4e2f-9b6c-1a2b3c4d5e6f\n---\n\n# System Requirements Specification: Order Intake\n' }],
    notOk: [{ path: 'docs/sysrs/order-intake.md', text: '---\nid: 3f2b8c1e-5d4a-4e2f-9b6c-1a2b3c4d5e6f\n---\n\n# Order Intake\n', expected: ['5:1 Unexpected H1 `# Order Intake`, expected `# System Requirements Specification: <title>`'] }],
  },
};
