/**
 * The lint cache (`--cache`), the store of a lint of the disk (store.ts): the rows of each kind
 * (cache-rows.ts) in one file (cache-file.ts), decoded whole when a run asks about many files of a kind,
 * or a few rows only for a run over a few named files; the listing of each kind with the folders it
 * depended on; and beside the rows the results across files they give, under their digest.
 */
import { createRequire } from 'node:module';
import { MAX_UPDATES, readCacheFile, writeCacheFile } from './cache-file.js';
import type { CacheFile } from './cache-file.js';
import {
  decodeParsedRows,
  bad,
  builtin,
  decodeSection,
  documentPathCheck,
  encodeSection,
  factsKey,
  findRow,
  fromEntry,
  keepableTree,
  resultRows,
  resultsOf,
  toEntry,
} from './cache-rows.js';
import type { CacheEntry, CacheKinds, Entries } from './cache-rows.js';
import type { FileRef } from '../io/layout.js';
import type { Kind } from '../model/types.js';
import type { Kept, KeptDigest, KindResults, ListingBasis, Store } from './store.js';
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

/**
 * The results across files of a kind's rows, kept beside them under their digest (src/lint/digest.ts),
 * with how many rows they are of and the paths whose rows are racy: a run that takes the kind's other
 * documents unread must check those files itself (see src/lint/lint.ts).
 */
export interface KeptResults {
  digest: string;
  count: number;
  racy: Set<string>;
  results: KindResults;
}

