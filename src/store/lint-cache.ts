/**
 * The lint cache (`--cache`): the rows of each kind (cache-rows.ts) in one file (cache-file.ts), decoded
 * whole when a run asks about every file of a kind, or a few rows only for a run over a few named files,
 * and beside them the results across files the rows give.
 */
import { createRequire } from 'node:module';
import { MAX_UPDATES, readCacheFile, writeCacheFile } from './cache-file.js';
import type { CacheFile, Folders } from './cache-file.js';
import { bad, builtin, decodeSection, documentPathCheck, encodeSection, factsKey, findRow, keepableTree, resultRows, resultsOf } from './cache-rows.js';
import type { CacheEntry, CacheKinds, Entries, TreeResults } from './cache-rows.js';
import type { Kind } from '../model/types.js';
import { BUILD_ID } from '../io/version.js';

/**
 * What a run that looks up a few paths of a kind holds instead of the kind's decoded section: the
 * section parsed as JSON but not checked row by row (5,000 rows checked and made entries cost more than a
 * one-file lint's other work), its updates decoded (few), the rows found, and the entries set.
 */
interface Light {
  rows: readonly unknown[];
  updates: Entries;
  found: Map<string, CacheEntry | undefined>;
  sets: Entries;
}

/** Look-ups of one kind answered without decoding its section; past this, the section is decoded whole. */
const LIGHT_LOOKUPS = 64;

/** A kind's rows' results across files: computed by the caller from the rows (see `LintCache.save`). */
export type ResultsOf = (kind: Kind, entries: ReadonlyMap<string, CacheEntry>) => TreeResults;

/**
 * The results across files of a kind's rows, kept beside them, and the paths whose rows are racy: a run
 * whose listing is trusted checks those files again (see `CacheMemo.lookup`), so the results hold for a
 * run only when it checks every one of them itself.
 */
export interface KeptResults {
  racy: Set<string>;
  results: TreeResults;
}

/** Kept results as text: `[stamp, racyPaths, [[path, diagnostics], ...]]` (`null` without a stamp). */
function encodeKept(stamp: string | null, kept: KeptResults): string {
  return stamp === null ? 'null' : JSON.stringify([stamp, [...kept.racy].sort(), resultRows(kept.results)]);
}

let zlib: typeof import('node:zlib') | null | undefined;

/**
 * The CRC-32 of a kind's section and updates as they are on disk: kept results hold for exactly the
 * rows they were computed from, so a row changed in any other way (by hand, by another tool) voids them.
 * Null where this Node lacks `zlib.crc32` (before 20.15): no results are kept there. node:zlib is loaded
 * only by a run that keeps or reads results.
 */
function stampOf(section: string | Buffer | undefined, updates: string | Buffer | undefined): string | null {
  zlib ??= createRequire(import.meta.url)('node:zlib') as typeof import('node:zlib');
  if (typeof zlib.crc32 !== 'function') return null;
  return `${zlib.crc32(section ?? '')}:${zlib.crc32(updates ?? '')}`;
}

/**
 * ESLint's `--cache`, for docgate: entries are valid only under the same docgate version and the same
 * rule files (schemas, outline, heading tables); a file is skipped when its content hash is unchanged.
 * A missing, unreadable or foreign cache file is an empty cache, never an error.
 */
export class LintCache {
  private readonly parsed = new Map<Kind, Entries>();
  /** Kinds looked up or set without decoding their section (see `Light`). */
  private readonly light = new Map<Kind, Light>();
  /** Per kind, the paths set since the section was read, plus those already in its updates. */
  private readonly updated = new Map<Kind, Set<string>>();
  /** Kinds whose section must be written whole (an entry dropped, or the section unreadable). */
  private readonly rewrite = new Set<Kind>();
  /** Kinds with an entry set or dropped in this run. */
  private readonly touched = new Set<Kind>();
  /** Kinds where a path came or went, or an id or facts changed: the results across files kept for them no longer hold. */
  private readonly factsChanged = new Set<Kind>();
  private readonly kept = new Map<Kind, KeptResults | null>();
  /** Kinds whose kept results were found not to hold for their rows (or not to decode): computed again when the kind is decoded whole. */
  private readonly keptStale = new Set<Kind>();

