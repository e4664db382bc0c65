/**
 * The cache of `docgate lint --staged --cache`, the store of a lint of the git index (store.ts;
 * docs/decisions.md, "`docgate lint --staged`"): analyses keyed by path and git blob id, which git
 * computed already. Content-addressed, so nothing about the working tree is trusted (no stat,
 * no racy entries): an entry is valid exactly while the index holds that blob at that path, under the
 * same docgate version and rules. A path keeps its last few versions, so switching branches back and
 * forth, or a commit's HEAD side, finds its blobs analyzed.
 *
 * The file has the lint cache's layout (a header line, then one section of rows per kind, then rows
 * added since the section was written) under its own key, so neither cache ever reads the other's rows.
 * Beside the rows, per kind, the results across files of a few git trees (HEAD's, as whole runs found
 * them) under the digest of their documents.
 */
import { MAX_UPDATES, readCacheFile, writeCacheFile } from './cache-file.js';
import type { CacheFile } from './cache-file.js';
import { decodeRows, decodeTrees, encodeRows, encodeTrees, fromEntry, keepableTree, toEntry } from './cache-rows.js';
import type { CacheEntry, CacheKinds, TreeEntry } from './cache-rows.js';
import type { FileRef } from '../io/layout.js';
import type { Kept, KeptDigest, KindResults, ListingBasis, Store } from './store.js';
import type { Kind } from '../model/types.js';
import { BUILD_ID } from '../io/version.js';

/** Versions kept per path (newest first); more are dropped when a kind's rows are folded. */
const MAX_VERSIONS = 3;
/** Trees whose results across files are kept per kind (newest first): a few branches switched between. */
const MAX_TREES = 4;

type Versions = Map<string, CacheEntry[]>;

export class StagedCache implements Store {
  private readonly parsed = new Map<Kind, Versions>();
  /** Per kind, the rows of its updates as read, and those added in this run. */
  private readonly pending = new Map<Kind, [string, CacheEntry][]>();
  private readonly touched = new Set<Kind>();
  /** Kinds whose section did not decode: written whole. */
  private readonly broken = new Set<Kind>();
  /** Per kind, the trees read (or added): decoded on first use. */
  private readonly trees = new Map<Kind, TreeEntry[]>();
  private readonly treesTouched = new Set<Kind>();
  /** Per kind listed, the paths the index holds (rows of other paths are dropped when the kind is folded). */
  private readonly present = new Map<Kind, ReadonlySet<string>>();
  readonly hashing = true;
  readonly versioned = true;
  problem: string | null = null;

  private constructor(
    readonly file: string,
    private readonly root: string,
    private readonly data: CacheFile,
    private readonly kinds: CacheKinds,
  ) {}

  static key(rulesKey: string): string {
    return `staged\0${rulesKey}`;
  }

  static load(file: string, version: string, rulesKey: string, root: string, kinds: CacheKinds): StagedCache {
    const key = StagedCache.key(rulesKey);
    const read = readCacheFile(file, version, key, root);
    if ('data' in read) return new StagedCache(file, root, read.data, kinds);
    const cache = new StagedCache(
      file,
      root,
      { docgate: version, ...(BUILD_ID !== null ? { build: BUILD_ID } : {}), rules: key, kinds: {}, updates: {} },
      kinds,
    );
    cache.problem = read.problem;
    return cache;
  }

  private versions(kind: Kind): Versions {
    const known = this.parsed.get(kind);
    if (known) return known;
    const v: Versions = new Map();
    const pending: [string, CacheEntry][] = [];
    const add = (path: string, entry: CacheEntry): void => {
      const list = v.get(path);
      // Later rows are newer: first in the list.
      if (list) list.unshift(entry);
      else v.set(path, [entry]);
    };
    try {
      const section = this.data.kinds[kind];
      const updates = this.data.updates?.[kind];
      if (section !== undefined) decodeRows(kind, String(section), this.kinds, add);
      if (updates !== undefined) {
        decodeRows(kind, String(updates), this.kinds, (path, entry) => {
          add(path, entry);
          pending.push([path, entry]);
        });
      }
    } catch {
      // A bad row: the kind starts afresh (its files are analyzed again).
      v.clear();
      pending.length = 0;
      this.broken.add(kind);
      this.touched.add(kind);
    }
    this.parsed.set(kind, v);
    this.pending.set(kind, pending);
    return v;
  }

