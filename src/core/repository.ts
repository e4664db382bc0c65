import { existsSync, watch } from 'node:fs';
import type { FSWatcher } from 'node:fs';
import { join, sep } from 'node:path';
import { analyzeFileIdentified } from './analyze.js';
import type { Analysis } from './analysis.js';
import { crossFileDiagnostics } from './cross-file.js';
import { identityOf } from './file-identity.js';
import { KIND_DIRS, discover } from './layout.js';
import type { FileRef } from './layout.js';
import { resultOf } from './result.js';
import { isInside, realFolder, resolved } from './safe-fs.js';
import { loadRuleSet } from './schemas.js';
import type { ParseFailureResult, Kind } from './types.js';

/** One document as it is on disk now: its analysis and, when it fails, its ParseFailureResult. */
export interface Entry {
  ref: FileRef;
  analysis: Analysis;
  /** Own and cross-file diagnostics; null when the document passes (then `analysis.doc` is set). */
  failure: ParseFailureResult | null;
}

interface Cached {
  identity: string;
  analysis: Analysis;
}

interface Memo {
  fingerprint: string;
  rulesHash: string;
  /** Some document is reached through a symlink: its changes happen outside the watched folder. */
  links: boolean;
  entries: Entry[];
}

/** Change notification for one kind's folder: `dirty` until a scan has seen the folder as it is. */
interface Watch {
  ok: boolean;
  dirty: boolean;
  /**
   * Files named by events since the last scan (relative to the kind folder), or 'all'. They are re-read
   * even when their stat looks the same: two writes within one clock tick can leave size and mtime equal.
   */
  changed: Set<string> | 'all';
  watcher?: FSWatcher;
}

export interface RepositoryOptions {
  /**
   * Watch the kind folders (inotify) so that a call with nothing changed needs no stat of every file.
   * Callers must `await settle()` before `entries()` so that change events already queued are seen.
   */
  watch?: boolean;
}

/**
 * Live, cached access to the documents of a root for long-running frontends (the MCP server).
 * Every call looks at the disk again (a listing and a stat per file) — new, changed and deleted files are
 * seen at once — but a file whose identity (stat + rule files) is unchanged is not read or parsed again,
 * and when nothing of a kind changed, its entries (with cross-file rules applied) are returned as they
 * were. Cross-file rules always cover the whole kind, so a document's failure is the same whichever tool
 * asks first.
 */
export class Repository {
  private readonly cache = new Map<string, Cached>();
  private readonly memo = new Map<Kind, Memo>();
  private readonly watches = new Map<Kind, Watch>();

  constructor(
    readonly root: string,
    private readonly options: RepositoryOptions = {},
  ) {}

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

  private watchOf(kind: Kind): Watch {
    let w = this.watches.get(kind);
    if (w) return w;
    w = { ok: false, dirty: true, changed: 'all' };
    this.watches.set(kind, w);
    const dir = join(this.root, KIND_DIRS[kind]);
    if (!existsSync(dir)) return w; // nothing to watch: every call verifies by stat
    // A kind folder linked outside the root is a failure of discovery, never watched (a recursive watch lists it).
    const real = resolved(dir);
    if (!('real' in real) || !isInside(realFolder(this.root) ?? this.root, real.real)) return w;
    try {
      const state = w;
      state.watcher = watch(dir, { recursive: kind === 'sysrs', persistent: false }, (_event, name) => {
        state.dirty = true;
        if (state.changed !== 'all') {
          if (name) state.changed.add(String(name).split(sep).join('/'));
          else state.changed = 'all';
        }
      });
      state.watcher.on('error', () => {
        state.ok = false;
        state.watcher?.close();
      });
      state.ok = true;
    } catch {
      w.ok = false; // no inotify here (or no watches left): verify by stat
    }
    return w;
  }

  /** Stops watching (the server is closing). */
  close(): void {
    for (const w of this.watches.values()) w.watcher?.close();
    this.watches.clear();
  }

  /** Every document of `kind`, sorted by path (code point order). */
  entries(kind: Kind): Entry[] {
    const rules = loadRuleSet(this.root);
    const w = this.options.watch ? this.watchOf(kind) : undefined;
    const memo = this.memo.get(kind);
    if (w && w.ok && !w.dirty && memo && !memo.links && memo.rulesHash === rules.hash) return memo.entries;
    // Events from here on make the next call look again.
    const changed = w?.changed ?? new Set<string>();
    if (w) {
      w.dirty = false;
      w.changed = new Set();
    }
    const prefix = `${KIND_DIRS[kind]}/`;
    const forced = (path: string) => changed === 'all' || changed.has(path.slice(prefix.length));
    const refs = discover(this.root, new Set([kind]));
    const stats = refs.map((ref) => (ref.problem ? `problem:${ref.problem}` : identityOf(ref.abs)));
    let fingerprint = rules.hash;
    refs.forEach((ref, i) => (fingerprint += `\n${ref.path}\0${stats[i] ?? '-'}`));
    if (memo && memo.fingerprint === fingerprint && (changed !== 'all' && changed.size === 0)) return memo.entries;

    const analyses: Analysis[] = [];
    const live: FileRef[] = [];
    const seen = new Set<string>();
    refs.forEach((ref, i) => {
      seen.add(ref.path);
      const stat = stats[i];
      if (stat === null || stat === undefined) return; // vanished since discovery
      const hit = this.cache.get(ref.path);
      let analysis = hit && hit.identity === `${stat}:${rules.hash}` && !forced(ref.path) ? hit.analysis : null;
      if (!analysis) {
        const fresh = analyzeFileIdentified(ref, rules);
        if (!fresh) {
          this.cache.delete(ref.path);
          return;
        }
        analysis = fresh.analysis;
        // The identity of the handle the bytes came from: a change after our stat is seen next time.
        this.cache.set(ref.path, { identity: `${fresh.identity}:${rules.hash}`, analysis });
      }
      analyses.push(analysis);
      live.push(ref);
    });
    for (const [path, cached] of this.cache) {
      if (!seen.has(path) && cached.analysis.kind === kind) this.cache.delete(path);
    }
    const cross = crossFileDiagnostics(analyses);
    const entries = analyses.map((analysis, i) => ({ ref: live[i]!, analysis, failure: resultOf(analysis, cross.get(analysis.path)) }));
    this.memo.set(kind, { fingerprint, rulesHash: rules.hash, links: refs.some((r) => r.link === true), entries });
    return entries;
  }
}
