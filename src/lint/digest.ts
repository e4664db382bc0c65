/**
 * The digest of a kind's documents as the rules across files read them: each document's path, id and
 * facts, in path order. Two states of a kind with the same digest give every document the same results
 * across files, so a store keeps those results under it (src/store/store.ts).
 */
import { sha256 } from '../io/file-identity.js';
import type { Analysis } from '../model/analysis.js';
import { factsKey } from '../store/cache-rows.js';
import type { CacheKinds } from '../store/cache-rows.js';

/**
 * The facts key of each analysis, made once: a long-lived server digests a kind of thousands of
 * documents after every edit of one, and the others' analyses are those it keeps (an analysis is never
 * changed once made; the kinds are checked, a key belongs to one project's).
 */
const keys = new WeakMap<Analysis, { kinds: CacheKinds; key: string }>();

/** factsKey of an analysis, as made the first time it was asked for. */
export function factsKeyOf(kinds: CacheKinds, a: Analysis): string {
  const kept = keys.get(a);
  if (kept !== undefined && kept.kinds === kinds) return kept.key;
  const key = factsKey(kinds, a);
  keys.set(a, { kinds, key });
  return key;
}

/** The digest of the analyses of one kind's documents, given in path order. */
export function digestOf(kinds: CacheKinds, analyses: readonly Analysis[]): string {
  const parts: string[] = [];
  for (const a of analyses) parts.push(a.path, factsKeyOf(kinds, a));
  return sha256(parts.join('\0'));
}
