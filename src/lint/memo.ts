/** What a lint run may reuse instead of listing, reading and analyzing (the lint cache, the MCP server's memory). */
import type { ReadOutcome } from '../io/file-identity.js';
import type { FileRef } from '../io/layout.js';
import type { Analysis } from '../model/analysis.js';
import type { Kind } from '../model/types.js';
import type { CacheEntry } from '../store/cache-rows.js';
import type { IdentifiedAnalysis } from './analyze.js';

/** A path named on the command line, resolved against the root. */
export interface Target {
  /** The path as the user gave it. */
  given: string;
  /** Root-relative path with `/` separators ('' = the root itself). */
  rel: string;
  dir: boolean;
  /**
   * Not found by its name, which Node decoded lossily from the command line (a file name that is not
   * valid UTF-8 arrives with U+FFFD): discovery finds it by that lossy name, or it is "no such file".
   */
  lossy?: string;
}

export function byPath<T extends { path: string }>(refs: T[]): T[] {
  // Each kind's list is sorted already: merging a few sorted runs is linear for V8's TimSort.
  return refs.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
}

/** What a run may reuse instead of listing, reading and analyzing. */
export interface Memo {
  /** A kind's documents, when the memo can vouch for them without listing their folders; else null. */
  listing(kind: Kind): FileRef[] | null;
  /**
   * A kind's folders were just listed (with each folder's identity, null for one not listed), and `ignores`
   * the files git's answers came from, with their identities (null: missing; see git-ignored.ts).
   */
  listed(kind: Kind, folders: ReadonlyMap<string, string | null>, refs: readonly FileRef[], ignores: ReadonlyMap<string, string | null>): void;
  /** What is known of a document: its analysis, still valid; bytes already read to find that out; or nothing. */
  lookup(ref: FileRef, full: boolean): Reuse | null;
  /** A document just analyzed (`full`: with its rules, not only for its facts). */
  remember(ref: FileRef, full: boolean, result: IdentifiedAnalysis): void;
}

export type Reuse = { analysis: Analysis } | { read: ReadOutcome; hash: string };

export function fromCache(ref: Pick<FileRef, 'path'>, e: CacheEntry): Analysis {
  const a: Analysis = { path: ref.path, kind: e.kind, id: e.id, diagnostics: e.diagnostics, facts: e.facts, doc: null };
  if (e.directives) a.directives = e.directives;
  return a;
}
