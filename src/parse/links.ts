/**
 * The relative link and image destinations of a markdown body, each where it is written (for the rule
 * `link-target`): markdown-it finds the links (so code spans, code blocks and escaped brackets are not
 * links), and the destination's position is found in the line that holds it. Destinations with a
 * scheme (`https:`, `mailto:`), protocol-relative ones (`//host`), `#anchors` and `<…>` autolinks are
 * not paths and are left out.
 */
import { createRequire } from 'node:module';
import type MarkdownIt from 'markdown-it';
import type { Token } from 'markdown-it';
import type { Pos } from '../model/position.js';

const require = createRequire(import.meta.url);
let parser: MarkdownIt | undefined;

/**
 * markdown-it in CommonMark mode, loaded on first use (only a kind with `link-target` on parses links).
 * Its core step that parses every block's inline text is off: pathLinks parses only the inline text
 * that can hold an inline link (`](`), most of a body's cost otherwise (docs/performance.md).
 */
function markdown(): MarkdownIt {
  if (parser === undefined) {
    const MarkdownItClass = require('markdown-it') as typeof MarkdownIt;
    parser = new MarkdownItClass('commonmark');
    parser.core.ruler.disable('inline');
  }
  return parser;
}

/** One destination as written (without `<…>`), where it starts in the file. */
export interface LinkDestination {
  dest: string;
  at: Pos;
  image: boolean;
}

/** A destination that names a path: no scheme, not protocol-relative, not only a fragment. */
export function isPathDestination(dest: string): boolean {
  return dest !== '' && !dest.startsWith('#') && !dest.startsWith('//') && !/^[A-Za-z][A-Za-z0-9+.-]*:/.test(dest);
}

/** `](dest` of an inline link or image: the destination in `<…>`, or up to white space or `)`. */
const INLINE_DEST = /\]\(\s*(<[^<>\n]*>|[^\s)]*)/g;
/** A reference definition `[label]: dest` (up to three spaces of indent). */
const REFERENCE = /^( {0,3})\[((?:[^\]\\]|\\.)+)\]:[ \t]*(<[^<>\n]*>|\S+)/;

function unbracketed(raw: string): string {
  return raw.startsWith('<') && raw.endsWith('>') ? raw.slice(1, -1) : raw;
}

/** INLINE_DEST at one `](`, never past the end of its line (white space before the destination other than a line break). */
const INLINE_DEST_AT = /\]\([^\S\n]*(<[^<>\n]*>|[^\s)]*)/y;

/**
 * Every path destination written `](…)` or as a reference definition anywhere in the body, links or
 * not (in code, escaped), in no particular order: a superset of what pathLinks finds. A body whose every
 * such destination resolves has no broken link, and markdown-it need not read it. Found from each `](`
 * and `]:` of the body (the lines INLINE_DEST and REFERENCE would match, line by line, without splitting
 * the body into lines: a skill's body is ~9 KB of which a few dozen bytes are links).
 */
export function candidateDestinations(body: string): string[] {
  const out: string[] = [];
  for (let i = body.indexOf(']('); i !== -1; ) {
    INLINE_DEST_AT.lastIndex = i;
    const m = INLINE_DEST_AT.exec(body)!; // it matches at every `](` (the destination may be empty)
    out.push(unbracketed(m[1]!));
    // The next match starts after this one, as a global expression's matches do.
    i = body.indexOf('](', Math.max(i + 1, INLINE_DEST_AT.lastIndex));
  }
  for (let i = body.indexOf(']:'); i !== -1; ) {
    const start = body.lastIndexOf('\n', i) + 1;
    let end = body.indexOf('\n', i);
    if (end === -1) end = body.length;
    const ref = REFERENCE.exec(body.slice(start, end));
    if (ref) out.push(unbracketed(ref[3]!));
    i = body.indexOf(']:', end);
  }
  return out.filter(isPathDestination);
}

/**
 * Every inline link and image with a path destination, and every reference definition with one.
 * `bodyLineOffset`: file lines before the body (body line n is file line `bodyLineOffset + n`).
 */
