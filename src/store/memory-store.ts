/**
 * The store of a long-lived server (the MCP server, later the editor's): what it analyzed, in memory,
 * for one project at a time. A new project (a configuration or rule file edited) starts it afresh, so a
 * server that runs for days holds the analyses of one project, never of every one it saw; results across
 * files are kept for the last few digests of each kind (a document edited back and forth).
 */
import type { FileRef } from '../io/layout.js';
import type { Kind } from '../model/types.js';
import type { Kept, KeptDigest, KindResults, ListingBasis, Store } from './store.js';

/** Results across files kept per kind: the digests of the last few states of its documents. */
const RESULTS_PER_KIND = 4;

export class MemoryStore implements Store {
  /** The key of the project whose analyses it holds (null: none yet). */
  key: string | null = null;
  private readonly kept = new Map<string, Kept>();
  private readonly digests = new Map<Kind, KeptDigest>();
  private readonly kindResults = new Map<Kind, Map<string, KindResults>>();

  /** The store for the project of key `key`: what it holds of another project is dropped. */
  forProject(key: string): this {
    if (key !== this.key) {
      this.key = key;
      this.kept.clear();
      this.digests.clear();
      this.kindResults.clear();
    }
    return this;
  }

  /** How many documents it holds (tests and the server's debug log). */
  get size(): number {
    return this.kept.size;
  }

  listing(): ListingBasis | null {
    return null;
  }

  listedPaths(): readonly string[] {
    return [];
  }

  keepListing(): void {}

  get(ref: FileRef): Kept | null {
    const k = this.kept.get(ref.path);
    return k !== undefined && k.analysis.kind === ref.kind ? k : null;
  }

  keep(ref: FileRef, kept: Kept): void {
    this.kept.set(ref.path, kept);
  }

  digest(kind: Kind): KeptDigest | null {
    return this.digests.get(kind) ?? null;
  }

  results(kind: Kind, digest: string): KindResults | null {
    const byDigest = this.kindResults.get(kind);
    const r = byDigest?.get(digest);
    if (r === undefined) return null;
    // The most recently used last: the oldest goes first when the list is full.
    byDigest!.delete(digest);
    byDigest!.set(digest, r);
    return r;
  }

  keepResults(kind: Kind, digest: KeptDigest, results: KindResults): void {
    this.digests.set(kind, digest);
    const byDigest = this.kindResults.get(kind) ?? new Map<string, KindResults>();
    byDigest.delete(digest.digest);
    byDigest.set(digest.digest, results);
    if (byDigest.size > RESULTS_PER_KIND) byDigest.delete(byDigest.keys().next().value!);
    this.kindResults.set(kind, byDigest);
  }

  retain(kind: Kind, paths: ReadonlySet<string>): void {
    for (const [path, k] of this.kept) if (k.analysis.kind === kind && !paths.has(path)) this.kept.delete(path);
  }

  save(): string | null {
    return null;
  }
}
