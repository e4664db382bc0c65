import { lstatSync, realpathSync, statSync } from 'node:fs';
import type { Dirent, Stats } from 'node:fs';
import { dirname, relative, sep } from 'node:path';
import { statIdentity } from './file-identity.js';
import { isInside, listInside, realFolder, resolved } from './safe-fs.js';
import type { Listing } from './safe-fs.js';
import type { Kind } from './types.js';

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
 * FIFO, socket or device, a name that is not valid UTF-8; or (the ref's path then being the folder's) a
 * kind or language folder that resolves outside the root, or that cannot be listed.
 */
export type Problem = 'directory' | 'symlink-outside' | 'unreadable' | 'special' | 'bad-name' | 'folder-outside' | 'folder-unreadable';

/** Where each kind lives (SPEC §1). `sub` allows one level of folders below (SysRS language variants). */
const LAYOUT: readonly { dir: string; ext: string; kind: Kind; sub: boolean }[] = [
  { dir: 'templates/power', ext: '.txt', kind: 'template', sub: false },
  { dir: 'frameworks', ext: '.md', kind: 'framework', sub: false },
  { dir: 'processes', ext: '.md', kind: 'process', sub: false },
  { dir: 'docs/sysrs', ext: '.md', kind: 'sysrs', sub: true },
];

/** The folder of each kind, relative to the root. */
export const KIND_DIRS: Readonly<Record<Kind, string>> = Object.fromEntries(LAYOUT.map((l) => [l.kind, l.dir])) as Record<Kind, string>;

/** The kind (and language) of a root-relative path, or null when it is not a document. */
export function classify(path: string): { kind: Kind; lang: string | null } | null {
  for (const l of LAYOUT) {
    if (!path.startsWith(`${l.dir}/`) || !path.endsWith(l.ext)) continue;
    const rest = path.slice(l.dir.length + 1).split('/');
    if (rest.length === 1 && rest[0]!.length > l.ext.length) return { kind: l.kind, lang: null };
    if (l.sub && rest.length === 2 && rest[1]!.length > l.ext.length) return { kind: l.kind, lang: rest[0]! };
  }
  return null;
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

/**
 * Finds every document of the four kinds under `root`, sorted by path (code point order).
 * Entries named like documents that are not regular files are kept, with `problem` set, so that
 * lint reports them instead of skipping them silently; so are kind and language folders that resolve
 * outside the root or cannot be listed (one ref for the folder, its path the folder's), and names that
 * are not valid UTF-8. `folders`, when given, receives the stat identity of every folder listed, null
 * for one that was not (the lint cache keeps it to reuse the listing, see lint.ts).
 */
export function discover(root: string, kinds?: ReadonlySet<Kind>, folders?: Map<string, string | null>): FileRef[] {
  const realRoot = realFolder(root) ?? realpathSync.native(root);
  const out: FileRef[] = [];
  const visit = (relDir: string, lang: string | null, kind: Kind, ext: string, sub: boolean, viaLink = false): void => {
    const absDir = absolute(root, relDir);
    const listing = listInside(absDir, realRoot);
    if (listing.kind !== 'listed') {
      folders?.set(relDir, null);
      const problem = folderProblem(root, realRoot, relDir, listing);
      if (problem) out.push({ path: relDir, abs: absDir, kind, lang: null, ...problem });
      return;
    }
    // The identity of the folder as listed, from the handle it was listed through: an entry added after
    // the listing changes it, so a recorded identity never vouches for a listing that lacks a file.
    folders?.set(relDir, statIdentity(listing.stats));
    for (const entry of listing.entries) {
      const badName = listing.badNames?.has(entry) === true;
      const path = `${relDir}/${entry.name}`;
      const abs = `${absDir}${sep}${entry.name}`; // plain concatenation: path.join per entry costs at 10k files
      if (sub && lang === null && (entry.isDirectory() || entry.isSymbolicLink()) && !entry.name.endsWith(ext)) {
        // A language folder; a linked one is followed only when it stays inside the root.
        if (badName) out.push({ path, abs, kind, lang: null, problem: 'bad-name' });
        else if (entry.isDirectory()) visit(path, entry.name, kind, ext, false);
        else {
          const where = linkedFolder(realRoot, abs);
          if (where === 'inside') visit(path, entry.name, kind, ext, false, true);
          else if (where === 'outside') out.push({ path, abs, kind, lang: null, problem: 'folder-outside', link: true });
        }
        continue;
      }
      if (!entry.name.endsWith(ext) || entry.name.length <= ext.length) continue;
      // A name that is not UTF-8 is never opened: its lossy text names another file, or none.
      const what = badName ? 'bad-name' : inspect(realRoot, abs, entry);
      const ref: FileRef = { path, abs, kind, lang };
      if (what !== 'file') ref.problem = what;
      if (viaLink || entry.isSymbolicLink()) ref.link = true;
      out.push(ref);
    }
  };
  for (const l of LAYOUT) if (!kinds || kinds.has(l.kind)) visit(l.dir, null, l.kind, l.ext, l.sub);
  return out.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
}

/** `root` joined with a root-relative `/` path, by concatenation: path.join per file costs at 10k files. */
function absolute(root: string, rel: string): string {
  return (root.endsWith(sep) ? root : `${root}${sep}`) + (sep === '/' ? rel : rel.split('/').join(sep));
}

/** The reference of a document known by its root-relative path (a listing kept in the lint cache). */
export function refAt(root: string, path: string, kind: Kind): FileRef {
  return { path, abs: absolute(root, path), kind, lang: kind === 'sysrs' ? variantLanguage(path) : null };
}

/** The language folder of a SysRS path (`docs/sysrs/<lang>/<file>`), or null for an English one. */
export function variantLanguage(sysrsPath: string): string | null {
  const start = KIND_DIRS.sysrs.length + 1;
  const slash = sysrsPath.indexOf('/', start);
  return slash === -1 ? null : sysrsPath.slice(start, slash);
}

export function existsAsDirectory(abs: string): boolean {
  try {
    return lstatSync(abs).isDirectory() || statSync(abs).isDirectory();
  } catch {
    return false;
  }
}
