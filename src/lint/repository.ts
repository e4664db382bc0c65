/**
 * Live, cached access to the documents of a root for long-running frontends (the MCP server, the
 * editor's language server): the lint pipeline (driver.ts) over the disk with the server's memory as its
 * store (memory-store.ts). Without watched folders every call looks at the disk again (a listing and a
 * stat per file) — new, changed and deleted files are seen at once — but a file whose identity (stat,
 * project) is unchanged is not read or parsed again. With watched folders, when nothing of a kind
 * changed, its entries (with the rules across files applied) are answered as they were, and the
 * editor's runs take the kind's listing as it was and each file the watch saw no event for as the
 * memory keeps it. The rules across files always cover the whole kind, so a document's failure is the
 * same whichever tool asks first.
 */
import { statSync, watch } from 'node:fs';
import type { FSWatcher } from 'node:fs';
import { join } from 'node:path';
import { identityOf, settledBefore } from '../io/file-identity.js';
import type { FileRef } from '../io/layout.js';
import { isInside, realFolder, resolved } from '../io/safe-fs.js';
import type { Analysis } from '../model/analysis.js';
import type { Kind } from '../model/types.js';
import { loadProject } from '../project/project.js';
import type { Project, ProjectOptions } from '../project/project.js';
import { MemoryStore } from '../store/memory-store.js';
import { documentOf } from './analyze.js';
import { collectIfExposed } from './collections.js';
import { DiskSource } from './disk-source.js';
import { lint, lintInParallel } from './lint.js';
import type { LintOutcome, RunOptions } from './lint.js';
import { OverlaySource } from './overlay-source.js';
import type { ServedDocument } from './results.js';
import { kindsListed, selectPaths } from './selection.js';
import type { Selection } from './selection.js';
import type { Split } from './parallel.js';

/** One document as it is on disk now: its analysis and, when it fails, its ParseFailureResult. */
export type Entry = ServedDocument;

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
  /** Told after each load on worker threads who analyzed how many documents (the server's debug log). */
  onLoaded?: (kind: Kind, split: Split) => void;
  /** Told when a watcher sees a change in a kind's folders (the editor's server lints its buffers again). */
  onChange?: () => void;
  /** Told of each project loaded (the configuration or a rule file changed, or first use): see src/mcp/tool-worker.ts. */
  onProject?: (project: Project) => void;
}

/** Parsed documents kept for get tools (a SysRS of 20 KB parses into ~100 KB): a few MB at most. */
const KEEP_PARSED = 32;

/** The entries of a kind as last made, and what they were made from. */
interface KindMemo {
  key: string;
  /** Some document is reached through a symlink: its changes happen outside the watched folders. */
  links: boolean;
  entries: Entry[];
  /** The files git's answers came from (.gitignore and the like), with their identities then (null: missing). */
  ignores: ReadonlyMap<string, string | null>;
}

/** A kind's documents about to be made again: the project, the source that tells what changed, and the watch. */
interface Begun {
  project: Project;
  source: DiskSource;
  /** The kind's watch, and the changes the run took from it (given back when the run fails). */
  watch: Watch | undefined;
  changed: Set<string> | 'all';
  ignores: { now: ReadonlyMap<string, string | null> };
}

/** How a server's runs treat documents: every one analyzed whole and kept as its row, each served. */
const SERVING: RunOptions = { docs: 'rows', fullAll: true, serve: true };

/** How the editor's runs treat documents: every one analyzed whole, with the results across files of their kinds. */
const OVER: RunOptions = { fullAll: true, across: true };

/** How a text proposed for one document is checked (check_content, the write tools): every document analyzed whole, rows kept. */
const CHECKING: RunOptions = { docs: 'rows', fullAll: true };

/** A kind's listing as an editor's run took it (lintOver), kept while its watch sees no change. */
interface Listed {
  key: string;
  refs: readonly FileRef[];
  /** Some document is reached through a symlink: its changes happen outside the watched folders. */
  links: boolean;
  ignores: ReadonlyMap<string, string | null>;
}

