/**
 * Root-relative path globs with picomatch's semantics (`*`, `?`, `[...]`, `**`, `{a,b}`, `{1..3}`, `\`
 * escapes; a wildcard never matches a leading `.` of a segment), matched in linear time.
 *
 * Globs come from configuration files of repositories docgate does not trust. picomatch (and every
 * RegExp-based matcher) turns `*a*a*a*a*a*b` into a RegExp that backtracks for minutes on a short path;
 * here each segment is matched by the two-pointer wildcard walk and `**` by the same walk over
 * segments: O(pattern × path) per alternative. Brace expansion is bounded (MAX_ALTERNATIVES).
 * Extglobs (`+(a|b)`) and negation (`!a`) are refused. test/glob.test.ts compares every case with picomatch.
 */

export class GlobError extends Error {}
/** The globs of a configuration, together, expand to more than MAX_CONFIG_ALTERNATIVES. */
export class TooManyAlternatives extends GlobError {}

/** Most alternatives one glob may expand to (`{a,b}{c,d}` is four). */
export const MAX_ALTERNATIVES = 256;
/**
 * Most alternatives the globs of one configuration may expand to in all: every alternative is compiled
 * in every lint thread and tried on every path discovery lists, so many globs under the per-glob bound
 * (1,363 eight-way globs: 349k alternatives) would still cost seconds and hundreds of MB per thread.
 */
export const MAX_CONFIG_ALTERNATIVES = 1024;

/** What is left of a configuration's alternatives (MAX_CONFIG_ALTERNATIVES) while its globs are compiled. */
export interface AlternativeBudget {
  left: number;
}
/** Longest glob accepted, in characters. */
export const MAX_GLOB_LENGTH = 1024;

/** One element of a segment pattern (also what MCP id globs compile to, src/mcp/text.ts). */
export type Token = { t: 'star' } | { t: 'any' } | { t: 'char'; c: string } | { t: 'class'; negate: boolean; singles: string; ranges: [number, number][] };

/** One segment of a pattern: `**`, or tokens matched against one path segment. */
type Segment =
  | { t: 'globstar' }
  /** `literal`: the segment without wildcards; `suffix`: a `*` then only literal characters (`*.md`). */
  | { t: 'tokens'; tokens: Token[]; literal: string | null; suffix: string | null };

export interface SegmentOptions {
  /** Compare letters without case (ids in MCP listings). */
  nocase?: boolean;
  /** Wildcards may match a leading `.` (ids are not file names). */
  dot?: boolean;
}

function classHas(k: Extract<Token, { t: 'class' }>, c: string, nocase: boolean): boolean {
  const one = (x: string): boolean => {
    if (k.singles.includes(x)) return true;
    const cp = x.codePointAt(0)!;
    return k.ranges.some(([lo, hi]) => cp >= lo && cp <= hi);
  };
  const found = one(c) || (nocase && (one(c.toLowerCase()) || one(c.toUpperCase())));
  return k.negate ? !found : found;
}

const SURROGATE = /[\uD800-\uDFFF]/;

/**
 * Splits one segment's pattern text into tokens (the text holds no `/`). `ids`: the dialect of MCP id
 * globs (src/mcp/text.ts), where `\` is a character like any other and `[!...]` negates too.
 */
export function segmentTokens(text: string, nocase = false, ids = false): Token[] {
  const chars = Array.from(text);
  const out: Token[] = [];
  for (let i = 0; i < chars.length; i++) {
    const c = chars[i]!;
    if (c === '\\' && !ids && i + 1 < chars.length) {
      out.push({ t: 'char', c: nocase ? chars[++i]!.toLowerCase() : chars[++i]! });
    } else if (c === '*') {
      if (out[out.length - 1]?.t !== 'star') out.push({ t: 'star' });
    } else if (c === '?') out.push({ t: 'any' });
    else if (c === '[' && chars.indexOf(']', i + 2) !== -1) {
      const end = chars.indexOf(']', i + 2);
      let body = chars.slice(i + 1, end);
      // picomatch negates with `^` only: `[!a]` is the class of `!` and `a` (its regex also tries the literal text).
      const negate = body[0] === '^' || (ids && body[0] === '!');
      if (negate) body = body.slice(1);
      let singles = '';
      const ranges: [number, number][] = [];
      for (let k = 0; k < body.length; k++) {
        if (body[k + 1] === '-' && k + 2 < body.length) {
          const lo = body[k]!.codePointAt(0)!;
          const hi = body[k + 2]!.codePointAt(0)!;
          if (lo > hi) throw new GlobError(`invalid range ${body[k]}-${body[k + 2]}`);
          ranges.push([lo, hi]);
          k += 2;
        } else singles += body[k]!;
      }
      out.push({ t: 'class', negate, singles, ranges });
      i = end;
    } else out.push({ t: 'char', c: nocase ? c.toLowerCase() : c });
  }
  return out;
}

