/**
 * Inline directives (docs/formats.md, "Inline directives"; the words of ESLint and markdownlint):
 *
 * - markdown bodies: `<!-- docgate-disable-next-line rule-a, rule-b -->`, `<!-- docgate-disable-line rule -->`,
 *   and `<!-- docgate-disable rule -->` … `<!-- docgate-enable rule -->` (no rule list: every rule);
 * - YAML frontmatter: a trailing `# docgate-disable-line rule`, or a line `# docgate-disable-next-line rule`;
 * - POWER templates: a line `# docgate-disable-next-line rule`.
 *
 * A directive may end with ` -- reason`. Rules about the file as a whole (encoding, size, read) are never
 * disabled inline. A directive that suppresses nothing is reported (`unused-disable-directive`).
 */
import type { Directive } from '../model/analysis.js';
import type { Pos } from '../model/position.js';

export type { Directive };

/** How a kind's files carry directives. */
export type DirectiveSyntax = 'markdown' | 'template' | 'none';

const MARKDOWN = /<!--\s*docgate-(disable-next-line|disable-line|disable|enable)(?=[\s-]|-->)(.*?)-->/g;
const YAML_NEXT = /^\s*#\s*docgate-disable-next-line(?=\s|$)(.*)$/;
const YAML_LINE = /\s#\s*docgate-disable-line(?=\s|$)(.*)$/;
const TEMPLATE_NEXT = /^\s*#\s*docgate-disable-next-line(?=\s|$)(.*)$/;
const FENCE = /^ {0,3}(`{3,}|~{3,})/;

/** The rule list of a directive's text: before ` -- reason`, comma or space separated; none = every rule. */
function ruleList(text: string): string[] | null {
  const cut = text.search(/\s--(\s|$)/);
  const rules = (cut === -1 ? text : text.slice(0, cut))
    .split(/[\s,]+/)
    .map((r) => r.trim())
    .filter((r) => r !== '');
  return rules.length === 0 ? null : rules;
}

function words(kind: string, rules: string[] | null): string {
  return rules === null ? `docgate-${kind}` : `docgate-${kind} ${rules.join(', ')}`;
}

/** Lines of a text, without their line ends, numbered from 1. */
function lines(text: string): string[] {
  return text.split('\n').map((l) => (l.endsWith('\r') ? l.slice(0, -1) : l));
}

/** The frontmatter lines of a markdown text: 2..(closing fence - 1), or none. */
function frontmatterEnd(all: readonly string[]): number {
  if (!/^---[ \t]*$/.test(all[0] ?? '')) return 0;
  for (let i = 1; i < all.length; i++) if (/^---[ \t]*$/.test(all[i]!)) return i + 1;
  return 0;
}

/**
 * Whether `text` holds `docgate-` anywhere: nearly no file does, and this is asked of every one. V8 finds
 * the rarer `gate-` about three times as fast as `docgate-` in prose (a cold lint of 40,000 SysRS spent
 * 0.3 s on the longer search, docs/performance.md); each hit is then checked for the `doc` before it.
 */
function mentionsDocgate(text: string): boolean {
  for (let i = text.indexOf('gate-', 3); i !== -1; i = text.indexOf('gate-', i + 5)) {
    if (text.startsWith('doc', i - 3)) return true;
  }
  return false;
}

/** The directives of a file's text (the decoded text, lines as on disk). */
export function findDirectives(text: string, syntax: DirectiveSyntax): Directive[] {
  if (syntax === 'none' || !mentionsDocgate(text)) return [];
  const all = lines(text);
  const out: Directive[] = [];
  if (syntax === 'template') {
    all.forEach((l, i) => {
      const m = TEMPLATE_NEXT.exec(l);
      if (m)
        out.push({
          at: { line: i + 1, column: l.indexOf('#') + 1 },
          text: words('disable-next-line', ruleList(m[1]!)),
          rules: ruleList(m[1]!),
          from: i + 2,
          to: i + 2,
        });
    });
    return out;
  }
  const fmEnd = frontmatterEnd(all);
  // YAML frontmatter: `#` comments.
  for (let i = 1; i < fmEnd - 1; i++) {
    const l = all[i]!;
    const next = YAML_NEXT.exec(l);
    if (next) {
      out.push({
        at: { line: i + 1, column: l.indexOf('#') + 1 },
        text: words('disable-next-line', ruleList(next[1]!)),
        rules: ruleList(next[1]!),
        from: i + 2,
        to: i + 2,
      });
      continue;
    }
    const same = YAML_LINE.exec(l);
    if (same)
      out.push({
        at: { line: i + 1, column: same.index + 2 },
        text: words('disable-line', ruleList(same[1]!)),
        rules: ruleList(same[1]!),
        from: i + 1,
        to: i + 1,
      });
  }
  // The markdown body: HTML comments, outside fenced code.
  const open: { at: Pos; rules: string[] | null; from: number }[] = [];
  let fence: string | null = null;
  for (let i = fmEnd; i < all.length; i++) {
    const l = all[i]!;
    const f = FENCE.exec(l);
    if (f) {
      if (fence === null) fence = f[1]!;
      else if (f[1]!.startsWith(fence)) fence = null;
      continue;
    }
    if (fence !== null || !l.includes('docgate-')) continue;
    for (const m of l.matchAll(MARKDOWN)) {
      const kind = m[1]!;
      const rules = ruleList(m[2]!);
      const at = { line: i + 1, column: m.index + 1 };
      if (kind === 'disable-next-line') out.push({ at, text: words(kind, rules), rules, from: i + 2, to: i + 2 });
      else if (kind === 'disable-line') out.push({ at, text: words(kind, rules), rules, from: i + 1, to: i + 1 });
      else if (kind === 'disable') open.push({ at, rules, from: i + 1 });
      else {
        // `enable` closes the latest `disable` of the same rules (or, naming none, every open one).
        const k = open.findLastIndex((o) => sameRules(o.rules, rules));
        const closing = rules === null ? open.splice(0) : k === -1 ? [] : open.splice(k, 1);
        for (const o of closing) out.push({ at: o.at, text: words('disable', o.rules), rules: o.rules, from: o.from, to: i + 1 });
      }
    }
  }
  for (const o of open) out.push({ at: o.at, text: words('disable', o.rules), rules: o.rules, from: o.from, to: Infinity });
  return out.sort((a, b) => a.at.line - b.at.line || a.at.column - b.at.column);
}

