import { defineRule } from '../../engine/rule.js';
import type { Directive } from '../../parse/directives.js';

/**
 * An inline directive that suppresses nothing (ESLint's `reportUnusedDisableDirectives`). Reported by the
 * engine once a file's diagnostics across files are known too; like any rule it can be set to `error` or `off`.
 */
export const unusedDisableDirective = defineRule({
  id: 'unused-disable-directive',
  description: 'An inline disable directive must suppress something',
  severity: 'warning',
  examples: {
    ok: [
      { path: 'processes/deploy.md', text: '---\nname: Deploy\nowner: ops # docgate-disable-line unknown-key -- kept for the old portal\n---\n\n# Deploy\n' },
    ],
    notOk: [
      {
        path: 'processes/deploy.md',
        text: '---\nname: Deploy # docgate-disable-line unknown-key\n---\n\n# Deploy\n',
        expected: [
          '2:14 Unexpected directive `docgate-disable-line unknown-key` that suppresses nothing, expected it removed or a directive where a rule reports',
        ],
      },
    ],
  },
});

/** The finding for an unused directive: where it is written, and what is wrong with it. */
export function unusedDirective(d: Directive): { at: Directive['at']; found: string; expected: string } {
  return { at: d.at, found: `directive \`${d.text}\` that suppresses nothing`, expected: 'it removed or a directive where a rule reports' };
}