/**
 * Whether `tokens` match all of `text`: the two-pointer wildcard walk (a `*` remembers where it
 * started; a mismatch retries one character later), O(tokens × text), never exponential.
 */
export function matchTokens(tokens: readonly Token[], text: string, options: SegmentOptions = {}): boolean {
  const nocase = options.nocase === true;
  const folded = nocase ? text.toLowerCase() : text;
  // Code points, not UTF-16 units, but only when the text has a surrogate pair: most texts index as they are.
  const s: ArrayLike<string> = SURROGATE.test(folded) ? Array.from(folded) : folded;
  // picomatch: no wildcard matches a leading dot; only a literal `.` (or a class naming it) does.
  if (!options.dot && s[0] === '.') {
    const first = tokens[0];
    if (first === undefined || first.t === 'star' || first.t === 'any' || (first.t === 'class' && first.negate)) return false;
  }
  let p = 0;
  let i = 0;
  let starP = -1;
  let starI = 0;
  while (i < s.length) {
    const k = tokens[p];
    if (k !== undefined && k.t !== 'star' && (k.t === 'any' || (k.t === 'char' ? k.c === s[i] : classHas(k, s[i]!, nocase)))) {
      p++;
      i++;
    } else if (k !== undefined && k.t === 'star') {
      starP = p++;
      starI = i;
    } else if (starP !== -1) {
      p = starP + 1;
      i = ++starI;
    } else return false;
  }
  while (tokens[p]?.t === 'star') p++;
  return p === tokens.length;
}

/**
 * `a{b,c{d,e}}f` → `abf`, `acdf`, `acef`; `{1..3}` → 1, 2, 3. Unbalanced braces stay literal. More than
 * `max` alternatives is a GlobError, thrown before any more are made.
 */
export function expandBraces(glob: string, max = MAX_ALTERNATIVES): string[] {
  let open = -1;
  let depth = 0;
  for (let i = 0; i < glob.length; i++) {
    const c = glob[i];
    if (c === '\\') {
      i++;
      continue;
    }
    if (c === '{') {
      if (depth++ === 0) open = i;
    } else if (c === '}' && depth > 0 && --depth === 0) {
      const body = glob.slice(open + 1, i);
      const head = glob.slice(0, open);
      const tail = glob.slice(i + 1);
      const choices = braceChoices(body, max);
      if (choices === null) return expandBraces(tail, max).map((t) => `${head}{${body}}${t}`);
      const out: string[] = [];
      for (const choice of choices) {
        for (const rest of expandBraces(`${choice}${tail}`, max)) {
          out.push(`${head}${rest}`);
          if (out.length > max) throw new GlobError(`it expands to more than ${max} alternatives`);
        }
      }
      return out;
    }
  }
  return [glob];
}

/** The choices of one brace body: comma-separated at its own level, or a numeric/letter range; null if neither. */
function braceChoices(body: string, max: number): string[] | null {
  const range = /^(-?\d+)\.\.(-?\d+)$|^([A-Za-z])\.\.([A-Za-z])$/.exec(body);
  if (range) {
    const numeric = range[1] !== undefined;
    const a = numeric ? Number(range[1]) : range[3]!.charCodeAt(0);
    const b = numeric ? Number(range[2]) : range[4]!.charCodeAt(0);
    if (Math.abs(b - a) >= max) throw new GlobError(`it expands to more than ${max} alternatives`);
    const out: string[] = [];
    for (let v = a; a <= b ? v <= b : v >= b; v += a <= b ? 1 : -1) out.push(numeric ? String(v) : String.fromCharCode(v));
    return out;
  }
  const parts: string[] = [];
  let depth = 0;
  let start = 0;
  for (let i = 0; i < body.length; i++) {
    const c = body[i];
    if (c === '\\') i++;
    else if (c === '{') depth++;
    else if (c === '}') depth--;
    else if (c === ',' && depth === 0) {
      parts.push(body.slice(start, i));
      start = i + 1;
    }
  }
  if (parts.length === 0) return null;
  parts.push(body.slice(start));
  return parts;
}

