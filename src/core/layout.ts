import { lstatSync, realpathSync, statSync } from 'node:fs';
import type { Dirent, Stats } from 'node:fs';
import { dirname, relative, sep } from 'node:path';
import { statIdentity } from './file-identity.js';
import { WriteRefused, isInside, listInside, realFolder, replaceFile, resolved } from './safe-fs.js';
import type { Listing } from './safe-fs.js';
import type { Kind } from './types.js';
import { compileGlobs, compilePathGlob } from '../engine/glob.js';
import type { PathGlob } from '../engine/glob.js';
import { BUILTIN_KINDS } from '../kinds/index.js';

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
 * `<folder>/<lang>/<file>` beside an included English `<folder>/<file>` (SPEC §8: variants stay structural).
 */
export class Layout {
  private readonly places: { kind: Kind; globs: PathGlob[]; variants: boolean }[];
  private readonly ignored: (path: string) => boolean;
  /** The places of kinds with language variants (a lookup per cached path: most kinds have none). */
  private readonly variantPlaces: Map<Kind, { globs: PathGlob[] }>;

  constructor(places: readonly KindPlace[], ignores: readonly string[] = []) {
    this.places = places.map((p) => ({ kind: p.kind, globs: p.include.map(compilePathGlob), variants: p.variants }));
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
  classify(path: string): { kind: Kind; lang: string | null } | null {
    if (this.ignored(path)) return null;
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
      this.folders(k).some((f) => rel === '' || f.dir === rel || f.dir.startsWith(`${rel}/`) || (rel.startsWith(`${f.dir === '' ? '' : `${f.dir}/`}`) && (f.depth > 1 || f.variants))),
    );
  }
}

let defaultLayout: Layout | undefined;

/** The layout of SPEC §1: every kind where the registry puts it, nothing ignored. */
export function builtinLayout(): Layout {
  return (defaultLayout ??= new Layout(BUILTIN_KINDS.map((k) => ({ kind: k.name as Kind, include: k.include, variants: k.variants }))));
}

/** The kind (and language) of a root-relative path in the built-in layout. */
export function classify(path: string): { kind: Kind; lang: string | null } | null {
  return builtinLayout().classify(path);
}

