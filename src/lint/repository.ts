import { statSync, watch } from 'node:fs';
import type { FSWatcher } from 'node:fs';
import { join } from 'node:path';
import { documentOf } from './analyze.js';
import type { IdentifiedAnalysis } from './analyze.js';
import type { Analysis } from '../model/analysis.js';
import { identityOf } from '../io/file-identity.js';
import type { FileRef } from '../io/layout.js';
import { settledBefore } from './cache-memo.js';
import { analyzeHere, analyzeWork, fill, fillOne, kindEntries, planKind } from './lint.js';
import type { KindEntry, Plan, Work } from './lint.js';
import type { Memo, Reuse } from './memo.js';
import { analyzeInParallel, worthThreads } from './parallel.js';
import type { Split } from './parallel.js';
import { keepRow } from './row.js';
import { isInside, realFolder, resolved } from '../io/safe-fs.js';
import type { Kind } from '../model/types.js';
import { loadProject } from '../project/project.js';
import type { Project, ProjectOptions } from '../project/project.js';

/** One document as it is on disk now: its analysis and, when it fails, its ParseFailureResult. */
export type Entry = KindEntry;

/** What the server remembers of a document: its analysis, under the identity of what was read. */
interface Remembered {
  /** Stat identity of the bytes analyzed. */
  identity: string;
  /**
   * The project key they were analyzed under. Compared apart from the identity: the key holds every rule
   * file's text, and one string made of both would be copied and compared whole for every document.
   */
  key: string;
  /** Analyzed with its rules (not only for its facts): a document's row, or its failure. */
  full: boolean;
  /** Without its parsed document: its row (src/lint/row.ts), facts and diagnostics. */
  analysis: Analysis;
}

/** The entries of a kind as last made, and what they were made from. */
interface KindMemo {
  key: string;
  /** Some document is reached through a symlink: its changes happen outside the watched folders. */
  links: boolean;
  entries: Entry[];
  /** The files git's answers came from (.gitignore and the like), with their identities then (null: missing). */
  ignores: ReadonlyMap<string, string | null>;
}

/** A watched folder, and the identity of the folder that was at its path when the watch began. */
interface Watched {
  /** Relative to the root, `/` separators. */
  rel: string;
  identity: string;
  watcher?: FSWatcher;
}

/**
 * Change notification for one kind: `dirty` until a scan has seen its folders as they are. Node's own
 * recursive watch is not used: on Linux it misses every change in a language folder that was replaced.
 */
interface Watch {
  /** The kind's folder (also while it is missing) and every language folder listed in it. */
  folders: Map<string, Watched>;
  /** Every folder in `folders` exists and is watched. */
  ok: boolean;
  dirty: boolean;
  /**
   * Files named by events since the last scan (root-relative), or 'all'. They are re-read
   * even when their stat looks the same: two writes within one clock tick can leave size and mtime equal.
   */
  changed: Set<string> | 'all';
}

/**
 * What is at a folder's path now. A watcher stays with the folder it was given, so a folder moved away
 * and replaced (`mv templates t.old && cp -r t.old templates`) would be watched no more; the birth time
 * tells a folder deleted and created again apart (ext4 hands out the freed inode number at once).
 */
function folderIdentity(abs: string): string {
  try {
    const st = statSync(abs, { throwIfNoEntry: false });
    if (!st) return 'missing';
    return `${st.isDirectory() ? 'folder' : 'other'}:${st.dev}:${st.ino}:${st.birthtimeMs}`;
  } catch (e) {
    return `error:${(e as NodeJS.ErrnoException).code ?? ''}`;
  }
}

/**
 * Whether a folder is still as it was listed (`listedAs`, the stat identity of the handle it was listed
 * through): no entry added, removed or renamed since. A listing within the racy window of the folder's
 * last change vouches for nothing (a second change in the same timestamp tick would look the same).
 */
function sameSinceListing(abs: string, listedAs: string | null): boolean {
  return listedAs !== null && identityOf(abs) === listedAs && settledBefore(listedAs, Date.now());
}

/**
 * Whether the files git's answers came from are as they were then (a stat each): a .gitignore edited or
 * created since, outside the watched folders (the root's), lists the kind again. A file changed within
 * the racy window of that listing vouches for nothing.
 */
function sameIgnores(ignores: ReadonlyMap<string, string | null>, now: number): boolean {
  for (const [abs, identity] of ignores) if (identityOf(abs) !== identity || (identity !== null && !settledBefore(identity, now))) return false;
  return true;
}