function compileSegments(glob: string): Segment[] {
  const text = glob.startsWith('./') ? glob.slice(2) : glob;
  return text.split('/').map((part): Segment => {
    if (part === '**') return { t: 'globstar' };
    const tokens = segmentTokens(part);
    const chars = (list: Token[]) => (list.every((k) => k.t === 'char') ? list.map((k) => (k as { c: string }).c).join('') : null);
    const literal = chars(tokens);
    const suffix = tokens[0]?.t === 'star' && tokens.length > 1 ? chars(tokens.slice(1)) : null;
    return { t: 'tokens', tokens, literal, suffix };
  });
}

function segmentMatches(seg: Extract<Segment, { t: 'tokens' }>, part: string): boolean {
  if (seg.literal !== null) return seg.literal === part;
  // `*.md`: the common shape, without the walk (a wildcard never matches a leading dot).
  if (seg.suffix !== null) return part.endsWith(seg.suffix) && part.charCodeAt(0) !== 0x2e;
  return part !== '' && matchTokens(seg.tokens, part);
}

/** The same walk over segments: `**` is the star, matching zero or more segments that do not start with `.`. */
function matchSegments(segs: readonly Segment[], parts: readonly string[]): boolean {
  let p = 0;
  let i = 0;
  let starP = -1;
  let starI = 0;
  while (i < parts.length) {
    const seg = segs[p];
    if (seg !== undefined && seg.t === 'tokens' && segmentMatches(seg, parts[i]!)) {
      p++;
      i++;
    } else if (seg !== undefined && seg.t === 'globstar') {
      starP = p++;
      starI = i;
    } else if (starP !== -1 && !parts[starI]!.startsWith('.')) {
      p = starP + 1;
      i = ++starI;
    } else return false;
  }
  // picomatch: a trailing `/**` also matches its parent folder itself (`a/**` matches `a`), except after
  // a segment that ends with `*` (`*/**` and `a*/**` do not match `a`; `*a/**` matches `ba`).
  const before = segs[p - 1];
  if (p < segs.length && before?.t === 'tokens' && before.tokens[before.tokens.length - 1]?.t === 'star') return false;
  while (segs[p]?.t === 'globstar') p++;
  return p === segs.length;
}

export interface PathGlob {
  readonly source: string;
  /** Whether a root-relative path (`/` separators, no leading `./`) matches. */
  match(path: string): boolean;
  /** Whether `<dir>/<name>` matches, without making that string (discovery asks it of every entry it lists). */
  matchIn(dir: string, name: string): boolean;
  /**
   * The folders discovery must list, with how deep below each a match may lie (1 = direct entries,
   * Infinity = any depth): `processes/*.md` → [`processes`, 1]; `docs/**‍/*.md` → [`docs`, Infinity].
   */
  readonly bases: readonly { dir: string; depth: number }[];
  /** Some segment of an alternative can be `.git` (in any case): the glob reaches into a git folder. */
  readonly namesGitFolder: boolean;
}

/** `.git` in every case, as git itself refuses it in any case in a path (a case-insensitive file system). */
const GIT_NAMES = Array.from({ length: 8 }, (_, i) => `.${[...'git'].map((c, k) => ((i >> k) & 1 ? c.toUpperCase() : c)).join('')}`);

/** Whether a segment pattern can match `.git`: only one that starts with a literal `.` or a class can (wildcards skip dots). */
function mayBeGit(seg: Segment): boolean {
  if (seg.t !== 'tokens') return false;
  const first = seg.tokens[0];
  if (first === undefined || !((first.t === 'char' && first.c === '.') || first.t === 'class')) return false;
  return GIT_NAMES.some((name) => matchTokens(seg.tokens, name));
}

/** Whether a root-relative path has a segment `.git` (in any case): never a document, never listed. */
export function inGitFolder(path: string): boolean {
  return /(?:^|\/)\.git(?:\/|$)/i.test(path);
}

function basesOf(segs: readonly Segment[]): { dir: string; depth: number } {
  const lit: string[] = [];
  let k = 0;
  for (; k < segs.length - 1; k++) {
    const s = segs[k]!;
    if (s.t !== 'tokens' || s.literal === null) break;
    lit.push(s.literal);
  }
  const rest = segs.slice(k);
  const depth = rest.some((s) => s.t === 'globstar') ? Infinity : rest.length;
  return { dir: lit.join('/'), depth };
}

