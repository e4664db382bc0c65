/**
 * The lint cache (`--cache`) as the pipeline's memo (lint.ts `Memo`): what a run may take from the cache
 * instead of listing, reading and analyzing, and what it writes back.
 */
import { join, relative, sep } from 'node:path';
import { analyzeRead, maxBytes } from './analyze.js';
import type { IdentifiedAnalysis } from './analyze.js';
import type { Analysis } from '../model/analysis.js';
import type { Folders } from '../store/cache-file.js';
import { addResults } from '../store/cache-rows.js';
import { crossFileDiagnostics } from '../engine/cross-file.js';
import { contentHash, identityOf, readLimited } from '../io/file-identity.js';
import { refAt } from '../io/layout.js';
import type { FileRef } from '../io/layout.js';
import type { LintCache } from '../store/lint-cache.js';
import type { ResultsOf } from '../store/lint-cache.js';
import { byPath, fromCache } from './memo.js';
import type { Memo, Reuse, Target } from './memo.js';
import { realFolder } from '../io/safe-fs.js';
import type { Diagnostic, Kind } from '../model/types.js';
import type { Project } from '../project/project.js';

/**
 * ESLint's `--cache` as the pipeline's memo. A file whose content hash is unchanged is not analyzed
 * again, and a file that is not linted feeds the cross-file rules its cached facts, unread: in a
 * whole-root run while its stat identity is unchanged; in a run over some paths (a pre-commit hook),
 * while its kind's folders are unchanged — without a stat per file, which would cost more than the rest
 * of the run at 10,000 files. A file edited in place since the last run therefore keeps its cached facts
 * for other files' rules until it is linted itself or the whole root is (docs/decisions.md). Linted
 * files are always checked.
 */
export class CacheMemo implements Memo {
  private readonly started = Date.now();
  private readonly realRoot: string;
  /** Kinds whose listing came from the cache (its folders unchanged). */
  private readonly trusted = new Set<Kind>();
  private readonly folders = new Map<Kind, ReadonlyMap<string, string | null>>();
  /** Bytes of changed files read for the cache check and kept for their analysis (see KEEP_READ_BYTES). */
  private kept = 0;

  constructor(
    private readonly project: Project,
    private readonly cache: LintCache,
    /** A run over some paths may reuse the cached listing of a kind. */
    private readonly reuseListings: boolean,
  ) {
    this.realRoot = realFolder(project.root) ?? project.root;
  }

  isTrusted(kind: Kind | undefined): boolean {
    return kind !== undefined && this.trusted.has(kind);
  }

  distrust(): void {
    this.trusted.clear();
  }

  /**
   * The listing of a kind kept in the cache, while every folder it was listed from keeps its stat
   * identity: no document was added, removed or renamed there since (git checkouts and editors that save
   * through a temporary file replace files, which changes the folder too). Null when it cannot be trusted.
   */
  listing(kind: Kind): FileRef[] | null {
    if (!this.reuseListings) return null;
    const folders = this.cache.folders(kind);
    if (!folders || !unchanged(this.project.root, folders)) return null;
    this.trusted.add(kind);
    return this.cache.paths(kind).map((path) => refAt(this.project.root, path, kind, this.project.layout));
  }

  listed(kind: Kind, folders: ReadonlyMap<string, string | null>, _refs: readonly FileRef[], ignores: ReadonlyMap<string, string | null>): void {
    // The files git's answers came from are kept with the folders: a changed .gitignore lists again.
    const all = new Map(folders);
    for (const [abs, identity] of ignores) all.set(relative(this.project.root, abs).split(sep).join('/'), identity ?? MISSING);
    this.folders.set(kind, all);
  }

