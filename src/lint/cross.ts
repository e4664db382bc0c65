/**
 * The results across files of a kind (docs/architecture.md, "The pipeline"): the store's, when it kept
 * them for these very documents (the same paths, ids and facts: the same digest), else the kind's rules
 * across files run over every document of the kind, and kept under their digest.
 */
import { crossFileDiagnostics } from '../engine/cross-file.js';
import type { Analysis } from '../model/analysis.js';
import type { Diagnostic, Kind } from '../model/types.js';
import type { Project } from '../project/project.js';
import type { KeptDigest, KindResults, Store } from '../store/store.js';
import { NO_STORE } from '../store/store.js';
import { digestOf } from './digest.js';
import type { Slot } from './documents.js';

/** Results a run may change (a run's lists are its own): copied from what a store kept. */
export function copyResults(results: KindResults, into = new Map<string, Diagnostic[]>()): Map<string, Diagnostic[]> {
  for (const [path, list] of results) into.set(path, [...list]);
  return into;
}

/**
 * The digest the store kept for a kind, when it is that of these documents: every one of them is the
 * store's (taken from it, or analyzed again to the same facts), and they are as many as it kept (or the
 * listing is the one it recorded, `listed`).
 */
export function keptDigestOf(store: Store, kind: Kind, slots: readonly Slot[], listed: boolean): KeptDigest | null {
  for (const s of slots) if (s.analysis === null || !s.keptFacts) return null;
  const d = store.digest(kind);
  return d !== null && (listed || d.count === slots.length) ? d : null;
}

/**
 * A kind's results across files over its documents (slots in path order; a document gone between
 * listing and read has none), and whether they came from the store.
 */
export function kindResults(
  project: Project,
  store: Store,
  kind: Kind,
  slots: readonly Slot[],
  listed: boolean,
): { results: Map<string, Diagnostic[]>; kept: boolean } {
  const kept = keptDigestOf(store, kind, slots, listed);
  const stored = kept && store.results(kind, kept.digest);
  if (stored) return { results: copyResults(stored), kept: true };
  // A loop, not flatMap: an editor's server runs this after every edit over a kind of thousands.
  const analyses: Analysis[] = [];
  for (const s of slots) if (s.analysis) analyses.push(s.analysis);
  // Without a store there is nothing to look up or keep: no digest is made.
  if (store === NO_STORE) return { results: crossFileDiagnostics(project.kinds, analyses, project.severityFor), kept: false };
  const digest = digestOf(project, analyses);
  const known = store.results(kind, digest);
  if (known) return { results: copyResults(known), kept: true };
  const results = crossFileDiagnostics(project.kinds, analyses, project.severityFor);
  const racy = new Set(slots.filter((s) => s.racy).map((s) => s.ref.path));
  store.keepResults(kind, { digest, count: analyses.length, racy }, results);
  return { results, kept: false };
}

/** The results across files of some analyses, of every kind among them. */
export function resultsOf(project: Project, analyses: readonly Analysis[]): Map<string, Diagnostic[]> {
  return crossFileDiagnostics(project.kinds, analyses, project.severityFor);
}