  private fresh = false;
  private headerDirty = false;
  private lightMode = false;
  /** Why the cache file on disk was not used (a warning), or null. */
  problem: string | null = null;

  private constructor(
    readonly file: string,
    private readonly root: string,
    private readonly data: CacheFile,
    private readonly kinds: CacheKinds,
  ) {}

  /**
   * Reads the cache of `root` from `file`: a regular file of at most MAX_CACHE_BYTES, opened without
   * blocking and without following a link at its end out of the root (nor out of its own folder when
   * --cache-location puts it outside the root). Anything else is an empty cache, with `problem` saying why.
   */
  static load(file: string, version: string, rulesKey: string, root: string, kinds: CacheKinds = builtin()): LintCache {
    const read = readCacheFile(file, version, rulesKey, root);
    if ('data' in read) return new LintCache(file, root, read.data, kinds);
    const cache = new LintCache(file, root, { docgate: version, ...(BUILD_ID !== null ? { build: BUILD_ID } : {}), rules: rulesKey, kinds: {} }, kinds);
    cache.fresh = true;
    cache.problem = read.problem;
    return cache;
  }

  private section(kind: Kind): Entries {
    let entries = this.parsed.get(kind);
    if (!entries) {
      entries = new Map();
      const updated = new Set<string>();
      const text = this.data.kinds[kind];
      const updates = this.data.updates?.[kind];
      try {
        if (text !== undefined) entries = decodeSection(kind, String(text), this.kinds);
        if (updates !== undefined) {
          for (const [path, entry] of decodeSection(kind, String(updates), this.kinds)) {
            entries.set(path, entry);
            updated.add(path);
          }
        }
      } catch {
        // Unreadable or with a bad row: the kind starts afresh, and its recorded listing (the section's
        // paths) goes with it.
        entries = new Map();
        this.rewrite.add(kind);
        this.touched.add(kind);
        this.factsChanged.add(kind);
        if (this.data.listings?.[kind] !== undefined) {
          delete this.data.listings[kind];
          this.headerDirty = true;
        }
      }
      // What was set before the section was decoded is newer than its rows.
      for (const [path, entry] of this.light.get(kind)?.sets ?? []) {
        entries.set(path, entry);
        updated.add(path);
      }
      this.light.delete(kind);
      this.parsed.set(kind, entries);
      this.updated.set(kind, updated);
    }
    return entries;
  }

  /**
   * Within `fn`, look-ups and sets leave the sections of their kinds undecoded (see `Light`): for a run
   * that asks the cache about a few named files only (`CacheMemo.few`). Outside, a kind is decoded whole
   * when first asked about, as every other run asks about all of its files.
   */
  lightly<T>(fn: () => T): T {
    this.lightMode = true;
    try {
      return fn();
    } finally {
      this.lightMode = false;
    }
  }

  /** The kind's section parsed but not decoded, for a few look-ups; null once (or when) it must be decoded whole. */
  private lightOf(kind: Kind): Light | null {
    if (this.parsed.has(kind)) return null;
    let l = this.light.get(kind);
    if (l) return this.lightMode && l.found.size < LIGHT_LOOKUPS ? l : null;
    if (!this.lightMode || this.data.kinds[kind] === undefined) return null;
    try {
      const text = this.data.kinds[kind];
      const updates = this.data.updates?.[kind];
      const rows = text === undefined ? [] : (JSON.parse(String(text)) as unknown);
      if (!Array.isArray(rows)) return null;
      l = { rows, updates: updates === undefined ? new Map() : decodeSection(kind, String(updates), this.kinds), found: new Map(), sets: new Map() };
    } catch {
      return null; // decoded whole, which finds the section bad and starts the kind afresh
    }
    this.light.set(kind, l);
    return l;
  }