function sameRules(a: string[] | null, b: string[] | null): boolean {
  return a === null || b === null ? a === b : a.length === b.length && a.every((r) => b.includes(r));
}

/** The directives of one file as a run uses them: which ones have suppressed something. */
export class Suppressions {
  readonly used: boolean[];

  constructor(
    readonly directives: readonly Directive[],
    used?: readonly boolean[],
  ) {
    this.used = used ? [...used] : directives.map(() => false);
  }

  /** Whether a diagnostic of `rule` at `line` is suppressed (and the directive that does it is then used). */
  suppresses(line: number, rule: string): boolean {
    let hit = false;
    for (let i = 0; i < this.directives.length; i++) {
      const d = this.directives[i]!;
      if (line < d.from || line > d.to || (d.rules !== null && !d.rules.includes(rule))) continue;
      this.used[i] = true;
      hit = true;
    }
    return hit;
  }

  /** The directives that suppressed nothing. */
  unused(): Directive[] {
    return this.directives.filter((_, i) => !this.used[i]);
  }
}

/**
 * The directive that disables `rule` on line `line` of a file (an editor's "disable for this line"), in
 * the file's syntax: a line inserted before it (ESLint's `disable-next-line`) — a YAML comment in the
 * frontmatter, an HTML comment in a markdown body, a `#` line in a POWER template. Null where no
 * directive can reach the line: the opening fence of frontmatter, a fenced code block, a kind without
 * directives. `before`: the 1-based line the directive goes in front of; `text`: the line, without its break.
 */
export function disablingDirective(text: string, syntax: DirectiveSyntax, line: number, rule: string): { before: number; text: string } | null {
  const all = lines(text);
  if (syntax === 'none' || line < 1 || line > all.length) return null;
  const indent = /^[ \t]*/.exec(all[line - 1]!)![0];
  if (syntax === 'template') return { before: line, text: `# docgate-disable-next-line ${rule}` };
  const fmEnd = frontmatterEnd(all);
  if (fmEnd > 0 && line === 1) return null;
  if (fmEnd > 0 && line <= fmEnd) return { before: line, text: `${line === fmEnd ? '' : indent}# docgate-disable-next-line ${rule}` };
  let fence: string | null = null;
  for (let i = fmEnd; i < line - 1; i++) {
    const f = FENCE.exec(all[i]!);
    if (!f) continue;
    if (fence === null) fence = f[1]!;
    else if (f[1]!.startsWith(fence)) fence = null;
  }
  if (fence !== null || FENCE.test(all[line - 1]!)) return null;
  return { before: line, text: `<!-- docgate-disable-next-line ${rule} -->` };
}
