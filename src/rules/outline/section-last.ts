import type { OutlineRuleTemplate } from './outline-rule.js';
import { hashes, lineOfBlock, replaceLines, wantedBlock } from './messages.js';

export const sectionLastOutline: OutlineRuleTemplate = {
  suffix: 'section-last',
  description: 'A section marked `last` (Updates) is the last of its level.',
  fixable: true,
  examples: {
    ok: [
      {
        path: 'docs/sysrs/order-intake.md',
        text: '---\nid: 3f2b8c1e-5d4a-4e2f-9b6c-1a2b3c4d5e6f\n---\n\n# System Requirements Specification: Order Intake\n\n## System Purpose\n\nTake orders.\n\n## Updates\n\n### 2025-11-02 07:34:29.518Z - First draft\n\nWritten.\n',
      },
    ],
    notOk: [
      {
        path: 'docs/sysrs/order-intake.md',
        text: '---\nid: 3f2b8c1e-5d4a-4e2f-9b6c-1a2b3c4d5e6f\n---\n\n# System Requirements Specification: Order Intake\n\n## Updates\n\n### 2025-11-02 07:34:29.518Z - First draft\n\nWritten.\n\n## References\n\n- RFC 2119\n',
        expected: ['7:1 Unexpected `## Updates` before `## References`, expected `## Updates` to be the last section'],
        output:
          '---\nid: 3f2b8c1e-5d4a-4e2f-9b6c-1a2b3c4d5e6f\n---\n\n# System Requirements Specification: Order Intake\n\n## References\n\n- RFC 2119\n\n## Updates\n\n### 2025-11-02 07:34:29.518Z - First draft\n\nWritten.\n',
      },
    ],
  },
  outline(model, report) {
    for (const scan of model.levels) {
      for (const f of scan.headings) {
        if (f.state !== 'not-last') continue;
        const at = wantedBlock(model, report, f.block);
        if (at === null) continue;
        const me = hashes(scan.level, scan.parent.children[f.node]!.display);
        // The fix moves the section after its last sibling: the text of every section stays as written.
        const from = model.blocks[f.block]!.line0;
        const own = lineOfBlock(model, f.end);
        const to = lineOfBlock(model, scan.headings[scan.headings.length - 1]!.end);
        const lines = model.text.lines;
        // A section written twice has no one place to go (moving either makes the other not last).
        const once = scan.headings.filter((h) => h.node === f.node).length === 1;
        const fix = once && to > own ? replaceLines(model, from, to, [lines.slice(own, to), lines.slice(from, own)]) : undefined;
        report(at, `${me} before ${hashes(scan.level, model.blocks[f.other]!.text)}`, `${me} to be the last section`, fix ? { fix } : undefined);
      }
    }
  },
};