/** What a directory entry named like a document really is, following a symlink only inside the root. */
function inspect(realRoot: string, abs: string, entry: Dirent): Problem | 'file' {
  if (entry.isFile()) return 'file';
  if (entry.isDirectory()) return 'directory';
  // A FIFO, socket or device named like a document is never opened: opening a FIFO blocks until a writer comes.
  if (!entry.isSymbolicLink()) return 'special';
  const target = resolved(abs);
  if ('code' in target) return 'unreadable';
  if (!isInside(realRoot, target.real)) return 'symlink-outside';
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
function folderProblem(root: string, realRoot: string, relDir: string, listing: Exclude<Listing, { kind: 'listed' }>): Pick<FileRef, 'problem' | 'code' | 'link'> | null {
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

/**
 * Finds the documents of `kinds` (default: every kind of the layout) under `root`, sorted by path
 * (code point order), listing only the folders their include globs start from (and below them, as deep
 * as the globs reach). Entries named like documents that are not regular files are kept, with `problem`
 * set, so that lint reports them instead of skipping them silently; so are folders that resolve outside
 * the root or cannot be listed (one ref for the folder, its path the folder's), and names that are not
 * valid UTF-8. Ignored paths are neither listed nor returned. `folders`, when given, receives the stat
 * identity of every folder listed, null for one that was not (the lint cache keeps it to reuse the
 * listing, see lint.ts).
 */
export function discover(root: string, kinds?: ReadonlySet<Kind>, folders?: Map<string, string | null>, layout: Layout = builtinLayout()): FileRef[] {
  const realRoot = realFolder(root) ?? realpathSync.native(root);
  const out: FileRef[] = [];
  const add = (ref: FileRef): void => {
    out.push(ref);
  };
  const ignores = layout.hasIgnores;
  /**
   * Lists `relDir` for `kind`, `depth` levels deep at most. `english` is set inside a language folder:
   * the folder the variant's English source lies in, whose path the glob is matched against. (One
   * closure for every kind, not one per kind: V8 keeps type feedback, and optimizes, per closure.)
   */
  const visit = (kind: Kind, earlier: readonly ((path: string) => boolean)[], glob: PathGlob, relDir: string, depth: number, variants: boolean, lang: string | null, english: string | null, viaLink: boolean): void => {
    const absDir = relDir === '' ? root : absolute(root, relDir);
    if (folders?.has(relDir)) return; // listed already through another glob of the kind
    const listing = listInside(absDir, realRoot);
    if (listing.kind !== 'listed') {
      folders?.set(relDir, null);
      const problem = folderProblem(root, realRoot, relDir, listing);
      if (problem) add({ path: relDir, abs: absDir, kind, lang: null, ...problem });
      return;
    }
    // The identity of the folder as listed, from the handle it was listed through: an entry added after
    // the listing changes it, so a recorded identity never vouches for a listing that lacks a file.
    folders?.set(relDir, statIdentity(listing.stats));
    for (const entry of listing.entries) {
      const badName = listing.badNames?.has(entry) === true;
      const path = relDir === '' ? entry.name : `${relDir}/${entry.name}`;
      if (ignores && layout.isIgnored(path)) continue;
      const abs = `${absDir}${sep}${entry.name}`; // plain concatenation: path.join per entry costs at 10k files
      const matched = glob.matchIn(english ?? relDir, entry.name);
      if (!matched && folderLike(entry) && english === null && (depth > 1 || variants)) {
        // A folder below: deeper documents of the glob, or (for a kind with variants, at the level of
        // its documents) a language folder. A linked folder is followed only when it stays inside the root.
        const where = badName ? 'bad-name' : entry.isDirectory() ? 'inside' : linkedFolder(realRoot, abs);
        const asLanguage = depth === 1;
        if (where === 'bad-name') add({ path, abs, kind, lang: null, problem: 'bad-name' });
        else if (where === 'outside') add({ path, abs, kind, lang: null, problem: 'folder-outside', link: true });
        else if (where === 'inside') {
          if (asLanguage) visit(kind, earlier, glob, path, 1, false, entry.name, relDir, viaLink || entry.isSymbolicLink());
          else visit(kind, earlier, glob, path, depth - 1, variants, null, null, viaLink || entry.isSymbolicLink());
        }
        continue;
      }
      if (!matched) continue;
      if (earlier.some((holds) => holds(path))) continue; // an earlier kind of the registry holds it
      // A name that is not UTF-8 is never opened: its lossy text names another file, or none.
      const what = badName ? 'bad-name' : inspect(realRoot, abs, entry);
      const ref: FileRef = { path, abs, kind, lang };
      if (what !== 'file') ref.problem = what;
      if (viaLink || entry.isSymbolicLink()) ref.link = true;
      add(ref);
    }
  };
  for (const kind of layout.kinds) {
    if (kinds && !kinds.has(kind)) continue;
    // Kinds before this one whose documents could be named the same (their folders meet): a path they
    // hold is theirs. The layout of SPEC §1 has none, so most listings ask no other kind.
    const earlier = layout.kinds.slice(0, layout.kinds.indexOf(kind)).filter((k) => layout.overlaps(k, kind)).map((k) => layout.holder(k));
    for (const f of layout.folders(kind)) visit(kind, earlier, f.glob, f.dir, f.depth, f.variants, null, null, false);
  }
  out.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
  // Two globs of a kind may list the same file (`a/*.md` and `a/x*.md`): sorted, repeats are neighbours.
  return out.filter((r, i) => i === 0 || out[i - 1]!.path !== r.path);
}

/** `root` joined with a root-relative `/` path, by concatenation: path.join per file costs at 10k files. */
function absolute(root: string, rel: string): string {
  return (root.endsWith(sep) ? root : `${root}${sep}`) + (sep === '/' ? rel : rel.split('/').join(sep));
}

/** The reference of a document known by its root-relative path (a listing kept in the lint cache). */
export function refAt(root: string, path: string, kind: Kind, layout: Layout = builtinLayout()): FileRef {
  return { path, abs: absolute(root, path), kind, lang: layout.langOf(kind, path) };
}

export function existsAsDirectory(abs: string): boolean {
  try {
    return lstatSync(abs).isDirectory() || statSync(abs).isDirectory();
  } catch {
    return false;
  }
}
