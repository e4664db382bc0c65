import type { OutlineRuleTemplate } from './outline-rule.js';
import { itemColumns, itemLine } from '../../parse/outline/build.js';
import { wantedLine } from './messages.js';
import { UUID_ANY_CASE, isLowercaseUuid } from '../../model/uuid.js';

export const listUuidOutline: OutlineRuleTemplate = {
  suffix: 'list-uuid',
  description: "A bullet's id is a lowercase canonical UUID.",
  fixable: true,
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
        text: '---\nid: 3f2b8c1e-5d4a-4e2f-9b6c-1a2b3c4d5e6f\n---\n\n# System Requirements Specification: Order Intake\n\n## Risks\n\n- RSK 5C2B297C-1CDA-4B00-BD03-BD9DD082CD1C: Peak load\n',
        expected: ['9:7 Unexpected uppercase UUID `5C2B297C-1CDA-4B00-BD03-BD9DD082CD1C`, expected a lowercase UUID'],
        output:
          '---\nid: 3f2b8c1e-5d4a-4e2f-9b6c-1a2b3c4d5e6f\n---\n\n# System Requirements Specification: Order Intake\n\n## Risks\n\n- RSK 5c2b297c-1cda-4b00-bd03-bd9dd082cd1c: Peak load\n',
      },
    ],
  },
  outline(model, report) {
    for (const list of model.lists) {
      for (const bullet of list.bullets) {
        const entry = bullet.entry;
        if (entry === null || isLowercaseUuid(entry.id)) continue;
        const at = wantedLine(model, report, itemLine(bullet), () => itemColumns(model.text, bullet).id);
        if (at === null) continue;
        // The same UUID in lowercase (RFC 9562 compares UUIDs case-insensitively): the id on disk, when it is written there as parsed.
        const written = model.text.line(itemLine(bullet)).slice(at.column - 1, at.column - 1 + entry.id.length) === entry.id;
        const fix = written
          ? { fix: { line: at.line, column: at.column, endLine: at.line, endColumn: at.column + entry.id.length, text: entry.id.toLowerCase() } }
          : undefined;
        if (UUID_ANY_CASE.test(entry.id)) report(at, `uppercase UUID \`${entry.id}\``, 'a lowercase UUID', fix);
        else report(at, `ID \`${entry.id}\``, 'a lowercase UUID like `xxxxxxxx-xxxx-xxxx-xxxx-xxxxxxxxxxxx`');
      }
    }
  },
};
