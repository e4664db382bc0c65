import { lstatSync, readdirSync, realpathSync, statSync } from 'node:fs';
import type { Dirent } from 'node:fs';
import { join, relative, sep } from 'node:path';
import { identityOf } from './file-identity.js';
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
  problem?: 'directory' | 'symlink-outside' | 'unreadable';
  /** Reached through a symbolic link (the file, or its language folder): its content lives elsewhere. */
  link?: true;
}

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

function isInside(root: string, target: string): boolean {
  const rel = relative(root, target);
  return rel === '' || (!rel.startsWith('..') && !rel.startsWith(sep) && rel !== '..');
}

function list(dir: string): Dirent[] {
  try {
    return readdirSync(dir, { withFileTypes: true });
  } catch {
    return [];
  }
}

/** Resolves what kind of entry a directory entry really is, following symlinks only inside the root. */
function inspect(realRoot: string, abs: string, entry: Dirent): FileRef['problem'] | 'file' {
  if (entry.isFile()) return 'file';
  if (entry.isDirectory()) return 'directory';
  // A FIFO, socket or device named like a document is never opened: opening a FIFO blocks until a writer comes.
  if (!entry.isSymbolicLink()) return 'unreadable';
  try {
    const target = realpathSync(abs);
    if (!isInside(realRoot, target)) return 'symlink-outside';
    const st = statSync(target);
    return st.isDirectory() ? 'directory' : st.isFile() ? 'file' : 'unreadable';
  } catch {
    return 'unreadable';
  }
}

/**
 * Finds every document of the four kinds under `root`, sorted by path (code point order).
 * Entries named like documents that are not regular files are kept, with `problem` set, so that
 * lint reports them instead of skipping them silently. `folders`, when given, receives the stat
 * identity of every folder listed (the lint cache keeps it to reuse the listing, see lint.ts).
 */
export function discover(root: string, kinds?: ReadonlySet<Kind>, folders?: Map<string, string | null>): FileRef[] {
  const realRoot = realpathSync(root);
  const out: FileRef[] = [];
  const visit = (relDir: string, lang: string | null, kind: Kind, ext: string, sub: boolean, viaLink = false): void => {
    const absDir = absolute(root, relDir);
    // Stat before listing: an entry added after the stat changes the folder's identity, so a recorded
    // identity never vouches for a listing that lacks a file.
    folders?.set(relDir, identityOf(absDir));
    for (const entry of list(absDir)) {
      const path = `${relDir}/${entry.name}`;
      const abs = `${absDir}${sep}${entry.name}`; // plain concatenation: path.join per entry costs at 10k files
      if (sub && lang === null && (entry.isDirectory() || entry.isSymbolicLink()) && !entry.name.endsWith(ext)) {
        // A language folder; symlinked folders are followed only when they stay inside the root.
        if (entry.isDirectory() || inspect(realRoot, abs, entry) === 'directory') visit(path, entry.name, kind, ext, false, entry.isSymbolicLink());
        continue;
      }
      if (!entry.name.endsWith(ext) || entry.name.length <= ext.length) continue;
      const what = inspect(realRoot, abs, entry);
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
