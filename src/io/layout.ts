import { closeSync, lstatSync, realpathSync, statSync } from 'node:fs';
import type { Dirent, Stats } from 'node:fs';
import { dirname, relative, sep } from 'node:path';
import { statIdentity } from './file-identity.js';
import { WriteRefused, isInside, listInside, realFolder, replaceFile, resolved } from './safe-fs.js';
import type { HeldFolder, Listing } from './safe-fs.js';
import { GitIgnored, realRelative } from './git-ignored.js';
import type { Kind } from '../model/types.js';
import { compileGlobs, compilePathGlob, inGitFolder } from './glob.js';
import type { PathGlob } from './glob.js';

/** One document found under the root. */
export interface FileRef {
  /** Relative to the root, `/` separators. */
  path: string;
  abs: string;
  kind: Kind;
  /** Variant language folder for a SysRS under `docs/sysrs/<lang>/`, else null. */
  lang: string | null;
  /** Set when the entry cannot be read as a file: what it is instead. */
  problem?: Problem;
  /** The error code of a folder that could not be listed (`folder-unreadable`). */
  code?: string;
  /** Reached through a symbolic link (the file, or its language folder): its content lives elsewhere. */
  link?: true;
}

/**
 * Why a document is not read: a directory named like one, a symlink out of the root, a broken link, a
 * FIFO, socket or device, a name that is not valid UTF-8, a path in conflict in the git index (`--staged`);
 * or (the ref's path then being the folder's) a kind or language folder that resolves outside the root,
 * or that cannot be listed.
 */
export type Problem = 'directory' | 'symlink-outside' | 'unreadable' | 'special' | 'bad-name' | 'unmerged' | 'folder-outside' | 'folder-unreadable';

/** Where one kind lives: its include globs, and whether language variants sit beside its folders. */
export interface KindPlace {
  kind: Kind;
  include: readonly string[];
  variants: boolean;
}

/**
 * Where the documents of a root live: each kind's include globs (the defaults of the registry, or the
 * configuration's `kinds.<kind>.include`), the `ignores` globs, and SysRS-style language variants:
 * `<folder>/<lang>/<file>` beside an included English `<folder>/<file>` (variants stay structural: docs/formats.md, "Language variants and heading tables").
 */
/** The paths a layout keeps the classification of (see Layout.classify). */
const CLASSIFIED_MAX = 16384;

export class Layout {
  private readonly places: { kind: Kind; globs: PathGlob[]; variants: boolean }[];
  private readonly ignored: (path: string) => boolean;
  /** The places of kinds with language variants (a lookup per cached path: most kinds have none). */
  private readonly variantPlaces: Map<Kind, { globs: PathGlob[] }>;
  /**
   * Paths classified already: a document's kind is asked for several times in a run (its severities at
   * analysis, for its directives, by the rules across files), each a match against every kind's globs.
   * Bounded: a long-lived server is asked about any path.
   */
  private readonly classified = new Map<string, Readonly<{ kind: Kind; lang: string | null }> | null>();

  constructor(places: readonly KindPlace[], ignores: readonly string[] = []) {
    this.places = places.map((p) => ({ kind: p.kind, globs: p.include.map((g) => compilePathGlob(g)), variants: p.variants }));
    this.ignored = compileGlobs(ignores);
    this.hasIgnores = ignores.length > 0;
    this.variantPlaces = new Map(this.places.filter((p) => p.variants).map((p) => [p.kind, p]));
  }

  /** Every kind placed, in registry order. */
  get kinds(): Kind[] {
    return this.places.map((p) => p.kind);
  }

  /** Whether any `ignores` glob was given (without one, discovery asks nothing per entry). */
  readonly hasIgnores: boolean;

  /** Whether the configuration's `ignores` hide a path (never linted, never served). */
  isIgnored(path: string): boolean {
    return this.ignored(path);
  }