  lookup(ref: FileRef, full: boolean): Reuse | null {
    const entry = this.cache.get(ref.path, ref.kind);
    if (!entry || entry.hash === null || entry.kind !== ref.kind || ref.problem || (!entry.full && full)) return null;
    // Unchanged stat identity proves unchanged content, except for a file modified around the time it
    // was cached (git's "racily clean" case): then its content hash decides. An unlinted file of a
    // kind whose listing is trusted is taken as cached without a stat.
    if (!entry.racy && ((!full && this.trusted.has(ref.kind)) || identityOf(ref.abs) === entry.identity)) return { analysis: fromCache(ref, entry) };
    const read = readLimited(ref.abs, maxBytes(this.project, ref.kind), this.realRoot);
    if (read.kind !== 'bytes') return null;
    const hash = contentHash(read.bytes);
    if (hash === entry.hash) {
      // The new identity is recorded, and the racy mark goes unless the file is still racy now.
      const { racy: _wasRacy, ...settled } = entry;
      this.cache.set(ref.path, { ...settled, identity: read.identity, ...racy(read.identity, this.started) });
      return { analysis: fromCache(ref, entry) };
    }
    // A changed file read for the check is analyzed without a second read, up to KEEP_READ_BYTES in all:
    // after a checkout that changed thousands of files, the rest are read again rather than held.
    return (this.kept += read.bytes.length) <= KEEP_READ_BYTES ? { read, hash } : null;
  }

  remember(ref: FileRef, full: boolean, r: IdentifiedAnalysis): void {
    const { kind, id, diagnostics, facts, directives } = r.analysis;
    this.cache.set(ref.path, {
      kind,
      id,
      hash: r.hash,
      identity: r.identity,
      full,
      diagnostics,
      facts,
      ...(directives ? { directives } : {}),
      ...racy(r.identity, this.started),
    });
  }

  /**
   * A run over a few named files, answered without the rest of their kinds: when each kind's listing is
   * trusted, its rows' results across files were kept (see `LintCache.results`) and each racy row is a
   * named file's, the named files are checked as `lookup` checks them, analyzed when changed, and as long
   * as each keeps the id and facts of its row, the kept results are what the rules across files give.
   * Null when any of that does not hold: the whole pipeline runs (and keeps the results for next time).
   */
  few(ts: readonly Target[]): { analyses: Analysis[]; cross: Map<string, Diagnostic[]> } | null {
    if (!this.reuseListings || ts.length > MAX_FEW) return null;
    return this.cache.lightly(() => this.fewLightly(ts));
  }

  private fewLightly(ts: readonly Target[]): { analyses: Analysis[]; cross: Map<string, Diagnostic[]> } | null {
    const byKind = new Map<Kind, Map<string, FileRef>>();
    for (const t of ts) {
      const c = t.dir || t.lossy !== undefined ? null : this.project.layout.classify(t.rel);
      if (!c) return null;
      const refs = byKind.get(c.kind) ?? new Map<string, FileRef>();
      byKind.set(c.kind, refs.set(t.rel, refAt(this.project.root, t.rel, c.kind, this.project.layout)));
    }
    const analyses: Analysis[] = [];
    const cross = new Map<string, Diagnostic[]>();
    for (const [kind, refs] of byKind) {
      const folders = this.cache.keptFolders(kind);
      if (!folders || !unchanged(this.project.root, folders)) return null;
      const kept = this.cache.results(kind);
      if (!kept || [...kept.racy].some((path) => !refs.has(path))) return null;
      for (const ref of refs.values()) {
        const a = this.named(ref);
        if (!a) return null;
        analyses.push(a);
      }
      addResults(cross, kept.results);
    }
    return { analyses: byPath(analyses), cross };
  }

  /**
   * The results across files of the documents of a run that took every one of them from its row: the
   * kept results of each kind, when its rows are exactly those documents (as many rows as documents, each
   * document found in a row). Null when a kind has none that hold.
   */
  keptResults(needed: readonly FileRef[]): Map<string, Diagnostic[]> | null {
    const count = new Map<Kind, number>();
    for (const ref of needed) count.set(ref.kind, (count.get(ref.kind) ?? 0) + 1);
    const cross = new Map<string, Diagnostic[]>();
    for (const [kind, n] of count) {
      const kept = this.cache.size(kind) === n ? this.cache.results(kind) : null;
      if (!kept) return null;
      addResults(cross, kept.results);
    }
    return cross;
  }

