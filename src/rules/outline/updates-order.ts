import type { OutlineRuleTemplate } from './outline-rule.js';
import { wantedLine } from './messages.js';

export const updatesOrderOutline: OutlineRuleTemplate = {
  suffix: 'updates-order',
  description: 'Updates entries are newest first.',
  examples: {
    ok: [{ path: 'docs/sysrs/order-intake.md', text: '---\nid: 3f2b8c1e-5d4a-4e2f-9b6c-1a2b3c4d5e6f\n---\n\n# System Requirements Specification: Order Intake\n\n## Updates\n\n### 2025-11-03 09:00:00.000Z - Review\n\nReviewed.\n\n### 2025-11-02 07:34:29.518Z - First draft\n\nWritten.\n' }],
    notOk: [{ path: 'docs/sysrs/order-intake.md', text: '---\nid: 3f2b8c1e-5d4a-4e2f-9b6c-1a2b3c4d5e6f\n---\n\n# System Requirements Specification: Order Intake\n\n## Updates\n\n### 2025-11-02 07:34:29.518Z - First draft\n\nWritten.\n\n### 2025-11-03 09:00:00.000Z - Review\n\nReviewed.\n', expected: ['13:5 Unexpected `2025-11-03 09:00:00.000Z` after the older `2025-11-02 07:34:29.518Z`, expected newest first'] }],
  },
  outline(model, report) {
    for (const u of model.updates) {
      let previous: { instant: number; written: string } | undefined;
      for (const e of u.entries) {
        if (e.form !== 'entry') continue;
        if (previous !== undefined && e.instant > previous.instant) {
          const at = wantedLine(model, report, model.blocks[e.block]!.line0, e.textColumn);
          if (at !== null) report(at, `\`${e.written}\` after the older \`${previous.written}\``, 'newest first');
        }
        previous = e;
      }
    }
  },
};