  /**
   * The kind (and language) of a root-relative path, or null when it is no document: the first kind
   * (registry order) whose globs match it, or match it without a language folder for a kind with variants.
   */
  classify(path: string): Readonly<{ kind: Kind; lang: string | null }> | null {
    let found = this.classified.get(path);
    if (found === undefined) {
      found = this.classifyNow(path);
      if (this.classified.size >= CLASSIFIED_MAX) this.classified.clear();
      this.classified.set(path, found);
    }
    return found;
  }

  private classifyNow(path: string): { kind: Kind; lang: string | null } | null {
    if (this.ignored(path) || inGitFolder(path)) return null;
    for (const p of this.places) if (p.globs.some((g) => g.match(path))) return { kind: p.kind, lang: null };
    const parts = path.split('/');
    if (parts.length < 2) return null;
    const lang = parts[parts.length - 2]!;
    const english = [...parts.slice(0, -2), parts[parts.length - 1]!].join('/');
    for (const p of this.places) if (p.variants && p.globs.some((g) => g.match(english))) return { kind: p.kind, lang };
    return null;
  }

  /**
   * Whether `kind`'s globs match a path (directly, or as a language variant), ignoring the other kinds:
   * the cheap check of a lint cache row's path (5,000 of them in a pre-commit run), made once per kind.
   */
  holder(kind: Kind): (path: string) => boolean {
    const place = this.places.find((p) => p.kind === kind);
    if (!place) return () => false;
    const { variants } = place;
    const matchers = place.globs.map((g) => g.match);
    const any = (path: string): boolean => {
      // Indexed, not for-of: this runs per cache row, mostly before V8 optimizes it.
      for (let i = 0; i < matchers.length; i++) if (matchers[i]!(path)) return true;
      return false;
    };
    const ignored = this.ignored;
    // The usual case, one glob and no ignores or variants: its matcher itself (this runs per cache row,
    // mostly before V8 optimizes it, where every call layer counts).
    if (matchers.length === 1 && !variants && !this.hasIgnores) return matchers[0]!;
    return (path) => {
      if (ignored(path)) return false;
      if (any(path)) return true;
      const slash = path.lastIndexOf('/');
      if (!variants || slash <= 0) return false;
      const langSlash = path.lastIndexOf('/', slash - 1);
      return any(`${langSlash === -1 ? '' : path.slice(0, langSlash + 1)}${path.slice(slash + 1)}`);
    };
  }

  /** The language folder of a document of `kind` known to be one (a path from the lint cache), else null. */
  langOf(kind: Kind, path: string): string | null {
    const place = this.variantPlaces.get(kind);
    if (place === undefined || place.globs.some((g) => g.match(path))) return null;
    const slash = path.lastIndexOf('/');
    const langSlash = path.lastIndexOf('/', slash - 1);
    return path.slice(langSlash + 1, slash);
  }

  /** Whether documents of two kinds could share a path: a folder of one lies in or below a folder of the other. */
  overlaps(a: Kind, b: Kind): boolean {
    const under = (x: string, y: string) => y === '' || x === y || x.startsWith(`${y}/`);
    return this.folders(a).some((fa) => this.folders(b).some((fb) => under(fa.dir, fb.dir) || under(fb.dir, fa.dir)));
  }

  /** The folders a kind's documents are listed from, with how deep below each they may lie. */
  folders(kind: Kind): { dir: string; depth: number; glob: PathGlob; variants: boolean }[] {
    const place = this.places.find((p) => p.kind === kind);
    if (!place) return [];
    return place.globs.flatMap((glob) => glob.bases.map((b) => ({ dir: b.dir, depth: b.depth, glob, variants: place.variants })));
  }

  /** The kinds whose documents can lie in or below the folder `rel` ('' = the root). */
  kindsUnder(rel: string): Kind[] {
    return this.kinds.filter((k) =>
      this.folders(k).some(
        (f) =>
          rel === '' || f.dir === rel || f.dir.startsWith(`${rel}/`) || (rel.startsWith(`${f.dir === '' ? '' : `${f.dir}/`}`) && (f.depth > 1 || f.variants)),
      ),
    );
  }
}

/**
 * What a directory entry named like a document really is, following a symlink only inside the root. A
 * link to a file in `.git`, or to one git ignores (`git`), is as a broken link: the target is no part of
 * the repository (in a fresh clone, such a link is broken).
 */
