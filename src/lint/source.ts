/**
 * Where a lint run's documents come from (docs/architecture.md, "The pipeline"): a source lists a
 * kind's documents and reads them. The disk (disk-source.ts), the disk with texts laid over it (the
 * proposed text of check_content, overlay-source.ts) and the git index (index-source.ts) are sources;
 * the driver (lint.ts) lists and reads through nothing else.
 */
import type { ReadOutcome } from '../io/file-identity.js';
import type { FileRef } from '../io/layout.js';
import type { Kind } from '../model/types.js';
import type { ListingBasis } from '../store/store.js';

export interface Source {
  /**
   * A kind's documents in path order, and what the listing depended on (null when it must not be reused:
   * a folder changed around the time it was listed, or the source's listings are never reused).
   */
  list(kind: Kind): { refs: FileRef[]; basis: ListingBasis | null };
  /** The document at a path a store recorded for the kind, as this source would list it. */
  refAt(path: string, kind: Kind): FileRef;
  /** Whether everything a recorded listing depended on is as it was: then its paths are still the kind's documents. */
  unchanged(basis: ListingBasis): boolean;
  /** What identifies a document's content without reading it (the disk: its stat identity), or null when it must be read. */
  version(ref: FileRef): string | null;
  /**
   * Whether the source vouches, without a look, that a document is as it was when the store last kept
   * it (a watcher saw no change to it since): its kept analysis is then taken as it is, without a stat.
   */
  vouches?(ref: FileRef): boolean;
  /** Whether a version can vouch for the content on its own in a later run (the disk: not modified around the time it was read). */
  settled(version: string): boolean;
  /** The document's bytes (or why not); a file larger than `maxBytes` is not read. */
  read(ref: FileRef, maxBytes: number): ReadOutcome;
  /** What a store checks content by when a version changed (the disk: SHA-1 of the bytes; the index: the blob id). */
  hash(ref: FileRef, bytes: Buffer): string;
  /**
   * Until the answer is closed, reads open files through their folders' handles, each opened and
   * checked once (the disk: safe-fs.ts `PinnedFolders`), instead of checking each file's handle.
   */
  pinFolders?(): { close(): void };
  /** Reads ahead, in one batch, the documents about to be read (the git index asks git once). */
  prefetch?(refs: readonly FileRef[], maxBytes: (ref: FileRef) => number): void;
  /** Whether the document's text is laid over the source (a proposed text): never kept in a store. */
  proposed?(ref: FileRef): boolean;
  /** Whether git ignores a root-relative path (for the warning about a named path that selected nothing). */
  ignoredByGit?(rel: string, dir: boolean): boolean;
  /** A named file that discovery listed by another path (through a link): that document's path, or null. */
  foundElsewhere?(rel: string, listed: readonly FileRef[]): string | null;
  /** Worker threads may read this source's documents themselves (the disk does), for a large run. */
  readonly threads: boolean;
}
