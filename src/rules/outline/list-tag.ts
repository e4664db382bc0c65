import type { OutlineRuleTemplate } from './outline-rule.js';
import { itemColumns, itemLine } from '../../parse/outline/build.js';
import { orList, wantedLine } from './messages.js';

export const listTagOutline: OutlineRuleTemplate = {
  suffix: 'list-tag',
  description: "A bullet's tag is one the section allows.",
  examples: {
    ok: [
      {
        path: 'docs/sysrs/order-intake.md',
        text: '---\nid: 3f2b8c1e-5d4a-4e2f-9b6c-1a2b3c4d5e6f\n---\n\n# System Requirements Specification: Order Intake\n\n## Risks\n\n- RSK 5c2b297c-1cda-4b00-bd03-bd9dd082cd1c: Peak load\n',
      },
    ],
    notOk: [
      {
        path: 'docs/sysrs/order-intake.md',
        text: '---\nid: 3f2b8c1e-5d4a-4e2f-9b6c-1a2b3c4d5e6f\n---\n\n# System Requirements Specification: Order Intake\n\n## Risks\n\n- REQ 5c2b297c-1cda-4b00-bd03-bd9dd082cd1c: Peak load\n',
        expected: ['9:3 Unexpected tag `REQ`, expected `RSK`'],
      },
    ],
  },
  outline(model, report) {
    for (const list of model.lists) {
      const { tags } = list.node;
      for (const bullet of list.bullets) {
        const entry = bullet.entry;
        if (entry === null || tags.includes(entry.tag)) continue;
        const at = wantedLine(model, report, itemLine(bullet), () => itemColumns(model.text, bullet).tag);
        if (at !== null) report(at, `tag \`${entry.tag}\``, orList(tags.map((t) => '`' + t + '`')));
      }
    }
  },
};