function inspect(realRoot: string, abs: string, entry: Dirent, git: GitIgnored | null): Problem | 'file' {
  if (entry.isFile()) return 'file';
  if (entry.isDirectory()) return 'directory';
  // A FIFO, socket or device named like a document is never opened: opening a FIFO blocks until a writer comes.
  if (!entry.isSymbolicLink()) return 'special';
  const target = resolved(abs);
  if ('code' in target) return 'unreadable';
  if (!isInside(realRoot, target.real)) return 'symlink-outside';
  const rel = realRelative(realRoot, target.real) ?? '';
  if (inGitFolder(rel)) return 'unreadable';
  if (git !== null) {
    // A link may lead out of the folders git was asked about: its target's folder is asked too.
    const slash = rel.lastIndexOf('/');
    git.cover([slash === -1 ? '' : rel.slice(0, slash)]);
    if (git.ignores(rel, false)) return 'unreadable';
  }
  try {
    const st = statSync(target.real);
    return st.isDirectory() ? 'directory' : st.isFile() ? 'file' : 'special';
  } catch {
    return 'unreadable';
  }
}

/** A symlink in the SysRS folder that is not named like a document: a language folder inside the root, one outside, or neither. */
function linkedFolder(realRoot: string, abs: string): 'inside' | 'outside' | null {
  const target = resolved(abs);
  if ('code' in target) return null;
  try {
    // Only a stat of the target (it is never opened or listed): a link to a file is no folder of documents.
    if (!statSync(target.real).isDirectory()) return null;
  } catch {
    return null;
  }
  return isInside(realRoot, target.real) ? 'inside' : 'outside';
}

/** How a root-relative path is reached from the root, one folder at a time (an lstat each). */
export type Reach =
  /** Reached inside the root; `dir` when it is (or links to) a folder. A broken link at the end is a file. */
  | { kind: 'found'; dir: boolean }
  | { kind: 'missing' }
  /** A symlink on the way (or at the end) resolves outside the root: nothing past it was looked at. */
  | { kind: 'outside' };

export function reach(root: string, realRoot: string, rel: string): Reach {
  if (rel === '') return { kind: 'found', dir: true };
  const parts = rel.split('/');
  let abs = root.endsWith(sep) ? root.slice(0, -1) : root;
  for (let i = 0; i < parts.length; i++) {
    const last = i === parts.length - 1;
    abs += sep + parts[i]!;
    let st: Stats | undefined;
    try {
      st = lstatSync(abs, { throwIfNoEntry: false });
    } catch {
      return { kind: 'missing' }; // ENOTDIR, EACCES, …: nothing by that path
    }
    if (!st) return { kind: 'missing' };
    if (!st.isSymbolicLink()) {
      if (last) return { kind: 'found', dir: st.isDirectory() };
      continue;
    }
    const target = resolved(abs);
    if ('code' in target) return last ? { kind: 'found', dir: false } : { kind: 'missing' };
    if (!isInside(realRoot, target.real)) return { kind: 'outside' };
    if (last) return { kind: 'found', dir: existsAsDirectory(target.real) };
  }
  return { kind: 'missing' };
}

/**
 * Whether a file docgate writes (cache, report) at `file` would land outside the root through a folder
 * of the root linked outside it (e.g. a committed `reports -> /etc`). A file outside the root, at a path
 * the user chose, is not checked; a link at the file itself is replaced by the write, never followed.
 */
export function folderLeavesRoot(root: string, file: string): boolean {
  const realRoot = realFolder(root) ?? root;
  const base = isInside(root, file) ? root : isInside(realRoot, file) ? realRoot : null;
  if (base === null) return false;
  const rel = relative(base, dirname(file)).split(sep).join('/');
  return reach(root, realRoot, rel).kind === 'outside';
}

/**
 * Writes a file of docgate's own under a root (a cache, a report, the baseline), the one guarded way:
 * never through a folder of the root linked outside it, and atomically by safe-fs `replaceFile` (a
 * temporary file created exclusively, renamed over `file`: a link there is replaced, never written through).
 */
