/**
 * Words the outline rules share: how a heading, a block or a list of choices reads in a message. The
 * model is structure; these turn it into the X and Y of "Unexpected X, expected Y".
 */
import type { Pos } from '../../model/position.js';
import type { Block } from '../../parse/outline/blocks.js';
import type { OutlineNode } from '../../parse/outline/data.js';
import type { OutlineModel } from '../../parse/outline/model.js';
import type { Fix, Report } from '../../engine/rule.js';

/** `## System Purpose`, in backticks. */
export function hashes(level: number, text: string): string {
  return '`' + '#'.repeat(level) + ' ' + text + '`';
}

/** A section heading as the document spells it (translated for a variant). */
export function headingOf(node: OutlineNode): string {
  return hashes(node.level, node.display);
}

/** `a`, `a or b`, `a, b or c`. */
export function orList(items: readonly string[]): string {
  if (items.length <= 1) return items.join('');
  return items.slice(0, -1).join(', ') + ' or ' + items[items.length - 1];
}

/**
 * A line of the body quoted in a message: blanks (CR, tabs, runs of spaces) become one space, trimmed,
 * at most 60 characters with `…`. Not core's `quote` (which escapes CR, LF and tabs and cuts with
 * `...`): outline messages have always read this way, and their text must stay the same.
 */
export function quoteLine(s: string): string {
  const one = s.replace(/\s+/g, ' ').trim();
  return '`' + (one.length > 60 ? one.slice(0, 59) + '…' : one) + '`';
}

/** Short description of a block for "Unexpected X". */
export function describe(model: OutlineModel, b: Block): string {
  switch (b.type) {
    case 'heading':
      return 'heading ' + hashes(b.hLevel, b.text);
    case 'paragraph':
      return 'text ' + quoteLine(model.text.line(b.line0));
    case 'bullet_list':
    case 'ordered_list':
      return 'list ' + quoteLine(model.text.line(b.line0));
    case 'fence':
    case 'code_block':
      return 'code block';
    case 'html_block':
      return 'HTML block ' + quoteLine(model.text.line(b.line0));
    case 'hr':
      return 'thematic break';
    case 'blockquote':
      return 'block quote';
    default:
      return b.type.replace(/_/g, ' ');
  }
}

/** Asks `report.wants` with one reused position: findings past the kept ones (a body may have 350,000) allocate nothing. */
const probe: Pos = { line: 0, column: 0 };

/**
 * Where body line `line0` is (at `column`, else at its first non-blank character), when a finding there
 * can be kept; else null. The line alone is asked first (its column 1 is the earliest place on it), so
 * a finding past the kept ones costs no column: `column` may be a function, called only when needed.
 */
export function wantedLine(model: OutlineModel, report: Report, line0: number, column?: number | (() => number)): Pos | null {
  probe.line = model.text.fileLine(line0);
  probe.column = 1;
  if (!report.wants(probe)) return null;
  probe.column = column === undefined ? model.text.startColumn(line0) : typeof column === 'number' ? column : column();
  return report.wants(probe) ? { line: probe.line, column: probe.column } : null;
}

/** Where a block starts (its first non-blank character), when a finding there can be kept; else null. */
export function wantedBlock(model: OutlineModel, report: Report, block: number): Pos | null {
  return wantedLine(model, report, model.blocks[block]!.line0);
}

/**
 * Reports something expected but absent, at block `at` ("Unexpected `## System Scope`, expected …"),
 * or at the end of the body when `at` is past the last block.
 */
export function reportInstead(model: OutlineModel, report: Report, at: number, expected: () => string): void {
  const b = model.blocks[at];
  const pos = b === undefined ? model.text.end() : wantedLine(model, report, b.line0);
  if (pos === null || !report.wants(pos)) return;
  const found = b === undefined ? 'end of document' : b.type === 'heading' ? hashes(b.hLevel, b.text) : describe(model, b);
  report(pos, found, expected());
}

/** How a bullet of a list (or bullets) section must read. */
export function itemTemplate(node: OutlineNode): string {
  if (node.kind === 'bullets') return '`- <reference>`';
  if (node.tags.length === 1) return '`- ' + node.tags[0] + ' <uuid>: <title>`';
  return '`- <TAG> <uuid>: <title>` with TAG ' + orList(node.tags.map((t) => '`' + t + '`'));
}

/** The H1 an outline wants: `# <prefix><title>`. */
export function h1Wanted(model: OutlineModel): string {
  return '`# ' + model.outline.prefix + '<title>`';
}

/** The entry heading of an Updates section: `### YYYY-MM-DD HH:MM:SS.mmmZ - <title>`. */
export function entryFormat(level: number): string {
  return '`' + '#'.repeat(level) + ' YYYY-MM-DD HH:MM:SS.mmmZ - <title>`';
}

/** Body line where the section whose heading is block `block` ends (the body's line count when it runs to the end). */
export function sectionEnd(model: OutlineModel, block: number): number {
  for (const scan of model.levels) {
    for (const f of scan.headings) if (f.block === block) return lineOfBlock(model, f.end);
  }
  return lineOfBlock(model, model.blocks.length);
}

/** Body line where block `index` starts (the body's line count past the last block). */
export function lineOfBlock(model: OutlineModel, index: number): number {
  return index < model.blocks.length ? model.blocks[index]!.line0 : model.text.lines.length;
}

/**
 * A fix replacing body lines [from, to) by `parts` (each a run of lines), one blank line between parts:
 * from column 1 of `from` to the end of line `to - 1` (its line break kept). Blank lines ending a part
 * are dropped, those ending the range kept. Lines are joined with LF (the fix keeps a CRLF file CRLF).
 */
export function replaceLines(model: OutlineModel, from: number, to: number, parts: readonly (readonly string[])[]): Fix {
  const lines = model.text.lines;
  let tail = to;
  while (tail > from && lines[tail - 1]!.trim() === '') tail--;
  const trimmed = parts.map((p) => {
    let n = p.length;
    while (n > 0 && p[n - 1]!.trim() === '') n--;
    return p.slice(0, n).join('\n');
  });
  const text = [trimmed.join('\n\n'), ...lines.slice(tail, to)].join('\n');
  const last = to - 1;
  return { line: model.text.fileLine(from), column: 1, endLine: model.text.fileLine(last), endColumn: lines[last]!.length + 1, text };
}
