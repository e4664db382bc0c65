import { escapeHidden } from '../model/hidden-unicode.js';
import { formatDiagnostic } from '../model/result.js';
import type { LintRun } from '../lint/run.js';
import type { Diagnostic } from '../model/types.js';
import { ansi, hyperlink } from './ansi.js';
import { unifiedDiff } from './diff.js';
import { ruleHelpUri } from './rule-link.js';
import { plural, reported, summaryLine } from './summary.js';

export interface StylishOptions {
  color: boolean;
  /** Where docs/rules.md is read on the web: with colours, each rule id links to its section. */
  rulesDoc?: string;
}

/** What marks a problem that `--fix` would fix, after its line. */
export const FIXABLE_MARK = '(fixable)';

/**
 * A path as printed: its control characters (C0, DEL, C1) as `\x1b`-style escapes and its hidden ones as
 * `\u{202E}`. A file name may hold any of them, and printed raw they would move the cursor, clear the
 * screen, forge a summary line or reorder what the line shows. (The JSON formats carry the real path.)
 */
function printablePath(path: string): string {
  return escapeHidden(path.replace(/[\u0000-\u001f\u007f-\u009f]/g, (c) => `\\x${c.charCodeAt(0).toString(16).padStart(2, '0')}`));
}

/** ESLint's last line when some problems carry a fix: `E errors and W warnings potentially fixable with the `--fix` option.` */
function fixableLine(run: LintRun): string | null {
  let errors = 0;
  let warnings = 0;
  for (const r of reported(run))
    for (const d of r.diagnostics) {
      if (d.fix === undefined) continue;
      if (d.severity === 'warning') warnings++;
      else errors++;
    }
  if (errors + warnings === 0) return null;
  return `  ${plural(errors, 'error', 'errors')} and ${plural(warnings, 'warning', 'warnings')} potentially fixable with the \`--fix\` option.`;
}

/**
 * Each failing path (and each path with warnings), then its `error` lines indented by two spaces, each
 * that `--fix` would fix marked `(fixable)` after it; under `--fix-dry-run`, the diff of what the fixes
 * change; then the summary line, and how many problems `--fix` would fix.
 * With colour (docs/decisions.md, "CLI manners") the text of each line is unchanged; only escape codes are
 * added around parts, and each rule id of docgate's own links to its section of docs/rules.md.
 */
export function stylish(run: LintRun, opts: StylishOptions = { color: false }): string {
  const bold = ansi('1', opts.color);
  const dim = ansi('2', opts.color);
  const red = ansi('31', opts.color);
  const green = ansi('32', opts.color);
  const yellow = ansi('33', opts.color);
  const ruleOf = (rule: string): string => {
    const url = opts.color ? ruleHelpUri(rule, opts.rulesDoc) : undefined;
    return url === undefined ? rule : hyperlink(url, rule);
  };
  const lineOf = (d: Diagnostic): string => {
    const line = formatDiagnostic(d);
    const mark = d.fix !== undefined ? ` ${opts.color ? green(FIXABLE_MARK) : FIXABLE_MARK}` : '';
    if (!opts.color) return `  ${line}${mark}`;
    const pos = `${d.line}:${d.column}`;
    const rule = `[${d.rule}]`;
    return `  ${dim(pos)} ${line.slice(pos.length + 1, line.length - rule.length - 1)} ${dim(`[${ruleOf(d.rule)}]`)}${mark}`;
  };
  const out: string[] = [];
  for (const r of reported(run)) {
    out.push(bold(printablePath(r.path)));
    for (const d of r.diagnostics) out.push(lineOf(d));
    out.push('');
    const before = run.inputs?.get(r.path);
    const after = run.outputs?.get(r.path);
    if (before !== undefined && after !== undefined) out.push(...unifiedDiff(r.path, before, after, opts.color), '');
  }
  const summary = summaryLine(run);
  const paint = run.results.length > 0 ? red : (run.warnings?.length ?? 0) > 0 ? yellow : green;
  out.push(paint(summary));
  const fixable = fixableLine(run);
  if (fixable !== null) out.push(paint(fixable));
  return `${out.join('\n')}\n`;
}
