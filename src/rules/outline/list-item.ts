import type { OutlineRuleTemplate } from './outline-rule.js';
import { itemTemplate, quoteLine, wantedLine } from './messages.js';

export const listItemOutline: OutlineRuleTemplate = {
  suffix: 'list-item',
  description: 'A bullet of a list section reads `- <TAG> <uuid>: <title>` (a bullets section: `- <text>`).',
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
        text: '---\nid: 3f2b8c1e-5d4a-4e2f-9b6c-1a2b3c4d5e6f\n---\n\n# System Requirements Specification: Order Intake\n\n## Risks\n\n- Peak load\n',
        expected: ['9:1 Unexpected bullet `Peak load`, expected `- RSK <uuid>: <title>`'],
      },
    ],
  },
  outline(model, report) {
    for (const list of model.lists) {
      let template: string | undefined;
      for (const bullet of list.bullets) {
        const { form } = bullet;
        if (form === 'item' || form === 'reference') continue;
        // At the bullet's marker.
        const at = wantedLine(model, report, bullet.line0);
        if (at === null) continue;
        template ??= itemTemplate(list.node);
        if (form === 'numbered') report(at, `numbered item ${quoteLine(model.text.line(bullet.line0))}`, `a bullet ${template}`);
        else if (form === 'no-text') report(at, 'bullet without text', template);
        else report(at, `bullet ${quoteLine(bullet.text)}${form === 'untitled' ? ' without a title' : ''}`, template);
      }
    }
  },
};