/**
 * The matcher of one alternative. The usual shape, literal folders then one last segment
 * (`processes/*.md`), is matched without splitting the path: discovery asks it of every entry it lists.
 */
function matcherOf(segs: Segment[]): { match: (path: string) => boolean; matchIn: (dir: string, name: string) => boolean } {
  const last = segs[segs.length - 1]!;
  const head = segs.slice(0, -1);
  if (last.t === 'tokens' && head.every((g) => g.t === 'tokens' && g.literal !== null)) {
    const prefix = head.map((g) => `${(g as { literal: string }).literal}/`).join('');
    const dir = prefix.slice(0, -1);
    return {
      match: (path) => path.startsWith(prefix) && path.indexOf('/', prefix.length) === -1 && segmentMatches(last, path.slice(prefix.length)),
      matchIn: (inDir, name) => inDir === dir && segmentMatches(last, name),
    };
  }
  // A last segment of tokens matches the path's last part, or nothing does: checked first, without
  // splitting (`**/skills/*/SKILL.md` is asked of every entry of every folder, and most are no SKILL.md).
  if (last.t === 'tokens') {
    const match = (path: string): boolean => segmentMatches(last, path.slice(path.lastIndexOf('/') + 1)) && matchSegments(segs, path.split('/'));
    return { match, matchIn: (inDir, name) => segmentMatches(last, name) && matchSegments(segs, inDir === '' ? [name] : `${inDir}/${name}`.split('/')) };
  }
  const match = (path: string): boolean => matchSegments(segs, path.split('/'));
  return { match, matchIn: (inDir, name) => match(inDir === '' ? name : `${inDir}/${name}`) };
}

/** The alternatives of a glob, each checked as a glob of its own (braces may hide `..` or a leading `/`). */
function alternativesOf(glob: string, budget: AlternativeBudget | undefined): string[] {
  const left = budget === undefined ? Infinity : budget.left;
  const over = new TooManyAlternatives(`the configuration's globs expand to more than ${MAX_CONFIG_ALTERNATIVES} alternatives in all`);
  let out: string[];
  try {
    out = expandBraces(glob, Math.min(MAX_ALTERNATIVES, left));
  } catch (e) {
    throw e instanceof GlobError && left < MAX_ALTERNATIVES ? over : e;
  }
  if (out.length > left) throw over;
  if (budget !== undefined) budget.left -= out.length;
  for (const alt of out) {
    const which = alt === glob ? 'it' : `its alternative \`${alt}\``;
    if (alt.startsWith('/') || /^[A-Za-z]:/.test(alt)) throw new GlobError(`${which} is absolute; globs are relative to the root`);
    if (alt.split('/').includes('..')) throw new GlobError(`${which} climbs out of the root with \`..\``);
  }
  return out;
}

/**
 * Compiles a root-relative glob (GlobError for one docgate cannot use safely). `budget`: the
 * alternatives a configuration has left (see MAX_CONFIG_ALTERNATIVES), reduced by this glob's.
 */
export function compilePathGlob(glob: string, budget?: AlternativeBudget): PathGlob {
  if (glob === '') throw new GlobError('it is empty');
  if (glob.length > MAX_GLOB_LENGTH) throw new GlobError(`it is longer than ${MAX_GLOB_LENGTH} characters`);
  if (glob.startsWith('!')) throw new GlobError('negated globs (`!…`) are not supported; list what to ignore in `ignores`');
  if (/[@!+*?]\(/.test(glob.replace(/\\./g, ''))) throw new GlobError('extglobs such as `+(a|b)` are not supported');
  const alternatives = alternativesOf(glob, budget).map(compileSegments);
  const matchers = alternatives.map(matcherOf);
  const one = matchers.length === 1 ? matchers[0]! : null;
  return {
    source: glob,
    match: one ? one.match : (path) => matchers.some((m) => m.match(path)),
    matchIn: one ? one.matchIn : (dir, name) => matchers.some((m) => m.matchIn(dir, name)),
    bases: alternatives.map(basesOf),
    namesGitFolder: alternatives.some((segs) => segs.some(mayBeGit)),
  };
}

/** A set of globs: a path matches when any does. */
export function compileGlobs(globs: readonly string[]): (path: string) => boolean {
  if (globs.length === 0) return () => false;
  const compiled = globs.map((g) => compilePathGlob(g));
  return (path) => compiled.some((g) => g.match(path));
}
