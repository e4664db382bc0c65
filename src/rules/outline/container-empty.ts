import type { OutlineRuleTemplate } from './outline-rule.js';
import { hashes, headingOf, orList, wantedBlock } from './messages.js';

export const containerEmptyOutline: OutlineRuleTemplate = {
  suffix: 'container-empty',
  description: 'A container with `minChildren` (Requirements) has that many sub-sections.',
  examples: {
    ok: [
      {
        path: 'docs/sysrs/order-intake.md',
        text: '---\nid: 3f2b8c1e-5d4a-4e2f-9b6c-1a2b3c4d5e6f\n---\n\n# System Requirements Specification: Order Intake\n\n## Requirements\n\n### Functional Suitability\n\n- REQ 5c2b297c-1cda-4b00-bd03-bd9dd082cd1c: Accept orders\n',
      },
    ],
    notOk: [
      {
        path: 'docs/sysrs/order-intake.md',
        text: '---\nid: 3f2b8c1e-5d4a-4e2f-9b6c-1a2b3c4d5e6f\n---\n\n# System Requirements Specification: Order Intake\n\n## Requirements\n\nNone yet.\n',
        expected: [
          '7:1 Unexpected `## Requirements` without a sub-section, expected at least one of `### Functional Suitability`, `### Performance Efficiency`, `### Compatibility`, `### Interaction Capability`, `### Reliability`, `### Security`, `### Maintainability`, `### Flexibility` or `### Safety`',
        ],
      },
    ],
  },
  outline(model, report) {
    for (const c of model.containers) {
      const { node } = c;
      if (c.present >= node.minChildren) continue;
      const at = wantedBlock(model, report, c.block);
      if (at === null) continue;
      const subs = orList(node.children.map((child) => hashes(node.level + 1, child.display)));
      const what = node.minChildren === 1 ? 'at least one of' : `at least ${node.minChildren} of`;
      report(at, `${headingOf(node)} without a sub-section`, `${what} ${subs}`);
    }
  },
};
