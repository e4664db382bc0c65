/**
 * The git index as a tree of folders, for `lint --staged` where symbolic links are involved: a link is
 * a blob of mode 120000 whose text is its target, resolved here against the indexed tree as the kernel
 * resolves it in a checkout (component by component, relative to the real folder of the link, at most
 * MAX_LINKS links in a row), and the documents of a kind are found as discovery finds them on disk
 * (layout.ts `discover`): from the kind's folders, into linked folders that stay inside the root, each
 * real folder once per folder of the kind (a link loop ends). Nothing here runs git: the entries and
 * the link targets are given.
 */
import type { IndexEntry, StagedChange } from './git-index.js';
import { refAt } from './layout.js';
import type { FileRef, Layout, Problem } from './layout.js';
import type { Kind } from '../model/types.js';

export const SYMLINK = '120000';
export const GITLINK = '160000';
/** Links followed one after another at most (as the kernel's ELOOP limit). */
const MAX_LINKS = 40;

/** Where a path leads in the indexed tree. */
export type Resolved =
  /** An entry (a file, a gitlink, an unmerged path) at its real path. */
  | { type: 'entry'; path: string; entry: IndexEntry }
  | { type: 'folder'; path: string }
  /** Nothing there (ENOENT), a file where a folder was needed (ENOTDIR), or a link whose text is empty. */
  | { type: 'missing' }
  /** A link on the way leaves the root (`..` past it, or an absolute target). */
  | { type: 'outside' }
  /** More than MAX_LINKS links in a row (ELOOP). */
  | { type: 'loop' };

/** A document of the index: the blob it reads (its own, or a link's target), none for a problem. */
export interface IndexRef extends FileRef {
  blob?: IndexEntry;
}

/** Whether an entry is a symbolic link git can name (a path in conflict is none yet). */
export function isLink(e: IndexEntry | null | undefined): e is IndexEntry {
  return e !== null && e !== undefined && e.mode === SYMLINK && e.unmerged !== true;
}

/** Whether a path lies at, above or below one of `folders` ('' = the root, above everything). */
export function meets(path: string, folders: readonly string[]): boolean {
  return folders.some((f) => f === '' || path === f || path.startsWith(`${f}/`) || f.startsWith(`${path}/`));
}

export class IndexTree {
  /** Per folder, its entries by name (null: a folder), made on first use. */
  private folders: Map<string, Map<string, IndexEntry | null>> | undefined;

  constructor(
    readonly entries: ReadonlyMap<string, IndexEntry>,
    /** The text of a link's blob ('' when it could not be read). */
    private readonly targetOf: (link: IndexEntry) => string,
  ) {}

  /** HEAD's tree, as far as the root goes: this (the index) with every change undone. */
  before(changes: readonly StagedChange[]): IndexTree {
    const entries = new Map(this.entries);
    for (const c of changes) {
      if (c.head) entries.set(c.path, c.head);
      else entries.delete(c.path);
    }
    return new IndexTree(entries, this.targetOf);
  }

  /** The entries of a folder by name (null: a subfolder), or undefined when it is no folder. */
  children(dir: string): ReadonlyMap<string, IndexEntry | null> | undefined {
    if (!this.folders) {
      const folders = new Map<string, Map<string, IndexEntry | null>>([['', new Map()]]);
      for (const [path, entry] of this.entries) {
        let parent = '';
        let from = 0;
        for (let slash = path.indexOf('/'); slash !== -1; slash = path.indexOf('/', from)) {
          const dir = path.slice(0, slash);
          folders.get(parent)!.set(path.slice(from, slash), null);
          if (!folders.has(dir)) folders.set(dir, new Map());
          parent = dir;
          from = slash + 1;
        }
        folders.get(parent)!.set(path.slice(from), entry);
      }
      this.folders = folders;
    }
    return this.folders.get(dir);
  }