export interface RepositoryOptions {
  /**
   * Watch the kind folders (inotify) so that a call with nothing changed needs no stat of every file.
   * Callers must `await settle()` before `entries()` so that change events already queued are seen.
   */
  watch?: boolean;
  /** `--config` and the folder it is relative to. */
  project?: ProjectOptions;
  /**
   * Many documents to analyze are analyzed on worker threads: `entries()` throws NeedsLoad instead, and
   * the caller awaits `load(kind)` and asks again (the MCP server's ToolRunner).
   */
  workers?: boolean;
  /** Told after each load on worker threads who analyzed how many documents (the server's debug log). */
  onLoaded?: (kind: Kind, split: Split) => void;
}

/** `entries(kind)` has many documents to analyze: `await load(kind)`, then ask again (RepositoryOptions.workers). */
export class NeedsLoad extends Error {
  constructor(readonly kind: Kind) {
    super(`the ${kind} documents are to be analyzed on worker threads first`);
  }
}

/** Parsed documents kept for get tools (a SysRS of 20 KB parses into ~100 KB): a few MB at most. */
const KEEP_PARSED = 32;

/** A kind's documents being made again: the plan, what the memory holds, the work left. */
interface Run {
  project: Project;
  memo: MemoryMemo;
  p: Plan;
  slots: (Analysis | null)[];
  work: Work[];
  /** The kind's watch, and the changes the run took from it (given back when the run is dropped). */
  watch: Watch | undefined;
  changed: Set<string> | 'all';
  /** What git's answers of the run's listing came from (see KindMemo.ignores). */
  ignores: ReadonlyMap<string, string | null>;
}

/**
 * Live, cached access to the documents of a root for long-running frontends (the MCP server).
 * Every call looks at the disk again (a listing and a stat per file) — new, changed and deleted files are
 * seen at once — but a file whose identity (stat + rule files) is unchanged is not read or parsed again,
 * and when nothing of a kind changed, its entries (with cross-file rules applied) are returned as they
 * were. Cross-file rules always cover the whole kind, so a document's failure is the same whichever tool
 * asks first.
 */
/**
 * The server's memory as the lint pipeline's memo: a document whose stat identity (and project) is
 * unchanged, and that no change event named, is not read or parsed again.
 */
class MemoryMemo implements Memo {
  constructor(
    private readonly project: Project,
    private readonly remembered: Map<string, Remembered>,
    private readonly key: string,
    private readonly forced: (path: string) => boolean,
    private readonly onListed: (kind: Kind, folders: ReadonlyMap<string, string | null>, ignores: ReadonlyMap<string, string | null>) => void,
  ) {}

  listing(): FileRef[] | null {
    return null;
  }

  listed(kind: Kind, folders: ReadonlyMap<string, string | null>, _refs: readonly FileRef[], ignores: ReadonlyMap<string, string | null>): void {
    this.onListed(kind, folders, ignores);
  }

  lookup(ref: FileRef, full: boolean): Reuse | null {
    if (ref.problem || this.forced(ref.path)) return null;
    const hit = this.remembered.get(ref.path);
    if (!hit || (full && !hit.full)) return null;
    const stat = identityOf(ref.abs);
    return stat !== null && hit.identity === stat && hit.key === this.key ? { analysis: hit.analysis } : null;
  }

  remember(ref: FileRef, full: boolean, r: IdentifiedAnalysis): void {
    // The row, not the parsed document (in place: the run's own slot holds the same analysis).
    keepRow(r.analysis, this.project);
    // The identity of the handle the bytes came from: a change after our stat is seen next time.
    this.remembered.set(ref.path, { identity: r.identity, key: this.key, full, analysis: r.analysis });
  }
}

export class Repository {
  private readonly remembered = new Map<string, Remembered>();
  private readonly memo = new Map<Kind, KindMemo>();
  private readonly watches = new Map<Kind, Watch>();

  constructor(
    readonly root: string,
    private readonly options: RepositoryOptions = {},
  ) {}

  private lastProject: { project: Project; identities: (string | null)[] } | undefined;

  /**
   * The project as it is now: kept while the stat identity of every file and folder it was made from
   * (Project.inputs) is unchanged, else loaded again, so a changed configuration, rule file or baseline
   * is seen at the next call. A project whose inputs changed within the racy window of its loading is
   * not kept (a second change in the same timestamp tick would look unchanged).
   */
  project(): Project {
    const last = this.lastProject;
    if (last?.project.inputs.every((p, i) => identityOf(p) === last.identities[i])) return last.project;
    const started = Date.now();
    const project = loadProject(this.root, this.options.project ?? {});
    const identities = project.inputs.map(identityOf);
    const settled = identities.every((id) => id === null || settledBefore(id, started));
    this.lastProject = settled ? { project, identities } : undefined;
    return project;
  }

  /**
   * The memo for a lint run over the repository (MCP `validate`): documents already analyzed are reused
   * while their stat identity is unchanged.
   */
  lintMemo(project: Project): Memo {
    return new MemoryMemo(
      project,
      this.remembered,
      project.key,
      () => false,
      () => {},
    );
  }