export function replaceUnderRoot(root: string, file: string, data: Buffer): void {
  if (folderLeavesRoot(root, file)) throw new WriteRefused('its folder resolves outside the root (through a symbolic link)');
  replaceFile(file, data);
}

/** The failure of a kind or language folder that was not listed, or null when it is simply absent. */
function folderProblem(
  root: string,
  realRoot: string,
  relDir: string,
  listing: Exclude<Listing, { kind: 'listed' }>,
): Pick<FileRef, 'problem' | 'code' | 'link'> | null {
  switch (listing.kind) {
    case 'outside':
      return { problem: 'folder-outside', link: true };
    case 'error':
      return { problem: 'folder-unreadable', code: listing.code };
    case 'absent':
      // Absent through a link to outside (whose target lacks the folder) is still a folder outside the root.
      return reach(root, realRoot, relDir).kind === 'outside' ? { problem: 'folder-outside', link: true } : null;
  }
}

/** The real path of the root a document was found under (resolved once per process). */
export function realRootOf(ref: Pick<FileRef, 'abs' | 'path'>): string {
  const root = ref.abs.slice(0, ref.abs.length - ref.path.length - 1);
  return realFolder(root) ?? root;
}

/** Whether a directory entry could be a folder to list: a folder, or a link (followed only inside the root). */
function folderLike(entry: Dirent): boolean {
  return entry.isDirectory() || entry.isSymbolicLink();
}

/** A folder a walk is to list: how deep below it the glob reaches, and (in a language folder) where its English documents lie. */
interface Visit {
  relDir: string;
  depth: number;
  variants: boolean;
  lang: string | null;
  /** Set inside a language folder: the folder the variant's English source lies in, whose path the glob is matched against. */
  english: string | null;
  viaLink: boolean;
  /** Named as a folder (not a link) by the listing of a folder inside the root (safe-fs `listInside`). */
  entry: boolean;
  /** The folder whose listing named it, still open (held), and its name there: it is opened through that handle. */
  parent: { folder: HeldFolder; name: string } | null;
}

/** One glob's walk from one of its folders: the folders it listed (by device and inode) and the documents it found. */
interface Walk {
  glob: PathGlob;
  seen: Set<string>;
  out: FileRef[];
}

/** A linked folder a round of walks lists later, for the walks that reached it. */
interface LinkedVisit {
  v: Visit;
  members: readonly Walk[];
}

/** Whether the entries of a folder a walk lists may be folders it goes into (deeper documents, or a language folder). */
function folderLikeBelow(depth: number, variants: boolean, english: string | null): boolean {
  return english === null && (depth > 1 || variants);
}

/** Whether a name is `.git` in any case (git refuses such a path in every case): never listed, never a document. */
function isGitName(name: string): boolean {
  return name.length === 4 && name.charCodeAt(0) === 0x2e && name.toLowerCase() === '.git';
}

/**
 * Finds the documents of `kinds` (default: every kind of the layout) under `root`, sorted by path
 * (code point order), listing only the folders their include globs start from (and below them, as deep
 * as the globs reach). Entries named like documents that are not regular files are kept, with `problem`
 * set, so that lint reports them instead of skipping them silently; so are folders that resolve outside
 * the root or cannot be listed (one ref for the folder, its path the folder's), and names that are not
 * valid UTF-8. Ignored paths are neither listed nor returned: the configuration's `ignores`, anything
 * in a `.git` folder, and what git ignores (`git`, see git-ignored.ts; made here when not given).
 * `folders`, when given, receives the stat identity of every folder listed, null for one that was not
 * (the lint cache keeps it to reuse the listing, see lint.ts).
 *
 * Each glob's walk lists a real folder once (by device and inode), whatever the links: a link back up
 * (`a -> .`) adds nothing, and a folder reached both by its own path and through a link is listed by
 * its own path (linked folders are listed after every other, in path order). Globs of a kind that start
 * from the same folder share its listing, and each finds its own documents there; those that start
 * from it as deep also walk it together, one pass over each listing for them all.
 */