/** Kept results as text: `[stamp, racyPaths, [[path, diagnostics], ...], digest, count]` (`null` without a stamp). */
function encodeKept(stamp: string | null, kept: KeptResults): string {
  return stamp === null ? 'null' : JSON.stringify([stamp, [...kept.racy].sort(), resultRows(kept.results), kept.digest, kept.count]);
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
 * rule files (schemas, outline, heading tables); the driver skips a file whose stat identity, or else
 * whose content hash, is unchanged. A missing, unreadable or foreign cache file is an empty cache, never
 * an error.
 */
export class LintCache implements Store {
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
  /** The results kept beside each kind's rows, as read (or kept by this run). */
  private readonly kept = new Map<Kind, KeptResults | null>();
  /** Kinds whose results were kept by this run: written at `save`. */
  private readonly keptNow = new Set<Kind>();

  private fresh = false;
  private headerDirty = false;
  /** Why the cache file on disk was not used (a warning), or null. */
  readonly hashing = true;
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
        // The rows a few look-ups parsed already are not parsed again.
        const parsedRows = this.light.get(kind)?.rows;
        if (parsedRows !== undefined) entries = decodeParsedRows(kind, parsedRows, this.kinds);
        else if (text !== undefined) entries = decodeSection(kind, String(text), this.kinds);
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
   * The kind's section parsed but not decoded, for its first few look-ups (a run over a few named files
   * never decodes the rest); null once (or when) it must be decoded whole, as a run that asks about many
   * of its files does.
   */
  private lightOf(kind: Kind): Light | null {
    if (this.parsed.has(kind)) return null;
    let l = this.light.get(kind);
    if (l) return l.found.size < LIGHT_LOOKUPS ? l : null;
    if (this.data.kinds[kind] === undefined) return null;
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

  private entry(path: string, kind: Kind): CacheEntry | undefined {
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

  /** A row of a file not read (no hash) says nothing certain: it is never taken, the file is analyzed again. */
  get(ref: FileRef, _version?: string | null): Kept | null {
    const e = this.entry(ref.path, ref.kind);
    return e && e.hash !== null && e.kind === ref.kind ? fromEntry(ref, e) : null;
  }

  /** The folders and ignore files a kind's listing was recorded with (the section is not decoded for it). */
  listing(kind: Kind): ListingBasis | null {
    return this.data.listings?.[kind] ?? null;
  }

  /** The paths of a kind's section, sorted (code point order, as discovery sorts); null when the section does not decode (its listing goes with it). */
  listedPaths(kind: Kind): string[] | null {
    const paths = Array.from(this.section(kind).keys());
    if (this.listing(kind) === null) return null;
    // Sections are written in path order; only entries added since (by `set`) can be out of place.
    for (let i = 1; i < paths.length; i++) if (paths[i - 1]! > paths[i]!) return paths.sort();
    return paths;
  }

  /** Records (or, with null, forgets) the folders a kind's section was just listed from. */
  keepListing(kind: Kind, basis: ListingBasis | null): void {
    const listings = (this.data.listings ??= {});
    const before = listings[kind];
    if (basis) listings[kind] = basis;
    else delete listings[kind];
    if (JSON.stringify(before) !== JSON.stringify(basis ?? undefined)) this.headerDirty = true;
  }

  keep(ref: FileRef, kept: Kept): void {
    this.set(ref.path, toEntry(kept));
  }

  private set(path: string, entry: CacheEntry): void {
    const kind = entry.kind;
    if (!this.factsChanged.has(kind)) {
      const before = this.entry(path, kind);
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
  private sameFacts(a: Pick<CacheEntry, 'kind' | 'id' | 'facts'>, b: Pick<CacheEntry, 'kind' | 'id' | 'facts'>): boolean {
    return factsKey(this.kinds, a) === factsKey(this.kinds, b);
  }

  /**
   * The digest of a kind's rows (and the racy ones among them), as the run that kept their results
   * found it; null when no run did, or the rows changed since: a path came or went, or facts changed,
   * in this run, or by another hand (the kept results carry the CRC-32 of the rows they are of).
   */
  digest(kind: Kind): KeptDigest | null {
    const kept = this.factsChanged.has(kind) ? null : this.keptOf(kind);
    return kept && { digest: kept.digest, count: kept.count, racy: kept.racy };
  }

  results(kind: Kind, digest: string): KindResults | null {
    const kept = this.keptOf(kind);
    return kept !== null && kept.digest === digest ? kept.results : null;
  }

  /** Keeps a kind's results (written beside the rows at `save`, if a row can hold their lists). */
  keepResults(kind: Kind, digest: KeptDigest, results: KindResults): void {
    this.kept.set(kind, { digest: digest.digest, count: digest.count, racy: new Set(digest.racy), results });
    this.keptNow.add(kind);
    this.factsChanged.delete(kind);
  }

  private keptOf(kind: Kind): KeptResults | null {
    if (!this.kept.has(kind)) {
      const text = this.data.results?.[kind];
      let kept: KeptResults | null = null;
      try {
        const r = text === undefined ? null : (JSON.parse(String(text)) as unknown);
        if (Array.isArray(r) && r.length === 5 && r[0] === this.stamp(kind) && Array.isArray(r[1]) && typeof r[3] === 'string' && Number.isSafeInteger(r[4])) {
          const isDocumentPath = documentPathCheck(this.kinds, kind);
          const racy = new Set<string>();
          for (const path of r[1] as unknown[]) racy.add(isDocumentPath(path) ? path : bad('racy path'));
          kept = { digest: r[3], count: r[4] as number, racy, results: resultsOf(r[2], isDocumentPath) };
        }
      } catch {
        kept = null; // not what `encodeKept` writes: no results are known (a whole run keeps them again)
      }
      this.kept.set(kind, kept);
    }
    return this.kept.get(kind) ?? null;
  }

  private stamp(kind: Kind): string | null {
    return stampOf(this.data.kinds[kind], this.data.updates?.[kind]);
  }

  /** Drops the rows of `kind` whose files no longer exist. */
  retain(kind: Kind, paths: ReadonlySet<string>): void {
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

  /**
   * Writes atomically (safe-fs `replaceFile`); a cache that cannot be written is only a warning. The
   * results of each kind are written beside its rows, stamped with their CRC-32: those this run kept,
   * and those read that still hold for the rows written again (as `null` when they cannot be kept: a
   * row of a file not read, or a list too long for a row).
   */
  save(): string | null {
    const results = (this.data.results ??= {});
    const stale = [...this.factsChanged].filter((k) => results[k] !== undefined && !this.keptNow.has(k));
    if (!this.fresh && !this.headerDirty && this.touched.size === 0 && this.keptNow.size === 0 && stale.length === 0) return null;
    // Results that still hold for rows about to be written again: stamped again once they are.
    const carried = new Map<Kind, KeptResults>();
    for (const kind of new Set([...this.touched, ...this.keptNow])) {
      const kept = this.factsChanged.has(kind) ? null : this.keptOf(kind);
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
    for (const [kind, kept] of carried) {
      const entries = this.parsed.get(kind);
      const unread = entries !== undefined && [...entries.values()].some((e) => e.hash === null);
      results[kind] = !unread && keepableTree(kept.results) ? encodeKept(this.stamp(kind), kept) : 'null';
    }
    const problem = writeCacheFile(this.root, this.file, this.data);
    if (problem !== null) return problem;
    this.touched.clear();
    this.rewrite.clear();
    this.factsChanged.clear();
    this.keptNow.clear();
    this.fresh = false;
    this.headerDirty = false;
    return null;
  }
}
