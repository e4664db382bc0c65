import { escapeHidden } from '../model/hidden-unicode.js';
import { formatDiagnostic } from '../model/result.js';
import type { LintRun } from '../lint/run.js';
import { reported, summaryLine } from './summary.js';

export interface StylishOptions {
  color: boolean;
}

const ansi = (code: string, on: boolean) => (s: string) => (on ? `\u001b[${code}m${s}\u001b[0m` : s);

/**
 * A path as printed: its control characters (C0, DEL, C1) as `\x1b`-style escapes and its hidden ones as
 * `\u{202E}`. A file name may hold any of them, and printed raw they would move the cursor, clear the
 * screen, forge a summary line or reorder what the line shows. (The JSON formats carry the real path.)
 */
function printablePath(path: string): string {
  return escapeHidden(path.replace(/[\u0000-\u001f\u007f-\u009f]/g, (c) => `\\x${c.charCodeAt(0).toString(16).padStart(2, '0')}`));
}

/**
 * Each failing path (and each path with warnings), then its `error` lines indented by two spaces, then
 * the summary line.
 * With colour (a TTY only) the text of each line is unchanged; only escape codes are added around parts.
 */
export function stylish(run: LintRun, opts: StylishOptions = { color: false }): string {
  const bold = ansi('1', opts.color);
  const dim = ansi('2', opts.color);
  const red = ansi('31', opts.color);
  const green = ansi('32', opts.color);
  const yellow = ansi('33', opts.color);
  const out: string[] = [];
  for (const r of reported(run)) {
    out.push(bold(printablePath(r.path)));
    for (const d of r.diagnostics) {
      const line = formatDiagnostic(d);
      if (!opts.color) {
        out.push(`  ${line}`);
        continue;
      }
      const pos = `${d.line}:${d.column}`;
      const rule = `[${d.rule}]`;
      out.push(`  ${dim(pos)} ${line.slice(pos.length + 1, line.length - rule.length - 1)} ${dim(rule)}`);
    }
    out.push('');
  }
  const summary = summaryLine(run);
  out.push(run.results.length > 0 ? red(summary) : (run.warnings?.length ?? 0) > 0 ? yellow(summary) : green(summary));
  return `${out.join('\n')}\n`;
}