export function discover(
  root: string,
  kinds: ReadonlySet<Kind> | undefined,
  folders: Map<string, string | null> | undefined,
  layout: Layout,
  git?: GitIgnored,
): FileRef[] {
  const realRoot = realFolder(root) ?? realpathSync.native(root);
  const ignoredByGit = git ?? new GitIgnored(realRoot);
  const out: FileRef[] = [];
  const ignores = layout.hasIgnores;
  const places = layout.kinds.filter((k) => !kinds || kinds.has(k)).map((kind) => ({ kind, folders: layout.folders(kind) }));
  const gitTree = ignoredByGit.inWorkTree;
  // Git answers, in one call, for every folder the walks start from (by their real paths: git does not follow links).
  if (gitTree) ignoredByGit.cover(places.flatMap((p) => p.folders.flatMap((f) => realDirOf(realRoot, absolute(root, f.dir)) ?? [])));
  // A folder's listing, shared by the globs that list it (two globs over one folder each find their own).
  const shared = places.reduce((n, p) => n + p.folders.length, 0) > 1 ? new Map<string, Listing>() : null;
  // A folder listed now is held open while its entries are walked: the folders below are opened through
  // its handle (no check of their own, docs/reliability.md). One listed before (shared) is not held.
  const list = (relDir: string, absDir: string, v: Visit): { listing: Listing; held: HeldFolder | null } => {
    const known = shared?.get(relDir);
    if (known) return { listing: known, held: null };
    const listing = listInside(absDir, realRoot, v.parent ? { parent: v.parent, hold: true } : { entry: v.entry, hold: true });
    const held = listing.kind === 'listed' ? (listing.held ?? null) : null;
    shared?.set(relDir, held === null || listing.kind !== 'listed' ? listing : { ...listing, held: undefined });
    return { listing, held };
  };
  /**
   * Lists one folder for the walks of `members` (globs of `kind` that start from the same folder as
   * deep), and below it what their globs reach: folders inside it at once, linked folders into `linked`
   * (listed after every other). Each member keeps what a walk of its glob alone would: the folders it
   * listed (`seen`, by device and inode) and its documents in the order it met them (`out`); only the
   * listing and the look at each entry are shared. (One closure for every kind, not one per kind: V8
   * keeps type feedback, and optimizes, per closure.)
   */
  const visit = (kind: Kind, earlier: readonly ((path: string) => boolean)[], members: readonly Walk[], v: Visit, linked: LinkedVisit[]): void => {
    const { relDir, depth, variants, lang, english, viaLink } = v;
    const absDir = relDir === '' ? root : absolute(root, relDir);
    const { listing, held } = list(relDir, absDir, v);
    try {
      if (listing.kind !== 'listed') {
        folders?.set(relDir, null);
        const problem = folderProblem(root, realRoot, relDir, listing);
        if (problem) for (const m of members) m.out.push({ path: relDir, abs: absDir, kind, lang: null, ...problem });
        return;
      }
      const folder = `${listing.stats.dev}:${listing.stats.ino}`;
      // Listed by a member's walk already, by another path: not again for it.
      const active = members.filter((m) => !m.seen.has(folder));
      if (active.length === 0) return;
      for (const m of active) m.seen.add(folder);
      // Where the folder really lies, for git's answers and for a link into `.git` (a folder named so is never listed).
      const realDir = gitTree || viaLink ? (realRelative(realRoot, listing.real) ?? relDir) : relDir;
      if (viaLink && inGitFolder(realDir)) return;
      const byGit = gitTree && ignoredByGit.active;
      if (byGit && ignoredByGit.ignores(realDir, true)) return; // a folder git ignores (a base, or a link's target)
      // The identity of the folder as listed, from the handle it was listed through: an entry added after
      // the listing changes it, so a recorded identity never vouches for a listing that lacks a file.
      folders?.set(relDir, statIdentity(listing.stats));
      const realPrefix = realDir === '' ? '' : `${realDir}/`;
      const below = folderLikeBelow(depth, variants, english);
      // Indexed loops, no list made per entry: this runs once per file of the root, mostly before V8 optimizes it.
      const entries = listing.entries;
      const one = active.length === 1 ? active : null;
      for (let i = 0; i < entries.length; i++) {
        const entry = entries[i]!;
        if (isGitName(entry.name)) continue;
        const badName = listing.badNames?.has(entry) === true;
        const path = relDir === '' ? entry.name : `${relDir}/${entry.name}`;
        if (ignores && layout.isIgnored(path)) continue;
        if (gitTree && entry.name === '.gitignore') ignoredByGit.noteIgnoreFile(`${absDir}${sep}${entry.name}`);
        if (byGit && ignoredByGit.ignoresEntry(`${realPrefix}${entry.name}`, entry.isDirectory())) {
          ignoredByGit.dropped.add(path);
          continue;
        }
        const abs = `${absDir}${sep}${entry.name}`; // plain concatenation: path.join per entry costs at 10k files
        let matched: readonly Walk[] | null = null;
        let rest: readonly Walk[] | null = null;
        if (one !== null) {
          if (one[0]!.glob.matchIn(english ?? relDir, entry.name)) matched = one;
          else if (below) rest = one;
        } else {
          let took: Walk[] | null = null;
          let left: Walk[] | null = null;
          for (let j = 0; j < active.length; j++) {
            const m = active[j]!;
            if (m.glob.matchIn(english ?? relDir, entry.name)) (took ??= []).push(m);
            else if (below) (left ??= []).push(m);
          }
          matched = took;
          rest = left;
        }
        if (rest !== null && folderLike(entry)) {
          // A folder below: deeper documents of the globs that did not take the entry, or (for a kind with
          // variants, at the level of its documents) a language folder. A linked folder is followed only
          // when it stays inside the root.
          const where = badName ? 'bad-name' : entry.isDirectory() ? 'inside' : linkedFolder(realRoot, abs);
          if (where === 'bad-name') for (const m of rest) m.out.push({ path, abs, kind, lang: null, problem: 'bad-name' });
          else if (where === 'outside') for (const m of rest) m.out.push({ path, abs, kind, lang: null, problem: 'folder-outside', link: true });
          else if (where === 'inside') {
            const link = viaLink || entry.isSymbolicLink();
            const named = !entry.isSymbolicLink();
            const parent = named && held !== null ? { folder: held, name: entry.name } : null;
            const next: Visit =
              depth === 1
                ? { relDir: path, depth: 1, variants: false, lang: entry.name, english: relDir, viaLink: link, entry: named, parent }
                : { relDir: path, depth: depth - 1, variants, lang: null, english: null, viaLink: link, entry: named, parent };
            if (entry.isSymbolicLink()) linked.push({ v: next, members: rest });
            else visit(kind, earlier, rest, next, linked);
          }
        }
        if (matched === null) continue;
        if (earlier.length > 0 && earlier.some((holds) => holds(path))) continue; // an earlier kind of the registry holds it
        // A name that is not UTF-8 is never opened: its lossy text names another file, or none.
        const what = badName ? 'bad-name' : inspect(realRoot, abs, entry, gitTree ? ignoredByGit : null);
        for (let j = 0; j < matched.length; j++) {
          const ref: FileRef = { path, abs, kind, lang };
          if (what !== 'file') ref.problem = what;
          if (viaLink || entry.isSymbolicLink()) ref.link = true;
          matched[j]!.out.push(ref);
        }
      }
    } finally {
      if (held !== null) closeSync(held.fd);
    }
  };
  for (const { kind, folders: bases } of places) {
    // Kinds before this one whose documents could be named the same (their folders meet): a path they
    // hold is theirs. The default layout (docs/formats.md) has none, so most listings ask no other kind.
    const earlier = layout.kinds
      .slice(0, layout.kinds.indexOf(kind))
      .filter((k) => layout.overlaps(k, kind))
      .map((k) => layout.holder(k));
    // The globs that start from the same folder as deep walk together (the preset's four
    // `**/…/skills/*/SKILL.md` all start from the root): one pass over each listing for them all.
    const walks: Walk[] = bases.map((f) => ({ glob: f.glob, seen: new Set<string>(), out: [] }));
    const groups = new Map<string, number[]>();
    bases.forEach((f, i) => {
      const key = `${f.depth}\0${f.dir}`;
      const group = groups.get(key);
      if (group) group.push(i);
      else groups.set(key, [i]);
    });
    for (const group of groups.values()) {
      const f = bases[group[0]!]!;
      let linked: LinkedVisit[] = [];
      const start: Visit = { relDir: f.dir, depth: f.depth, variants: f.variants, lang: null, english: null, viaLink: false, entry: false, parent: null };
      visit(
        kind,
        earlier,
        group.map((i) => walks[i]!),
        start,
        linked,
      );
      // Linked folders, in path order, a round at a time (links met in them wait for the next round).
      while (linked.length > 0) {
        const round = linked.sort((a, b) => (a.v.relDir < b.v.relDir ? -1 : a.v.relDir > b.v.relDir ? 1 : 0));
        linked = [];
        if (gitTree) ignoredByGit.cover(round.flatMap((r) => realDirOf(realRoot, absolute(root, r.v.relDir)) ?? []));
        for (const r of round) visit(kind, earlier, r.members, r.v, linked);
      }
    }
    // In the order of the kind's globs, as if each had walked alone.
    for (const w of walks) for (const ref of w.out) out.push(ref);
  }
  out.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
  // Two globs of a kind may list the same file (`a/*.md` and `a/x*.md`): sorted, repeats are neighbours.
  return out.filter((r, i) => i === 0 || out[i - 1]!.path !== r.path);
}

