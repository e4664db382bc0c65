import type { OutlineRuleTemplate } from './outline-rule.js';
import { hashes, wantedBlock } from './messages.js';

export const headingOrderOutline: OutlineRuleTemplate = {
  suffix: 'heading-order',
  description: 'Sections appear in outline order.',
  examples: {
    ok: [
      {
        path: 'docs/sysrs/order-intake.md',
        text: '---\nid: 3f2b8c1e-5d4a-4e2f-9b6c-1a2b3c4d5e6f\n---\n\n# System Requirements Specification: Order Intake\n\n## System Purpose\n\nTake orders.\n\n## System Scope\n\nOrders only.\n',
      },
    ],
    notOk: [
      {
        path: 'docs/sysrs/order-intake.md',
        text: '---\nid: 3f2b8c1e-5d4a-4e2f-9b6c-1a2b3c4d5e6f\n---\n\n# System Requirements Specification: Order Intake\n\n## System Scope\n\nOrders only.\n\n## System Purpose\n\nTake orders.\n',
        expected: ['11:1 Unexpected `## System Purpose` after `## System Scope`, expected it before `## System Scope`'],
      },
    ],
  },
  outline(model, report) {
    for (const scan of model.levels) {
      const { children } = scan.parent;
      for (const f of scan.headings) {
        if (f.state !== 'out-of-order') continue;
        const at = wantedBlock(model, report, f.block);
        if (at === null) continue;
        const me = hashes(scan.level, children[f.node]!.display);
        const other = f.other >= 0 ? hashes(scan.level, children[f.other]!.display) : '';
        if (f.belongsBefore) report(at, `${me} after ${other}`, `it before ${other}`);
        else report(at, `${me} before ${other}`, `it after ${other}`);
      }
    }
  },
};