  /**
   * Lets change events that the kernel has already queued reach their watchers, so a file written before
   * a request was sent is seen by it. Events are read in the event loop's poll phase; two `setImmediate`
   * hops guarantee one full poll phase between this call and the next `entries()`, whatever phase the
   * caller runs in (from a poll callback the first hop alone would run before any new poll).
   */
  async settle(): Promise<void> {
    if (!this.options.watch) return;
    await new Promise<void>((resolve) => setImmediate(resolve));
    await new Promise<void>((resolve) => setImmediate(resolve));
  }

  /**
   * The kind's watch, checked first: every watched folder must still be the folder at its path (one stat
   * each). When one is not (replaced, deleted, created since), the watch starts afresh and nothing
   * remembered of the kind is trusted.
   */
  private watchOf(project: Project, kind: Kind): Watch {
    const old = this.watches.get(kind);
    if (old && [...old.folders.values()].every((f) => folderIdentity(join(this.root, f.rel)) === f.identity)) return old;
    if (old) for (const f of old.folders.values()) f.watcher?.close();
    const w: Watch = { folders: new Map(), ok: true, dirty: true, changed: 'all' };
    this.watches.set(kind, w);
    for (const f of project.layout.folders(kind)) this.watchFolder(w, f.dir);
    return w;
  }

  /** Adds a folder to a watch; its identity is taken before the watcher starts, so a swap in between shows next time. */
  private watchFolder(w: Watch, rel: string): void {
    if (w.folders.has(rel)) return;
    const abs = join(this.root, rel);
    const folder: Watched = { rel, identity: folderIdentity(abs) };
    w.folders.set(rel, folder);
    if (!folder.identity.startsWith('folder:')) {
      w.ok = false; // nothing to watch: every call verifies by stat
      return;
    }
    // A folder linked outside the root is a failure of discovery, never watched (its events would tell of outside files).
    const real = resolved(abs);
    if (!('real' in real) || !isInside(realFolder(this.root) ?? this.root, real.real)) {
      w.ok = false;
      return;
    }
    const prefix = rel === '' ? '' : `${rel}/`;
    try {
      folder.watcher = watch(abs, { persistent: false }, (_event, name) => {
        w.dirty = true;
        if (w.changed !== 'all') {
          if (name) w.changed.add(`${prefix}${String(name)}`);
          else w.changed = 'all';
        }
      });
      folder.watcher.on('error', () => {
        w.ok = false;
        folder.watcher?.close();
      });
    } catch {
      w.ok = false; // no inotify here (or no watches left): verify by stat
    }
  }

  /** Stops watching (the server is closing). */
  close(): void {
    for (const w of this.watches.values()) for (const f of w.folders.values()) f.watcher?.close();
    this.watches.clear();
  }

  /**
   * Every document of these kinds remembered, for a lint over `lintMemo()` that then reads nothing that
   * did not change. Cold, a large kind stops the caller with NeedsLoad, as `entries()` does.
   */
  remember(kinds: Iterable<Kind>): void {
    for (const kind of kinds) this.entries(kind);
  }

  /** Every document of `kind`, sorted by path (code point order). */
  entries(kind: Kind): Entry[] {
    const run = this.begin(kind);
    if ('entries' in run) return run.entries;
    if (this.options.workers && worthThreads(run.work.length)) {
      // Kept for load(), which the caller awaits next: the watch's changes were taken by this run.
      this.parked.set(kind, run);
      throw new NeedsLoad(kind);
    }
    fill(run.slots, run.work, analyzeHere(run.project, run.work, false), run.memo);
    return this.end(kind, run);
  }

  /**
   * A run parked by `entries()` that will not be loaded (the caller gives up): its kind is looked at
   * afresh next time, every document checked again.
   */
  abandon(kind: Kind): void {
    const run = this.parked.get(kind);
    this.parked.delete(kind);
    if (run) this.drop(run);
  }

  /** A run that will not end: the changes it took from its watch are given back, so the next call looks again. */
  private drop(run: Run): void {
    const w = run.watch;
    if (!w) return;
    w.dirty = true;
    if (w.changed === 'all' || run.changed === 'all') w.changed = 'all';
    else for (const path of run.changed) w.changed.add(path);
  }

  /** Runs that `entries()` left to `load()`. */
  private readonly parked = new Map<Kind, Run>();
  /** Kinds being loaded on worker threads, so that a second call waits for the first. */
  private readonly loading = new Map<Kind, Promise<void>>();