  /** A named file of `few`: its row's analysis, or its new one when it keeps the row's id and facts. */
  private named(ref: FileRef): Analysis | null {
    const entry = this.cache.get(ref.path, ref.kind);
    if (!entry || entry.hash === null || !entry.full) return null;
    const known = this.lookup(ref, true);
    if (!known || 'analysis' in known) return known?.analysis ?? null;
    const done = analyzeRead(ref, known.read, this.project, true, known.hash);
    if (!done || !this.cache.sameFacts(entry, done.analysis)) return null;
    this.remember(ref, true, done);
    done.analysis.doc = null; // as lintFiles keeps its results: nothing reads the parsed document after
    return done.analysis;
  }

  /** Writes what `few` set. */
  saveFew(): string | null {
    return this.cache.save(this.resultsOf);
  }

  /** A kind's results across files from its rows alone, as a run whose listing is trusted reads them. */
  private readonly resultsOf: ResultsOf = (_kind, entries) => {
    const analyses = [...entries].map(([path, e]) => fromCache({ path }, e));
    return crossFileDiagnostics(this.project.kinds, byPath(analyses), this.project.severityFor);
  };

  /** Drops entries of files gone, records the listings that can be reused, writes the cache. */
  save(needed: readonly FileRef[], slots: readonly (Analysis | null)[]): string | null {
    const kinds = new Set(needed.map((f) => f.kind));
    // A trusted kind's listing is its section's paths: nothing to drop there.
    const listedKinds = new Set([...kinds].filter((k) => !this.trusted.has(k)));
    if (listedKinds.size > 0) this.cache.retain(new Set(needed.filter((f) => listedKinds.has(f.kind)).map((f) => f.path)), listedKinds);
    for (const [kind, folders] of this.folders) {
      if (kinds.has(kind)) this.cache.setListing(kind, listingToKeep(kind, folders, needed, slots, this.started));
    }
    return this.cache.save(this.resultsOf);
  }
}

/**
 * The folders to record for a kind just listed, or null when its listing must not be reused: a folder
 * changed around the time it was listed (its identity might not move again for an entry added in the
 * same clock tick), a document that is a link or not a regular file (re-examined every run), or one
 * that vanished before it was read (the section lacks it).
 */
function listingToKeep(
  kind: Kind,
  folders: ReadonlyMap<string, string | null>,
  needed: readonly FileRef[],
  slots: readonly (Analysis | null)[],
  started: number,
): Folders | null {
  const out: Folders = {};
  for (const [rel, identity] of folders) {
    if (identity === null || (identity !== MISSING && racy(identity, started).racy)) return null;
    out[rel] = identity;
  }
  for (let i = 0; i < needed.length; i++) {
    const ref = needed[i]!;
    if (ref.kind === kind && (ref.problem || ref.link || slots[i] === null)) return null;
  }
  return out;
}

/** The identity recorded for a file a listing depends on that did not exist (a .gitignore not written). */
const MISSING = 'missing';

/** Whether every folder (and ignore file) a listing was recorded with still has its identity. */
function unchanged(root: string, folders: Folders): boolean {
  for (const [rel, identity] of Object.entries(folders)) if ((identityOf(join(root, rel)) ?? MISSING) !== identity) return false;
  return true;
}

/** At most this many bytes of changed files read for the cache check are kept for their analysis. */
const KEEP_READ_BYTES = 16 * 1024 * 1024;

/** Named files answered from the kept results across files at most (see `CacheMemo.few`); more run whole. */
const MAX_FEW = 32;

/** How close to a run's start a modification makes a cached stat untrustworthy (coarse file-system clocks). */
export const RACY_WINDOW_MS = 2000;

/**
 * Whether a stat identity (its first field is the mtime) was last changed well before `time`: outside the
 * racy window, a second change in the same timestamp tick can no longer look unchanged.
 */
export function settledBefore(identity: string, time: number): boolean {
  const mtime = Number.parseFloat(identity);
  return Number.isFinite(mtime) && mtime < time - RACY_WINDOW_MS;
}

/** `{ racy: true }` when the file's mtime (the first field of its identity) is near or after the run's start. */
function racy(identity: string, started: number): { racy?: true } {
  return settledBefore(identity, started) ? {} : { racy: true };
}