  /** The analysis of a path as the blob `version` (`<mode>:<oid>`), when cached. */
  get(ref: FileRef, version: string | null): Kept | null {
    if (version === null) return null;
    const e = this.versions(ref.kind)
      .get(ref.path)
      ?.find((x) => x.identity === version);
    return e ? fromEntry(ref, e) : null;
  }

  keep(ref: FileRef, kept: Kept): void {
    this.set(ref.path, toEntry(kept));
  }

  /** The index is listed by git, not by folders: no listing is kept. */
  listing(): ListingBasis | null {
    return null;
  }

  listedPaths(): readonly string[] {
    return [];
  }

  keepListing(): void {}

  private treeList(kind: Kind): TreeEntry[] {
    let list = this.trees.get(kind);
    if (list) return list;
    const text = this.data.trees?.[kind];
    try {
      list = text === undefined ? [] : decodeTrees(kind, String(text), this.kinds);
    } catch {
      list = []; // a bad row: no tree of this kind is known (the next whole run writes them again)
    }
    this.trees.set(kind, list);
    return list;
  }

  /** The digest of the documents of `kind` in the git tree `tree` (HEAD's), as a whole run found them; null when none did. */
  digest(kind: Kind, tree?: string): KeptDigest | null {
    const entry = tree === undefined ? undefined : this.treeList(kind).find((t) => t.tree === tree);
    return entry ? { digest: entry.digest, count: -1, racy: new Set() } : null;
  }

  results(kind: Kind, digest: string): KindResults | null {
    return this.treeList(kind).find((t) => t.digest === digest)?.results ?? null;
  }

  /** Keeps a tree's results across files (those whose lists the file can hold; else nothing). */
  keepResults(kind: Kind, digest: KeptDigest, results: KindResults, tree?: string): void {
    if (tree === undefined || !keepableTree(results)) return;
    const list = this.treeList(kind).filter((t) => t.tree !== tree);
    list.unshift({ tree, digest: digest.digest, results });
    this.trees.set(kind, list.slice(0, MAX_TREES));
    this.treesTouched.add(kind);
  }

  private set(path: string, entry: CacheEntry): void {
    const v = this.versions(entry.kind);
    const list = (v.get(path) ?? []).filter((e) => e.identity !== entry.identity);
    list.unshift(entry);
    v.set(path, list);
    this.pending.get(entry.kind)!.push([path, entry]);
    this.touched.add(entry.kind);
  }

  retain(kind: Kind, paths: ReadonlySet<string>): void {
    this.present.set(kind, paths);
  }

  /**
   * Writes what this run added: as rows beside the kind's section, or folded into it (each path's
   * newest versions; paths no longer in the index dropped) once there are many. A cache that cannot be
   * written is a warning, never a failure.
   */
  save(): string | null {
    if (this.touched.size === 0 && this.treesTouched.size === 0) return null;
    const trees = (this.data.trees ??= {});
    for (const kind of this.treesTouched) trees[kind] = encodeTrees(this.trees.get(kind)!);
    // Trees are recorded only when found without links (src/lint/changes.ts): the older list of such trees goes.
    delete this.data.linkFree;
    const updates = (this.data.updates ??= {});
    for (const kind of this.touched) {
      const pending = this.pending.get(kind)!;
      if (!this.broken.has(kind) && this.data.kinds[kind] !== undefined && pending.length <= MAX_UPDATES) {
        updates[kind] = encodeRows(pending, this.kinds);
        continue;
      }
      const keep = this.present.get(kind);
      const rows: [string, CacheEntry][] = [];
      for (const [path, list] of [...this.versions(kind)].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))) {
        if (keep && !keep.has(path)) continue;
        // Oldest first, so that reading them back (later rows newer) keeps the order.
        for (const e of list.slice(0, MAX_VERSIONS).reverse()) rows.push([path, e]);
      }
      this.data.kinds[kind] = encodeRows(rows, this.kinds);
      delete updates[kind];
      pending.length = 0;
    }
    const problem = writeCacheFile(this.root, this.file, this.data);
    if (problem !== null) return problem;
    this.touched.clear();
    this.treesTouched.clear();
    this.broken.clear();
    return null;
  }
}
