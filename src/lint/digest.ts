/**
 * The digest of a kind's documents as the rules across files read them: each document's path, id and
 * facts, in path order. Two states of a kind with the same digest give every document the same results
 * across files, so a store keeps those results under it (src/store/store.ts).
 */
import { sha256 } from '../io/file-identity.js';
import type { Analysis } from '../model/analysis.js';
import { factsKey } from '../store/cache-rows.js';
import type { CacheKinds } from '../store/cache-rows.js';

/** The digest of the analyses of one kind's documents, given in path order. */
export function digestOf(kinds: CacheKinds, analyses: readonly Analysis[]): string {
  const parts: string[] = [];
  for (const a of analyses) parts.push(a.path, factsKey(kinds, a));
  return sha256(parts.join('\0'));
}
