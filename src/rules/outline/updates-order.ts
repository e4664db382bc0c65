import type { OutlineRuleTemplate } from './outline-rule.js';
import { lineOfBlock, replaceLines, sectionEnd, wantedLine } from './messages.js';
import type { Fix } from '../../engine/rule.js';
import type { OutlineModel, UpdatesCheck } from '../../parse/outline/model.js';

export const updatesOrderOutline: OutlineRuleTemplate = {
  suffix: 'updates-order',
  description: 'Updates entries are newest first.',
  fixable: true,
  examples: {
    ok: [
      {
        path: 'docs/sysrs/order-intake.md',
        text: '---\nid: 3f2b8c1e-5d4a-4e2f-9b6c-1a2b3c4d5e6f\n---\n\n# System Requirements Specification: Order Intake\n\n## Updates\n\n### 2025-11-03 09:00:00.000Z - Review\n\nReviewed.\n\n### 2025-11-02 07:34:29.518Z - First draft\n\nWritten.\n',
      },
    ],
    notOk: [
      {
        path: 'docs/sysrs/order-intake.md',
        text: '---\nid: 3f2b8c1e-5d4a-4e2f-9b6c-1a2b3c4d5e6f\n---\n\n# System Requirements Specification: Order Intake\n\n## Updates\n\n### 2025-11-02 07:34:29.518Z - First draft\n\nWritten.\n\n### 2025-11-03 09:00:00.000Z - Review\n\nReviewed.\n',
        expected: ['13:5 Unexpected `2025-11-03 09:00:00.000Z` after the older `2025-11-02 07:34:29.518Z`, expected newest first'],
        output:
          '---\nid: 3f2b8c1e-5d4a-4e2f-9b6c-1a2b3c4d5e6f\n---\n\n# System Requirements Specification: Order Intake\n\n## Updates\n\n### 2025-11-03 09:00:00.000Z - Review\n\nReviewed.\n\n### 2025-11-02 07:34:29.518Z - First draft\n\nWritten.\n',
      },
    ],
  },
  outline(model, report) {
    for (const u of model.updates) {
      let fix: Fix | null | undefined;
      let previous: { instant: number; written: string } | undefined;
      for (const e of u.entries) {
        if (e.form !== 'entry') continue;
        if (previous !== undefined && e.instant > previous.instant) {
          const at = wantedLine(model, report, model.blocks[e.block]!.line0, e.textColumn);
          if (at !== null) {
            if (fix === undefined) fix = sorted(model, u);
            report(at, `\`${e.written}\` after the older \`${previous.written}\``, 'newest first', fix ? { fix } : undefined);
          }
        }
        previous = e;
      }
    }
  },
};

/**
 * The fix: the entries (each its heading and what follows it) sorted newest first, stable among equal
 * instants. Null when an entry's heading is not a valid entry: its place cannot be known.
 */
function sorted(model: OutlineModel, u: UpdatesCheck): Fix | null {
  if (u.entries.some((e) => e.form !== 'entry')) return null;
  const starts = u.entries.map((e) => lineOfBlock(model, e.block));
  const end = sectionEnd(model, u.block);
  const parts = u.entries.map((e, k) => ({ instant: e.instant, lines: model.text.lines.slice(starts[k], starts[k + 1] ?? end) }));
  parts.sort((a, b) => b.instant - a.instant);
  return replaceLines(
    model,
    starts[0]!,
    end,
    parts.map((p) => p.lines),
  );
}