  /**
   * Makes a kind's entries again, analyzing on worker threads as lint does (the cold load of a large
   * root: docs/performance.md, "Scale (issue 17)"); `entries()` then finds every document remembered.
   */
  async load(kind: Kind): Promise<void> {
    const run = this.parked.get(kind);
    this.parked.delete(kind);
    let pending = this.loading.get(kind);
    if (!pending) {
      pending = this.loadKind(kind, run).finally(() => this.loading.delete(kind));
      this.loading.set(kind, pending);
    } else if (run) {
      // Parked by a second call while the kind was loading: the load under way serves it, and what the
      // run took from the watch (changes made meanwhile) is seen by the next call.
      this.drop(run);
    }
    await pending;
  }

  private async loadKind(kind: Kind, parked: Run | undefined): Promise<void> {
    const run = parked ?? this.begin(kind);
    if ('entries' in run) return;
    const { project, work } = run;
    if (!worthThreads(work.length)) {
      fill(run.slots, work, analyzeHere(project, work, false), run.memo);
    } else {
      // As lint does: this thread and the workers take chunks; workers read their own files and send back
      // rows, facts and diagnostics (never parsed documents). Made under the project of the run's start
      // (remembered under its key): a project changed since is seen by the next entries(), which then
      // makes the kind again.
      const items = work.map((w) => ({ ref: w.ref, withBody: w.withBody }));
      const split = await analyzeInParallel(
        this.root,
        this.options.project ?? {},
        { items, here: (i) => analyzeWork(project, work[i]!, false), done: (i, r) => fillOne(run.slots, work[i]!, r, run.memo) },
        { hashing: false, rows: true },
      );
      this.options.onLoaded?.(kind, split);
    }
    this.end(kind, run);
  }

  /** The documents parsed last for `document()`, by the analysis of their entry, the most recent last. */
  private readonly parsed = new Map<Analysis, unknown>();

  /**
   * The parsed document of an entry that passes, read and parsed again from its one file (the server
   * keeps rows, not documents). Null when the file changed since its entry was made so that it no longer
   * parses into a document (the next call sees the change). The last few are kept, under the analysis
   * they belong to: an agent reads a document in windows, and a changed file gets a new analysis.
   */
  document(entry: Entry): unknown {
    if (entry.failure !== null) return null;
    const key = entry.analysis;
    const kept = this.parsed.get(key);
    this.parsed.delete(key);
    const doc = kept ?? documentOf(entry.ref, this.project());
    if (doc === null) return null;
    this.parsed.set(key, doc);
    if (this.parsed.size > KEEP_PARSED) this.parsed.delete(this.parsed.keys().next().value!);
    return doc;
  }

  /**
   * A kind's entries as they were when nothing changed; else the run that makes them again: the plan,
   * what the memory holds, the work left. Change events from here on make the next call look again.
   */
  private begin(kind: Kind): { entries: Entry[] } | Run {
    const project = this.project();
    const w = this.options.watch ? this.watchOf(project, kind) : undefined;
    const memo = this.memo.get(kind);
    if (w?.ok && !w.dirty && memo && !memo.links && memo.key === project.key && sameIgnores(memo.ignores, Date.now())) return { entries: memo.entries };
    const changed = w?.changed ?? new Set<string>();
    if (w) {
      w.dirty = false;
      w.changed = new Set();
    }
    const forced = (path: string) => changed === 'all' || changed.has(path);
    let ignores: ReadonlyMap<string, string | null> = new Map();
    const onListed = (_kind: Kind, folders: ReadonlyMap<string, string | null>, gitInputs: ReadonlyMap<string, string | null>): void => {
      ignores = gitInputs;
      if (!w) return;
      // A folder seen for the first time (a language folder) is watched from now on. A file added to it
      // between its listing and its watch would be missed: unless the folder, looked at once the watch
      // began, is still as it was listed, the next call scans the kind again. (Files already listed are
      // read after this, under the watch.)
      for (const [rel, listedAs] of folders) {
        if (w.folders.has(rel)) continue;
        this.watchFolder(w, rel);
        if (!sameSinceListing(join(this.root, rel), listedAs)) w.dirty = true;
      }
    };
    const mm = new MemoryMemo(project, this.remembered, project.key, forced, onListed);
    const planned = planKind(project, kind, mm);
    return { project, memo: mm, ...planned, watch: w, changed, ignores };
  }

  /** The run's work done (every slot filled): rules across files, the entries, and what is remembered. */
  private end(kind: Kind, run: Run): Entry[] {
    const entries = kindEntries(run.project, run.p, run.slots, run.memo);
    const live = new Set(entries.map((e) => e.ref.path));
    for (const [path, r] of this.remembered) if (r.analysis.kind === kind && !live.has(path)) this.remembered.delete(path);
    this.memo.set(kind, { key: run.project.key, links: entries.some((e) => e.ref.link === true), entries, ignores: run.ignores });
    return entries;
  }
}
