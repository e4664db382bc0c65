import type { OutlineRuleTemplate } from './outline-rule.js';
import type { OutlineNode } from '../../parse/outline/data.js';
import type { OutlineModel } from '../../parse/outline/model.js';
import { hashes, headingOf, orList, wantedBlock } from './messages.js';

/** What an unknown heading should have been: a sibling in another case, the same heading elsewhere, or the choices. */
function hint(model: OutlineModel, parent: OutlineNode, level: number, text: string): string {
  const lower = text.toLowerCase();
  const sibling = parent.children.find((c) => c.display.toLowerCase() === lower);
  if (sibling) return `${hashes(level, sibling.display)} (headings match exactly)`;
  const elsewhere = model.outline.all.find((n) => n.display === text || n.heading === text || n.display.toLowerCase() === lower);
  if (elsewhere) {
    const under = elsewhere.parent && elsewhere.parent.level > 1 ? ` under ${headingOf(elsewhere.parent)}` : '';
    return headingOf(elsewhere) + under;
  }
  if (parent.level === 1) return `a section heading of the ${model.name} outline`;
  return orList(parent.children.map((c) => hashes(level, c.display)));
}

export const unknownHeadingOutline: OutlineRuleTemplate = {
  suffix: 'unknown-heading',
  description: 'Every structural heading is one of the outline, at its level, in its parent (exact text).',
  examples: {
    ok: [
      {
        path: 'docs/sysrs/order-intake.md',
        text: '---\nid: 3f2b8c1e-5d4a-4e2f-9b6c-1a2b3c4d5e6f\n---\n\n# System Requirements Specification: Order Intake\n\n## System Purpose\n\nTake orders.\n',
      },
    ],
    notOk: [
      {
        path: 'docs/sysrs/order-intake.md',
        text: '---\nid: 3f2b8c1e-5d4a-4e2f-9b6c-1a2b3c4d5e6f\n---\n\n# System Requirements Specification: Order Intake\n\n## System purpose\n\nTake orders.\n',
        expected: ['7:1 Unexpected heading `## System purpose`, expected `## System Purpose` (headings match exactly)'],
      },
    ],
  },
  outline(model, report) {
    const { blocks } = model;
    const deepest = model.outline.maxLevel;
    // Structural headings where none has a place: before the first section, after a second H1, in a leaf.
    for (const scope of model.strays) {
      for (let i = scope.from; i < scope.to; i++) {
        const b = blocks[i]!;
        if (b.hLevel <= scope.level || b.hLevel > deepest) continue;
        const at = wantedBlock(model, report, i);
        if (at === null) continue;
        const expected =
          scope.under !== null ? `no sub-section under ${headingOf(scope.under)}` : 'a `' + '#'.repeat(scope.level) + '` section heading before it';
        report(at, `heading ${hashes(b.hLevel, b.text)}`, expected);
      }
    }
    // Section headings the outline does not have at their level.
    for (const scan of model.levels) {
      for (const f of scan.headings) {
        if (f.state !== 'unknown') continue;
        const at = wantedBlock(model, report, f.block);
        if (at === null) continue;
        const text = blocks[f.block]!.text;
        report(at, `heading ${hashes(scan.level, text)}`, hint(model, scan.parent, scan.level, text));
      }
    }
  },
};
