import type { OutlineRuleTemplate } from './outline-rule.js';
import { describe, entryFormat, wantedBlock } from './messages.js';

export const updatesContentOutline: OutlineRuleTemplate = {
  suffix: 'updates-content',
  description: 'Before its first entry, Updates holds only HTML comments.',
  examples: {
    ok: [
      {
        path: 'docs/sysrs/order-intake.md',
        text: '---\nid: 3f2b8c1e-5d4a-4e2f-9b6c-1a2b3c4d5e6f\n---\n\n# System Requirements Specification: Order Intake\n\n## Updates\n\n<!-- newest first -->\n\n### 2025-11-02 07:34:29.518Z - First draft\n\nWritten.\n',
      },
    ],
    notOk: [
      {
        path: 'docs/sysrs/order-intake.md',
        text: '---\nid: 3f2b8c1e-5d4a-4e2f-9b6c-1a2b3c4d5e6f\n---\n\n# System Requirements Specification: Order Intake\n\n## Updates\n\nChanges below.\n\n### 2025-11-02 07:34:29.518Z - First draft\n\nWritten.\n',
        expected: ['9:1 Unexpected text `Changes below.` before the first entry, expected an HTML comment or `### YYYY-MM-DD HH:MM:SS.mmmZ - <title>`'],
      },
    ],
  },
  outline(model, report) {
    for (const u of model.updates) {
      if (u.stray < 0) continue;
      const at = wantedBlock(model, report, u.stray);
      if (at !== null) report(at, `${describe(model, model.blocks[u.stray]!)} before the first entry`, `an HTML comment or ${entryFormat(u.level)}`);
    }
  },
};