  /** Resolves a root-relative path, following links inside the indexed tree. */
  resolve(path: string): Resolved {
    const pending = path.split('/').reverse();
    let at = '';
    let hops = 0;
    while (pending.length > 0) {
      const part = pending.pop()!;
      if (part === '' || part === '.') continue;
      if (part === '..') {
        if (at === '') return { type: 'outside' };
        at = at.includes('/') ? at.slice(0, at.lastIndexOf('/')) : '';
        continue;
      }
      const next = at === '' ? part : `${at}/${part}`;
      const e = this.entries.get(next);
      if (e === undefined) {
        if (this.children(next) === undefined) return { type: 'missing' };
        at = next;
        continue;
      }
      if (isLink(e)) {
        if (++hops > MAX_LINKS) return { type: 'loop' };
        const target = this.targetOf(e);
        if (target === '') return { type: 'missing' };
        if (target.startsWith('/')) return { type: 'outside' }; // the root's place differs between checkouts
        // Relative to the folder that holds the link (`at`, already real).
        for (const t of target.split('/').reverse()) pending.push(t);
        continue;
      }
      // A file (or gitlink, or conflict) with more of the path to go is no folder (ENOTDIR).
      if (pending.some((p) => p !== '')) return { type: 'missing' };
      return { type: 'entry', path: next, entry: e };
    }
    return { type: 'folder', path: at };
  }

  /** What a link named like a document is: its target's entry, or the problem lint reports for it on disk. */
  private linked(path: string): { blob: IndexEntry } | { problem: Problem } {
    const r = this.resolve(path);
    if (r.type === 'outside') return { problem: 'symlink-outside' };
    if (r.type === 'missing' || r.type === 'loop') return { problem: 'unreadable' };
    if (r.type === 'folder' || r.entry.mode === GITLINK) return { problem: 'directory' };
    if (r.entry.unmerged) return { problem: 'unmerged' };
    return { blob: r.entry };
  }

  /**
   * The documents of `kind` in this tree, as `discover` finds them on disk: each folder of the kind
   * listed (through links inside the root), deeper folders and language folders as its globs reach,
   * a folder linked outside the root reported as `folder-outside`, a document that is a link resolved
   * (`symlink-outside`, `unreadable`, `directory`), a path in conflict `unmerged`. Sorted by path.
   */
  discover(root: string, layout: Layout, kind: Kind): IndexRef[] {
    const out: IndexRef[] = [];
    const earlier = layout.kinds
      .slice(0, layout.kinds.indexOf(kind))
      .filter((k) => layout.overlaps(k, kind))
      .map((k) => layout.holder(k));
    for (const f of layout.folders(kind)) {
      // The real folders listed for this folder of the kind: each once, so that a loop of links ends.
      const seen = new Set<string>();
      const problem = (path: string, p: Problem, more: Partial<FileRef> = {}): void => {
        out.push({ ...refAt(root, path, kind, layout), lang: null, problem: p, ...more });
      };
      const visit = (relDir: string, depth: number, variants: boolean, english: string | null, viaLink: boolean): void => {
        const r = this.resolve(relDir);
        if (r.type === 'outside') {
          problem(relDir, 'folder-outside', { link: true });
          return;
        }
        if (r.type === 'loop') {
          problem(relDir, 'folder-unreadable', { code: 'ELOOP' });
          return;
        }
        if (r.type === 'entry') {
          if (r.entry.mode !== GITLINK) problem(relDir, 'folder-unreadable', { code: 'ENOTDIR' });
          return;
        }
        if (r.type !== 'folder' || seen.has(r.path)) return;
        seen.add(r.path);
        for (const [name, e] of this.children(r.path)!) {
          const path = relDir === '' ? name : `${relDir}/${name}`;
          if (layout.hasIgnores && layout.isIgnored(path)) continue;
          const link = isLink(e);
          const matched = f.glob.matchIn(english ?? relDir, name);
          if (!matched && (e === null || link) && english === null && (depth > 1 || variants)) {
            // A folder below, or a link to one: followed while it stays inside the root.
            const where = e === null ? 'folder' : this.resolve(path).type;
            if (where === 'outside') problem(path, 'folder-outside', { link: true });
            else if (where === 'folder') {
              if (depth === 1) visit(path, 1, false, relDir, viaLink || link);
              else visit(path, depth - 1, variants, null, viaLink || link);
            }
            continue;
          }
          if (!matched || (e !== null && e.mode === GITLINK)) continue; // a submodule is no document
          if (earlier.some((holds) => holds(path))) continue; // an earlier kind of the registry holds it
          const ref: IndexRef = refAt(root, path, kind, layout);
          if (e === null) ref.problem = 'directory';
          else if (e.badName) ref.problem = 'bad-name';
          else if (e.unmerged) ref.problem = 'unmerged';
          else if (link) Object.assign(ref, this.linked(path));
          else ref.blob = e;
          if (viaLink || link || r.path !== relDir) ref.link = true;
          out.push(ref);
        }
      };
      visit(f.dir, f.depth, f.variants, null, false);
    }
    out.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
    return out.filter((r, i) => i === 0 || out[i - 1]!.path !== r.path);
  }
}
