import type { OutlineRuleTemplate } from './outline-rule.js';
import { headingOf, itemTemplate, wantedBlock } from './messages.js';

export const listEmptyOutline: OutlineRuleTemplate = {
  suffix: 'list-empty',
  description: 'A list or bullets section holds at least one bullet.',
  examples: {
    ok: [
      {
        path: 'docs/sysrs/order-intake.md',
        text: '---\nid: 3f2b8c1e-5d4a-4e2f-9b6c-1a2b3c4d5e6f\n---\n\n# System Requirements Specification: Order Intake\n\n## References\n\n- RFC 2119\n',
      },
    ],
    notOk: [
      {
        path: 'docs/sysrs/order-intake.md',
        text: '---\nid: 3f2b8c1e-5d4a-4e2f-9b6c-1a2b3c4d5e6f\n---\n\n# System Requirements Specification: Order Intake\n\n## References\n\nNone.\n',
        expected: ['7:1 Unexpected empty `## References`, expected at least one bullet `- <reference>`'],
      },
    ],
  },
  outline(model, report) {
    for (const list of model.lists) {
      if (list.bullets.length > 0) continue;
      const at = wantedBlock(model, report, list.block);
      if (at !== null) report(at, `empty ${headingOf(list.node)}`, `at least one bullet ${itemTemplate(list.node)}`);
    }
  },
};
