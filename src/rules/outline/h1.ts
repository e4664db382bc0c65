import type { OutlineRuleTemplate } from './outline-rule.js';
import { h1Wanted, hashes, reportInstead, wantedLine } from './messages.js';

export const h1Outline: OutlineRuleTemplate = {
  suffix: 'h1',
  description: 'The body has an H1 `# <prefix><title>` with the (translated) prefix and a title.',
  examples: {
    ok: [
      { path: 'docs/sysrs/order-intake.md', text: '---\nid: 3f2b8c1e-5d4a-4e2f-9b6c-1a2b3c4d5e6f\n---\n\n# System Requirements Specification: Order Intake\n' },
    ],
    notOk: [
      {
        path: 'docs/sysrs/order-intake.md',
        text: '---\nid: 3f2b8c1e-5d4a-4e2f-9b6c-1a2b3c4d5e6f\n---\n\n# Order Intake\n',
        expected: ['5:1 Unexpected H1 `# Order Intake`, expected `# System Requirements Specification: <title>`'],
      },
    ],
  },
  outline(model, report) {
    const first = model.h1s[0];
    if (first === undefined) {
      reportInstead(model, report, 0, () => `${h1Wanted(model)} first`);
      return;
    }
    const h1 = model.blocks[first]!;
    const title = h1.text;
    const prefix = model.outline.prefix;
    if (title.startsWith(prefix) && title.slice(prefix.length).trim() !== '') return;
    const at = wantedLine(model, report, h1.line0);
    if (at === null) return;
    const why = title === prefix.trimEnd() ? ' without a title' : '';
    report(at, `H1 ${hashes(1, title)}${why}`, h1Wanted(model));
  },
};