/** One kind of an editor's run: its watch, the changes the run took from it, and its listing (given, or as the run takes it). */
interface OverKind {
  watch: Watch;
  changed: Set<string> | 'all';
  given?: readonly FileRef[];
  taken?: Listed;
}

export class Repository {
  private readonly store = new MemoryStore();
  private readonly memo = new Map<Kind, KindMemo>();
  private readonly watches = new Map<Kind, Watch>();
  /** Kinds being loaded on worker threads, so that a second call waits for the first. */
  private readonly loading = new Map<Kind, Promise<Entry[]>>();
  /** Each kind's listing as the editor's last run took it (lintOver, with watched folders). */
  private readonly listed = new Map<Kind, Listed>();
  /** The paths laid over the disk in the editor's last run: their files' events went to runs that did not read them. */
  private laid: ReadonlySet<string> = new Set();

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
    this.options.onProject?.(project);
    return project;
  }

  /** The server's memory, for the project as it is now (what it held of another project is dropped). */
  private storeFor(project: Project): MemoryStore {
    // What another project held is garbage now: let go at once where the thread has `gc` (src/lint/collections.ts).
    if (this.store.key !== null && this.store.key !== project.key) collectIfExposed();
    return this.store.forProject(project.key);
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
        this.options.onChange?.();
      });
      folder.watcher.on('error', () => {
        w.ok = false;
        folder.watcher?.close();
      });
    } catch {
      w.ok = false; // no inotify here (or no watches left): verify by stat
    }
  }
  /**
   * A document this process has just written (the MCP write tools): its kind is listed again and the file
   * read again at the next call, whatever its stat and whether or not its watcher has told yet, so that
   * every tool sees the new text at once (two writes within one clock tick can leave size and mtime equal).
   */
  wrote(ref: FileRef): void {
    const w = this.watches.get(ref.kind);
    if (w) {
      w.dirty = true;
      if (w.changed !== 'all') w.changed.add(ref.path);
    }
    this.memo.delete(ref.kind);
    this.listed.delete(ref.kind);
  }
  /** Stops watching (the server is closing). */
  close(): void {
    for (const w of this.watches.values()) for (const f of w.folders.values()) f.watcher?.close();
    this.watches.clear();
  }
  /** Every document of `kind`, sorted by path (code point order), analyzed in this thread. */
  entries(kind: Kind): Entry[] {
    const b = this.begin(kind);
    if ('entries' in b) return b.entries;
    return this.end(kind, b, this.run(b, kind, false) as LintOutcome);
  }

  /**
   * Every document of `kind`, a large kind analyzed on worker threads as lint does (the cold load of a
   * large root); a second call while a kind loads waits for the first.
   */
  async load(kind: Kind): Promise<Entry[]> {
    const pending = this.loading.get(kind);
    if (pending) return pending;
    const b = this.begin(kind);
    if ('entries' in b) return b.entries;
    const p = (this.run(b, kind, true) as Promise<LintOutcome>)
      .then((out) => {
        if (out.timing.workers > 0) this.options.onLoaded?.(kind, out.timing);
        return this.end(kind, b, out);
      })
      .catch((e: unknown) => {
        this.giveBack(b.watch, b.changed);
        throw e;
      })
      .finally(() => this.loading.delete(kind));
    this.loading.set(kind, p);
    return p;
  }

  private run(b: Begun, kind: Kind, parallel: boolean): LintOutcome | Promise<LintOutcome> {
    const selection: Selection = { type: 'all', kinds: [kind] };
    const store = this.storeFor(b.project);
    return parallel ? lintInParallel(b.project, b.source, store, selection, SERVING) : lint(b.project, b.source, store, selection, SERVING);
  }

  /** A run that did not end: the changes it took from its watch are given back, so the next call looks again. */
  private giveBack(w: Watch | undefined, changed: Set<string> | 'all'): void {
    if (!w) return;
    w.dirty = true;
    if (w.changed === 'all' || changed === 'all') w.changed = 'all';
    else for (const path of changed) w.changed.add(path);
  }

  /**
   * The changes of a kind's watch, taken by a run that looks at them: what either way of answering
   * (entries, lintOver) kept of the kind relied on the watch seeing nothing, so both look again.
   */
  private take(kind: Kind, w: Watch | undefined): Set<string> | 'all' {
    this.memo.delete(kind);
    this.listed.delete(kind);
    const changed = w?.changed ?? new Set<string>();
    if (w) {
      w.dirty = false;
      w.changed = new Set();
    }
    return changed;
  }

  /**
   * Files the client says changed (the editor's `workspace/didChangeWatchedFiles`, root-relative): the
   * next run lists their kinds again and reads them, even where a watcher missed the change.
   */
  changed(paths: readonly string[]): void {
    for (const w of this.watches.values()) {
      w.dirty = true;
      if (w.changed !== 'all') for (const p of paths) w.changed.add(p);
    }
  }

  /**
   * A folder seen for the first time in a listing (a language folder) is watched from now on. A file
   * added to it between its listing and its watch would be missed: unless the folder, looked at once the
   * watch began, is still as it was listed, the next call scans the kind again. (Files already listed
   * are read after this, under the watch.)
   */
  private watchListed(w: Watch, folders: ReadonlyMap<string, string | null>): void {
    for (const [rel, listedAs] of folders) {
      if (w.folders.has(rel)) continue;
      this.watchFolder(w, rel);
      if (!sameSinceListing(join(this.root, rel), listedAs)) w.dirty = true;
    }
  }

  /**
   * The linter over the repository (MCP `validate`): each kind the paths need loaded as the list tools
   * load it (a large one on worker threads), then the run over the server's memory, which then reads
   * nothing that did not change.
   */
  async lint(paths: readonly string[] | undefined): Promise<LintOutcome> {
    const project = this.project();
    const selection = selectPaths(project, paths, this.root);
    const kinds = kindsListed(project, selection);
    for (const kind of kinds) await this.load(kind);
    return lint(project, new DiskSource(project, { kinds }), this.storeFor(project), selection, { docs: 'rows', fullAll: true, documents: true });
  }

  /**
   * The run of one document as if it held `bytes` (MCP check_content): every other document of its kind
   * as it is on disk (from the server's memory), this one analyzed from the bytes given, then the same
   * results as lint (rules across files, directives, baseline). For the bytes on disk its result is
   * lint's, byte for byte.
   */
  async check(ref: FileRef, bytes: Buffer): Promise<LintOutcome> {
    await this.load(ref.kind);
    // As the editor's runs: with watched folders, the other documents are the memory's, unlisted and unstatted.
    return this.runOver(new Map([[ref.path, { ref, bytes }]]), [ref.path], CHECKING, false);
  }

  /**
   * The run of the documents at `paths` with `texts` laid over the disk (the editor's open buffers, by
   * root-relative path): the rules across files over every document of their kinds as the disk and the
   * texts make them, over the server's memory (a text laid over is never kept). Its results are lint's
   * for those texts, byte for byte; `across` tells which other documents the texts touch. With watched
   * folders, a kind whose watch saw nothing is not listed again, and no file it saw no event for is
   * looked at: its analysis is the memory's (docs/editors.md, "Speed").
   */
  lintOver(texts: ReadonlyMap<string, { ref: FileRef; bytes: Buffer }>, paths: readonly string[]): LintOutcome {
    return this.runOver(texts, paths, OVER, true);
  }

  /** lintOver's run, for the editor (its buffers: `laid`) or for one text checked (check_content, the write tools). */
  private runOver(texts: ReadonlyMap<string, { ref: FileRef; bytes: Buffer }>, paths: readonly string[], options: RunOptions, editor: boolean): LintOutcome {
    const project = this.project();
    const selection: Selection = { type: 'paths', targets: paths.map((p) => ({ given: p, rel: p, dir: false })) };
    const kinds = kindsListed(project, selection);
    const store = this.storeFor(project);
    if (!this.options.watch) return lint(project, new OverlaySource(new DiskSource(project, { kinds }), texts), store, selection, options);
    const over = this.overKinds(project, kinds);
    // A buffer closed since the last run: its file's events (the editor saved it) went to runs that read the buffer instead.
    const closed = editor ? new Set([...this.laid].filter((p) => !texts.has(p))) : new Set<string>();
    const changed = (ref: FileRef): boolean => {
      const c = over.get(ref.kind)?.changed;
      return c === 'all' || c?.has(ref.path) === true || closed.has(ref.path);
    };
    const source = new DiskSource(project, {
      kinds,
      changed,
      listed: (kind) => over.get(kind)?.given,
      vouches: (ref) => over.get(ref.kind)?.watch.ok === true && !ref.link && !ref.problem && !changed(ref),
      onListed: (kind, folders, ignores, refs) => {
        const k = over.get(kind);
        if (k === undefined) return;
        this.watchListed(k.watch, folders);
        k.taken = { key: project.key, refs, links: refs.some((r) => r.link === true), ignores: new Map(ignores) };
      },
    });
    let out: LintOutcome;
    try {
      out = lint(project, new OverlaySource(source, texts), store, selection, options);
    } catch (e) {
      for (const k of over.values()) this.giveBack(k.watch, k.changed);
      throw e;
    }
    for (const [kind, k] of over) if (k.taken) this.listed.set(kind, k.taken);
    if (editor) this.laid = new Set(texts.keys());
    return out;
  }

  /** The kinds of an editor's run: each one's listing as it was while its watch saw nothing, else the changes to look at. */
  private overKinds(project: Project, kinds: readonly Kind[]): Map<Kind, OverKind> {
    const now = Date.now();
    const over = new Map<Kind, OverKind>();
    for (const kind of kinds) {
      const watch = this.watchOf(project, kind);
      const l = this.listed.get(kind) ?? this.memoListing(kind);
      if (watch.ok && !watch.dirty && l?.key === project.key && !l.links && sameIgnores(l.ignores, now))
        over.set(kind, { watch, changed: new Set(), given: l.refs });
      else over.set(kind, { watch, changed: this.take(kind, watch) });
    }
    return over;
  }

  /** The listing the list tools' entries of a kind were made from, while they are kept (the watch saw nothing since). */
  private memoListing(kind: Kind): Listed | undefined {
    const m = this.memo.get(kind);
    return m && { key: m.key, refs: m.entries.map((e) => e.ref), links: m.links, ignores: m.ignores };
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
   * A kind's entries as they were when nothing changed; else what the run that makes them again needs.
   * Change events from here on make the next call look again.
   */
  private begin(kind: Kind): { entries: Entry[] } | Begun {
    const project = this.project();
    const w = this.options.watch ? this.watchOf(project, kind) : undefined;
    const memo = this.memo.get(kind);
    if (w?.ok && !w.dirty && memo && !memo.links && memo.key === project.key && sameIgnores(memo.ignores, Date.now())) return { entries: memo.entries };
    const changed = this.take(kind, w);
    const ignores = { now: new Map<string, string | null>() as ReadonlyMap<string, string | null> };
    const onListed = (_kind: Kind, folders: ReadonlyMap<string, string | null>, gitInputs: ReadonlyMap<string, string | null>): void => {
      ignores.now = new Map(gitInputs);
      if (w) this.watchListed(w, folders);
    };
    const source = new DiskSource(project, { kinds: [kind], changed: (ref) => changed === 'all' || changed.has(ref.path), onListed });
    return { project, source, watch: w, changed, ignores };
  }

  /** A kind's entries made: kept to answer the next call while nothing changes. */
  private end(kind: Kind, b: Begun, out: LintOutcome): Entry[] {
    const entries = out.served ?? [];
    this.memo.set(kind, { key: b.project.key, links: entries.some((e) => e.ref.link === true), entries, ignores: b.ignores.now });
    return entries;
  }
}