  private changed(kind: Kind): Set<string> {
    this.section(kind);
    return this.updated.get(kind)!;
  }

  get(path: string, kind: Kind): CacheEntry | undefined {
    const l = this.lightOf(kind);
    if (!l) return this.section(kind).get(path);
    if (l.sets.has(path)) return l.sets.get(path);
    if (l.updates.has(path)) return l.updates.get(path);
    if (!l.found.has(path)) {
      try {
        l.found.set(path, findRow(l.rows, path, kind, this.kinds));
      } catch {
        return this.section(kind).get(path); // a bad row: the whole section is judged
      }
    }
    return l.found.get(path);
  }

  /** The recorded folders of a kind's listing, if its section was recorded with one. */
  folders(kind: Kind): Folders | undefined {
    this.section(kind); // a section that does not decode has no listing to trust
    return this.data.listings?.[kind];
  }

  /**
   * The recorded folders of a kind's listing, its section not decoded: for a run that takes no document
   * of the kind from the section but those it looks up (see `results`).
   */
  keptFolders(kind: Kind): Folders | undefined {
    return this.data.listings?.[kind];
  }

  /**
   * The results across files of the kind's documents as its rows hold them (every row read back unread,
   * as a run whose listing is trusted takes them), kept by the run that wrote the rows; null when none
   * were kept or they no longer hold.
   */
  results(kind: Kind): KeptResults | null {
    return this.factsChanged.has(kind) ? null : this.keptOf(kind);
  }

  private keptOf(kind: Kind): KeptResults | null {
    if (!this.kept.has(kind)) {
      const text = this.data.results?.[kind];
      let kept: KeptResults | null = null;
      try {
        const r = text === undefined ? null : (JSON.parse(String(text)) as unknown);
        if (Array.isArray(r) && r.length === 3 && r[0] === this.stamp(kind) && Array.isArray(r[1])) {
          const isDocumentPath = documentPathCheck(this.kinds, kind);
          const racy = new Set<string>();
          for (const path of r[1] as unknown[]) racy.add(isDocumentPath(path) ? path : bad('racy path'));
          kept = { racy, results: resultsOf(r[2], isDocumentPath) };
        } else if (r !== null) this.keptStale.add(kind);
      } catch {
        kept = null;
        this.keptStale.add(kind);
      }
      this.kept.set(kind, kept);
    }
    return this.kept.get(kind) ?? null;
  }

  private stamp(kind: Kind): string | null {
    return stampOf(this.data.kinds[kind], this.data.updates?.[kind]);
  }

  /** How many rows a kind has (its section decoded whole). */
  size(kind: Kind): number {
    return this.section(kind).size;
  }

  /** The paths of a kind's section, sorted (code point order, as discovery sorts). */
  paths(kind: Kind): string[] {
    const paths = Array.from(this.section(kind).keys());
    // Sections are written in path order; only entries added since (by `set`) can be out of place.
    for (let i = 1; i < paths.length; i++) if (paths[i - 1]! > paths[i]!) return paths.sort();
    return paths;
  }

  /** Records (or, with null, forgets) the folders a kind's section was just listed from. */
  setListing(kind: Kind, folders: Folders | null): void {
    const listings = (this.data.listings ??= {});
    const before = listings[kind];
    if (folders) listings[kind] = folders;
    else delete listings[kind];
    if (JSON.stringify(before) !== JSON.stringify(folders ?? undefined)) this.headerDirty = true;
  }

  set(path: string, entry: CacheEntry): void {
    const kind = entry.kind;
    if (!this.factsChanged.has(kind)) {
      const before = this.get(path, kind);
      // An unread file (no hash) is analyzed again by every run: its row says nothing certain.
      if (!before || before.hash === null || entry.hash === null || !this.sameFacts(before, entry)) this.factsChanged.add(kind);
      else {
        const kept = this.keptOf(kind);
        if (kept && entry.racy) kept.racy.add(path);
        else if (kept) kept.racy.delete(path);
      }
    }
    const l = this.lightOf(kind);
    if (l) l.sets.set(path, entry);
    else {
      this.section(kind).set(path, entry);
      this.changed(kind).add(path);
    }
    this.touched.add(kind);
  }

