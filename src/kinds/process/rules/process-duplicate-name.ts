import { quote } from '../../../model/position.js';
import { reportDuplicates } from '../../../engine/groups.js';
import { defineCrossFileRule } from '../../../engine/rule.js';
import type { ProcessFacts } from '../parse.js';

export const processDuplicateName = defineCrossFileRule<ProcessFacts>({
  id: 'process-duplicate-name',
  description: 'Process names must be unique, ignoring case',
  examples: {
    ok: [
      {
        path: 'processes/peer-review.md',
        text: '---\nname: Peer Review\n---\n\n# Peer Review\n',
        others: { 'processes/code-review.md': '---\nname: Code Review\n---\n\n# Code Review\n' },
      },
    ],
    notOk: [
      {
        path: 'processes/peer-review.md',
        text: '---\nname: code REVIEW\n---\n\n# Peer Review\n',
        others: { 'processes/code-review.md': '# Code Review\n' },
        expected: ['2:7 Unexpected duplicate process name `code REVIEW`, expected names unique ignoring case (also in processes/code-review.md)'],
      },
    ],
  },
  checkAll(entries, report) {
    reportDuplicates(
      entries,
      (f) => f.name,
      (v) => v.value.toLowerCase(),
      (v) => `duplicate process name ${quote(v.value)}`,
      (others) => `names unique ignoring case (also in ${others})`,
      report,
    );
  },
});
