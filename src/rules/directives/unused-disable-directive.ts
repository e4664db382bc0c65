import { defineRule, unexpected } from '../../engine/rule.js';
import type { SeverityOf } from '../../engine/rule.js';
import type { Analysis } from '../../model/analysis.js';
import type { Diagnostic } from '../../model/types.js';
import { Suppressions } from '../../parse/directives.js';
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

/**
 * The diagnostics a document gets besides its own, once the rules across files have run: theirs, less
 * what its inline directives suppress, and this rule's finding for each directive that suppressed
 * nothing at all (its own diagnostics included), at the rule's severity for the document.
 */
export function afterDirectives(
  a: Analysis,
  cross: readonly Diagnostic[] | undefined,
  severityFor: (path: string) => SeverityOf,
): readonly Diagnostic[] | undefined {
  if (!a.directives) return cross;
  const s = new Suppressions(a.directives.list, a.directives.used);
  const kept = (cross ?? []).filter((d) => !s.suppresses(d.line, d.rule));
  const level = severityFor(a.path)(unusedDisableDirective.id);
  if (level === 'off') return kept;
  for (const d of s.unused()) {
    const u = unusedDirective(d);
    const diagnostic: Diagnostic = { line: u.at.line, column: u.at.column, rule: unusedDisableDirective.id, message: unexpected(u.found, u.expected) };
    if (level === 'warning') diagnostic.severity = 'warning';
    kept.push(diagnostic);
  }
  return kept;
}
