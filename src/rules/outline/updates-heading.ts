import type { OutlineRuleTemplate } from './outline-rule.js';
import type { Fix } from '../../engine/rule.js';
import { entryFormat, hashes, quoteLine, wantedBlock, wantedLine } from './messages.js';

const TIMESTAMP_FORMAT = '`YYYY-MM-DD HH:MM:SS.mmm` then `Z` or `±HH:MM`';

export const updatesHeadingOutline: OutlineRuleTemplate = {
  suffix: 'updates-heading',
  description: 'An Updates entry heading reads `### YYYY-MM-DD HH:MM:SS.mmm(Z|±HH:MM) - <title>` (or ` : `).',
  fixable: true,
  examples: {
    ok: [
      {
        path: 'docs/sysrs/order-intake.md',
        text: '---\nid: 3f2b8c1e-5d4a-4e2f-9b6c-1a2b3c4d5e6f\n---\n\n# System Requirements Specification: Order Intake\n\n## Updates\n\n### 2025-11-02 07:34:29.518Z - First draft\n\nWritten.\n',
      },
    ],
    notOk: [
      {
        path: 'docs/sysrs/order-intake.md',
        text: '---\nid: 3f2b8c1e-5d4a-4e2f-9b6c-1a2b3c4d5e6f\n---\n\n# System Requirements Specification: Order Intake\n\n## Updates\n\n### 2025-11-02 - First draft\n\nWritten.\n',
        expected: ['9:5 Unexpected date-only timestamp `2025-11-02`, expected `YYYY-MM-DD HH:MM:SS.mmm` then `Z` or `±HH:MM`'],
      },
      {
        path: 'docs/sysrs/order-intake.md',
        text: '---\nid: 3f2b8c1e-5d4a-4e2f-9b6c-1a2b3c4d5e6f\n---\n\n# System Requirements Specification: Order Intake\n\n## Updates\n\n### 2025-11-02 07:34:29.518Z — First draft\n\nWritten.\n',
        expected: ['9:30 Unexpected separator `—` after the timestamp, expected ` - ` or ` : `'],
        output:
          '---\nid: 3f2b8c1e-5d4a-4e2f-9b6c-1a2b3c4d5e6f\n---\n\n# System Requirements Specification: Order Intake\n\n## Updates\n\n### 2025-11-02 07:34:29.518Z - First draft\n\nWritten.\n',
      },
    ],
  },
  outline(model, report) {
    for (const u of model.updates) {
      for (const e of u.entries) {
        if (e.form === 'entry') continue;
        const heading = model.blocks[e.block]!;
        const line0 = heading.line0;
        switch (e.form) {
          case 'no-timestamp':
          case 'untitled': {
            const at = wantedBlock(model, report, e.block);
            if (at === null) break;
            const shown = hashes(u.level, heading.text);
            if (e.form === 'untitled') report(at, `${shown} without a title`, entryFormat(u.level));
            else report(at, `heading ${shown}`, entryFormat(u.level));
            break;
          }
          case 'date-only':
          case 'bad-timestamp':
          case 'nonexistent': {
            const at = wantedLine(model, report, line0, e.textColumn);
            if (at === null) break;
            if (e.form === 'date-only') report(at, `date-only timestamp \`${e.written}\``, TIMESTAMP_FORMAT);
            else if (e.form === 'bad-timestamp') report(at, `timestamp \`${e.written}\``, TIMESTAMP_FORMAT);
            else report(at, `timestamp \`${e.written}\` that does not exist`, 'a real date and time');
            break;
          }
          case 'separator':
          case 'glued': {
            const at = wantedLine(model, report, line0, e.detailColumn);
            if (at === null) break;
            if (e.form === 'separator')
              report(
                at,
                `separator \`${e.detail}\` after the timestamp`,
                '` - ` or ` : `',
                dashFix(model.text.line(line0), model.text.fileLine(line0), e.detailColumn, e.detail),
              );
            else report(at, `${quoteLine(e.detail)} right after the timestamp`, '` - ` or ` : ` then the title');
            break;
          }
        }
      }
    }
  },
};

/** A dash typed as an em or en dash means the ` - ` separator: the fix writes it so (nothing else is guessed). */
const DASHES = new Set(['\u2014', '\u2013']);

function dashFix(raw: string, line: number, detailColumn: number, detail: string): { fix: Fix } | undefined {
  if (!DASHES.has(detail)) return undefined;
  let start = detailColumn - 1;
  while (start > 0 && (raw[start - 1] === ' ' || raw[start - 1] === '\t')) start--;
  let end = detailColumn - 1 + detail.length;
  while (raw[end] === ' ' || raw[end] === '\t') end++;
  if (end >= raw.length) return undefined;
  return { fix: { line, column: start + 1, endLine: line, endColumn: end + 1, text: ' - ' } };
}