export function pathLinks(body: string, bodyLineOffset: number): LinkDestination[] {
  // An inline link or image is written `](…)`, a reference definition `[label]: …`: a body with
  // neither has no destination to check.
  if (!body.includes('](') && !body.includes(']:')) return [];
  const md = markdown();
  const env: { references?: Record<string, unknown> } = {};
  const tokens = md.parse(body, env);
  for (const t of tokens) {
    if (t.type !== 'inline' || !t.content.includes('](')) continue;
    t.children = [];
    md.inline.parse(t.content, md, env, t.children);
  }
  const lines = body.split('\n');
  const out: LinkDestination[] = [];
  const inCode = new Set<number>();
  for (const t of tokens) {
    if ((t.type === 'fence' || t.type === 'code_block' || t.type === 'html_block') && t.map) for (let l = t.map[0]; l < t.map[1]; l++) inCode.add(l);
    if (t.type !== 'inline' || !t.map || !t.children || t.children.length === 0) continue;
    const wanted = linkTargets(t.children);
    if (wanted.length === 0) continue;
    // The destinations written `](…)` in the block's lines, each matched to one of markdown-it's links
    // (an image inside a link comes first in the text, second in the tokens). One written `](…)` that is
    // no link (inside a code span) matches none.
    for (let l = t.map[0]; l < t.map[1] && wanted.length > 0; l++) {
      const line = lines[l] ?? '';
      for (const m of line.matchAll(INLINE_DEST)) {
        const raw = m[1]!;
        const dest = unbracketed(raw);
        const href = md.normalizeLink(dest);
        const i = wanted.findIndex((w) => w.href === href);
        if (i < 0) continue;
        const column = m.index + m[0].length - raw.length + (raw.startsWith('<') ? 1 : 0) + 1;
        if (isPathDestination(dest)) out.push({ dest, at: { line: bodyLineOffset + l + 1, column }, image: wanted[i]!.image });
        wanted.splice(i, 1);
        if (wanted.length === 0) break;
      }
    }
  }
  // Reference definitions markdown-it took as such (its `references`), outside code blocks.
  const labels = env.references ?? {};
  if (Object.keys(labels).length > 0) {
    for (let l = 0; l < lines.length; l++) {
      if (inCode.has(l)) continue;
      const m = REFERENCE.exec(lines[l]!);
      if (!m) continue;
      const label = md.utils.normalizeReference(m[2]!);
      if (!(label in labels)) continue;
      const raw = m[3]!;
      const dest = unbracketed(raw);
      const column = m[0].length - raw.length + (raw.startsWith('<') ? 1 : 0) + 1;
      if (isPathDestination(dest)) out.push({ dest, at: { line: bodyLineOffset + l + 1, column }, image: false });
    }
  }
  return out.sort((a, b) => a.at.line - b.at.line || a.at.column - b.at.column);
}

/** The links and images of an inline token, as markdown-it resolved them (autolinks left out). */
function linkTargets(children: readonly Token[]): { href: string; image: boolean }[] {
  const out: { href: string; image: boolean }[] = [];
  for (const c of children) {
    if (c.type === 'link_open' && c.markup !== 'autolink' && c.markup !== 'linkify') out.push({ href: c.attrGet('href') ?? '', image: false });
    else if (c.type === 'image') out.push({ href: c.attrGet('src') ?? '', image: true });
  }
  return out;
}

/**
 * The root-relative path a destination names from the document at `docPath`: the query and fragment
 * stripped, percent-decoding applied, `/x` from the root; null when it climbs out of the root.
 */
export function linkPath(dest: string, docPath: string): string | null {
  let p = dest.replace(/[?#].*$/s, '');
  try {
    p = decodeURIComponent(p);
  } catch {
    // Not valid percent-encoding: the destination is taken as written.
  }
  const dir = docPath.includes('/') ? docPath.slice(0, docPath.lastIndexOf('/')) : '';
  const segments = p.startsWith('/') ? [] : dir === '' ? [] : dir.split('/');
  for (const s of p.split('/')) {
    if (s === '' || s === '.') continue;
    if (s === '..') {
      if (segments.length === 0) return null;
      segments.pop();
    } else segments.push(s);
  }
  return segments.join('/');
}