/**
 * Git's answers for one lint run's discoveries: the first discovery asks git once for the folders of
 * every kind in `kinds` (a run lists them one kind at a time).
 */
export function gitIgnoredFor(root: string, layout: Layout, kinds: readonly Kind[]): GitIgnored {
  const realRoot = realFolder(root) ?? root;
  return new GitIgnored(realRoot, () => kinds.flatMap((k) => layout.folders(k).flatMap((f) => realDirOf(realRoot, absolute(root, f.dir)) ?? [])));
}

/**
 * Whether git ignores a root-relative path (a file, or a folder when `dir`), by where it really lies (a
 * link at its end followed): `git` answers for its folder, asking git if it has not yet.
 */
export function gitIgnoresPath(root: string, rel: string, dir: boolean, git?: GitIgnored): boolean {
  const ask = git ?? new GitIgnored(realFolder(root) ?? root);
  if (!ask.inWorkTree) return false;
  const real = realPathIn(root, rel);
  if (real === null) return false;
  const slash = real.lastIndexOf('/');
  ask.cover([dir ? real : slash === -1 ? '' : real.slice(0, slash)]);
  return ask.ignores(real, dir);
}

/** The real root-relative path of a root-relative path (a link at its end followed), or null when it does not resolve inside the root. */
export function realPathIn(root: string, rel: string): string | null {
  return realDirOf(realFolder(root) ?? root, rel === '' ? root : absolute(root, rel));
}

/** The real root-relative path of a folder inside the root, or null (missing, or outside). */
function realDirOf(realRoot: string, abs: string): string | null {
  const target = resolved(abs);
  return 'code' in target ? null : realRelative(realRoot, target.real);
}

/** `root` joined with a root-relative `/` path, by concatenation: path.join per file costs at 10k files. */
function absolute(root: string, rel: string): string {
  return (root.endsWith(sep) ? root : `${root}${sep}`) + (sep === '/' ? rel : rel.split('/').join(sep));
}

/** The reference of a document known by its root-relative path (a listing kept in the lint cache). */
export function refAt(root: string, path: string, kind: Kind, layout: Layout): FileRef {
  return { path, abs: absolute(root, path), kind, lang: layout.langOf(kind, path) };
}

export function existsAsDirectory(abs: string): boolean {
  try {
    return lstatSync(abs).isDirectory() || statSync(abs).isDirectory();
  } catch {
    return false;
  }
}