  /** Whether two versions of a path give the rules across files the same: the same kind, id and facts. */
  sameFacts(a: Pick<CacheEntry, 'kind' | 'id' | 'facts'>, b: Pick<CacheEntry, 'kind' | 'id' | 'facts'>): boolean {
    return factsKey(this.kinds, a) === factsKey(this.kinds, b);
  }

  /** Drops entries of `kinds` whose files no longer exist (entries of other kinds were not looked at). */
  retain(paths: ReadonlySet<string>, kinds: ReadonlySet<Kind>): void {
    for (const kind of kinds) {
      const entries = this.section(kind);
      for (const path of entries.keys()) {
        if (!paths.has(path)) {
          entries.delete(path);
          this.rewrite.add(kind);
          this.touched.add(kind);
          this.factsChanged.add(kind);
        }
      }
    }
  }

  /**
   * Writes atomically (safe-fs `replaceFile`); a cache that cannot be written is only a warning. With
   * `resultsOf`, the results across files of each kind decoded whole are kept beside its rows when they
   * are missing or no longer hold (as `null` when they cannot be: a row of a file not read).
   */
  save(resultsOf?: ResultsOf): string | null {
    const results = (this.data.results ??= {});
    const due = resultsOf ? [...this.parsed.keys()].filter((k) => this.factsChanged.has(k) || this.keptStale.has(k) || results[k] === undefined) : [];
    const stale = [...this.factsChanged].filter((k) => results[k] !== undefined);
    if (!this.fresh && !this.headerDirty && this.touched.size === 0 && due.length === 0 && stale.length === 0) return null;
    // Results that still hold for rows about to be written again: stamped again once they are.
    const carried = new Map<Kind, KeptResults>();
    for (const kind of this.touched) {
      const kept = this.results(kind);
      if (kept) carried.set(kind, kept);
    }
    const updates = (this.data.updates ??= {});
    for (const kind of this.touched) {
      const l = this.light.get(kind);
      if (l && l.updates.size + l.sets.size <= MAX_UPDATES) {
        // The section is carried over as read; the updates hold the rows set since it was written.
        updates[kind] = encodeSection(new Map([...l.updates, ...l.sets]), this.kinds);
        continue;
      }
      const entries = this.section(kind);
      const changed = this.updated.get(kind)!;
      if (this.rewrite.has(kind) || this.data.kinds[kind] === undefined || changed.size > MAX_UPDATES) {
        this.data.kinds[kind] = encodeSection(entries, this.kinds);
        delete updates[kind];
        changed.clear();
      } else {
        updates[kind] = encodeSection(new Map([...changed].map((path) => [path, entries.get(path)!])), this.kinds);
      }
    }
    for (const kind of stale) delete results[kind];
    for (const [kind, kept] of carried) results[kind] = encodeKept(this.stamp(kind), kept);
    for (const kind of due) {
      const entries = this.parsed.get(kind)!;
      let read = true;
      const racy = new Set<string>();
      for (const [path, e] of entries) {
        if (e.hash === null) read = false;
        if (e.racy) racy.add(path);
      }
      const found = read ? resultsOf!(kind, entries) : null;
      results[kind] = found && keepableTree(found) ? encodeKept(this.stamp(kind), { racy, results: found }) : 'null';
    }
    const problem = writeCacheFile(this.root, this.file, this.data);
    if (problem !== null) return problem;
    this.touched.clear();
    this.rewrite.clear();
    this.factsChanged.clear();
    this.kept.clear();
    this.keptStale.clear();
    this.fresh = false;
    this.headerDirty = false;
    return null;
  }
}
