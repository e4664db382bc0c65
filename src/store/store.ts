/**
 * What a lint run keeps between runs (docs/architecture.md, "The pipeline"): the analyses of documents
 * under the version of what was analyzed, the listings of kinds with what they depended on, and the
 * results across files of a kind under the digest of its documents' paths, ids and facts. The lint
 * cache on disk (disk-store.ts), the blob cache of `--staged` (blob-store.ts) and the MCP server's
 * memory (memory-store.ts) are stores. A store never reads a document, hashes or analyzes: the driver
 * (src/lint/lint.ts) asks the source and decides; the store answers what it kept.
 */
import type { FileRef } from '../io/layout.js';
import type { Analysis } from '../model/analysis.js';
import type { Diagnostic, Kind } from '../model/types.js';
import type { Folders } from './cache-file.js';

/** The results across files of one whole kind: its diagnostics by path (paths without any left out). */
export type KindResults = ReadonlyMap<string, readonly Diagnostic[]>;

/** What a listing depended on: each folder listed and each ignore file read, by root-relative path, with its identity then. */
export type ListingBasis = Folders;

/** What a store keeps of one document. */
export interface Kept {
  analysis: Analysis;
  /** The source's version of what was analyzed (the disk: a stat identity; the index: `<mode>:<blob id>`). */
  version: string;
  /** Hash of the bytes analyzed; null when they were not read (a problem found at discovery) or not hashed. */
  hash: string | null;
  /** Analyzed with its rules, not only for its facts. */
  full: boolean;
  /** Its version alone cannot vouch for its content (modified around the time it was read). */
  racy: boolean;
}

/** The digest of a kind's documents as a store keeps them, when it keeps every one: how many, and which are racy. */
export interface KeptDigest {
  digest: string;
  /** The number of documents the digest is of; -1 when the store does not know (a git tree's). */
  count: number;
  racy: ReadonlySet<string>;
}

export interface Store {
  /** It keeps content hashes: a document whose version changed is read and its hash compared (the lint cache). */
  readonly hashing?: boolean;
  /** It keeps several versions of a path and must be told which one is asked for (the blob cache). */
  readonly versioned?: boolean;
  /** Why what it had on disk was not used (a warning for the run), or null. */
  readonly problem?: string | null;
  /**
   * What a kind's recorded listing depended on; null when none is recorded. Its paths are read only when
   * the run needs the kind's other documents (`listedPaths`): a run over a few named files may not.
   */
  listing(kind: Kind): ListingBasis | null;
  /** The paths of a kind's recorded listing, in path order; null when it turns out unusable (what it kept does not decode). */
  listedPaths(kind: Kind): readonly string[] | null;
  /** Records a kind's listing (null basis: it must not be reused, and a recorded one is forgotten). */
  keepListing(kind: Kind, basis: ListingBasis | null): void;
  /**
   * What the store keeps of a document; null when nothing. `version`: the source's version of it now, for
   * a store that keeps several (the blob cache keeps a few blobs per path); others answer what they keep.
   */
  get(ref: FileRef, version: string | null): Kept | null;
  keep(ref: FileRef, kept: Kept): void;
  /**
   * The digest of a kind's documents as the store keeps them (`base` undefined), or of the documents of
   * `base` (a git tree the source names); null when it does not know it.
   */
  digest(kind: Kind, base?: string): KeptDigest | null;
  /** The results across files of a kind whose documents digest to `digest`; null when not kept. */
  results(kind: Kind, digest: string): KindResults | null;
  /** Keeps them, with the digest of the documents they are of; `base`: they are those of that git tree's documents. */
  keepResults(kind: Kind, digest: KeptDigest, results: KindResults, base?: string): void;
  /** The documents of a kind just listed: what the store keeps of any other path of the kind is dropped. */
  retain(kind: Kind, paths: ReadonlySet<string>): void;
  /** Writes what it keeps (a store on disk); a problem to warn about, or null. */
  save(): string | null;
}

/** A store that keeps nothing: a run without a cache. */
export const NO_STORE: Store = {
  listing: () => null,
  listedPaths: () => [],
  keepListing: () => {},
  get: () => null,
  keep: () => {},
  digest: () => null,
  results: () => null,
  keepResults: () => {},
  retain: () => {},
  save: () => null,
};

/** A store read from disk only when a run first asks it something (a run that needs none never reads it). */
export function lazyStore(load: () => Store): Store {
  let store: Store | undefined;
  const s = (): Store => (store ??= load());
  return {
    get hashing() {
      return s().hashing;
    },
    get problem() {
      return s().problem;
    },
    listing: (kind) => s().listing(kind),
    listedPaths: (kind) => s().listedPaths(kind),
    keepListing: (kind, basis) => s().keepListing(kind, basis),
    get: (ref, version) => s().get(ref, version),
    keep: (ref, kept) => s().keep(ref, kept),
    digest: (kind, base) => s().digest(kind, base),
    results: (kind, digest) => s().results(kind, digest),
    keepResults: (kind, digest, results, base) => s().keepResults(kind, digest, results, base),
    retain: (kind, paths) => s().retain(kind, paths),
    // Nothing asked, nothing to write: the file is not even read.
    save: () => (store === undefined ? null : store.save()),
  };
}
