/**
 * A run over the changes of the git index (`docgate lint --staged`): the documents reported are the
 * staged ones plus every document whose result across files differs from what HEAD's tree gives it —
 * the users of a deleted, renamed or changed `store_as`, both holders of a new duplicate, a variant
 * whose source went. That is found from the kinds' own rules across files, run over both trees; no kind
 * is named here. The common commit (bodies edited: every changed document keeps its path, id and facts)
 * is answered from the results the store kept for HEAD's tree, without listing the index.
 */
import type { IndexEntry, StagedChange } from '../io/git-index.js';
import { GITLINK, IndexTree, SYMLINK, isLink, meets } from '../io/index-tree.js';
import type { IndexRef } from '../io/index-tree.js';
import type { FileRef } from '../io/layout.js';
import type { Analysis } from '../model/analysis.js';
import type { Diagnostic, Kind } from '../model/types.js';
import type { Project } from '../project/project.js';
import { factsKey } from '../store/cache-rows.js';
import type { Store } from '../store/store.js';
import { NO_STORE } from '../store/store.js';
import { copyResults, resultsOf } from './cross.js';
import { digestOf } from './digest.js';
import type { LintOutcome, Timing } from './run.js';
import { maxBytes } from './analyze.js';
import { Documents } from './documents.js';
import type { Slot } from './documents.js';
import { blobVersion } from './index-source.js';
import type { IndexSource } from './index-source.js';
import { documentResults, foundOf, runOf } from './results.js';
import { msSinceStart } from '../model/clock.js';

/**
 * Changed documents answered from a tree's results across files at most (see `fromTree`); a larger
 * commit lists the index, where the store answers for most documents.
 */
const MAX_QUICK = 16;

/** A document whose place or content differs between HEAD's tree and the index: its HEAD side, and whether the index has it. */
interface DocChange {
  path: string;
  head: FileRef | null;
  now: boolean;
}

function byPath<T extends { path: string }>(list: T[]): T[] {
  return list.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
}

function analysesOf(slots: readonly Slot[]): Analysis[] {
  return slots.flatMap((s) => (s.analysis ? [s.analysis] : []));
}

/** Whether the changed documents are the same paths with the same ids and facts on both sides. */
function sameFacts(project: Project, now: readonly (Analysis | null)[], before: readonly Analysis[], changed: ReadonlySet<string>): boolean {
  const side = (list: readonly (Analysis | null)[]): Map<string, string> => {
    const out = new Map<string, string>();
    for (const a of list) if (a && changed.has(a.path)) out.set(a.path, factsKey(project, a));
    return out;
  };
  const a = side(now);
  const b = side(before);
  return a.size === b.size && [...a].every(([path, k]) => b.get(path) === k);
}

function sameDiagnostics(a: readonly Diagnostic[] | undefined, b: readonly Diagnostic[] | undefined): boolean {
  if (a === b) return true;
  if ((a?.length ?? 0) !== (b?.length ?? 0)) return false;
  return JSON.stringify(a ?? []) === JSON.stringify(b ?? []);
}

/** What a document of the index is, as far as its result can tell: its problem, or the blob it reads. */
function docKey(ref: IndexRef | undefined): string | undefined {
  return ref && `${ref.problem ?? ''}:${ref.code ?? ''}:${ref.blob ? blobVersion(ref.blob) : ''}`;
}

/** The documents that differ between two listings of one kind (the index's, HEAD's). */
function changedDocs(now: readonly IndexRef[], then: readonly IndexRef[]): DocChange[] {
  const a = new Map(now.map((r) => [r.path, r]));
  const b = new Map(then.map((r) => [r.path, r]));
  const out: DocChange[] = [];
  for (const path of new Set([...a.keys(), ...b.keys()])) {
    if (docKey(a.get(path)) !== docKey(b.get(path))) out.push({ path, head: b.get(path) ?? null, now: a.has(path) });
  }
  return out;
}

/** A run's outcome, its timing that of a run with everything done in this thread. */
function outcome(
  project: Project,
  store: Store,
  started: number,
  notices: string[],
  docs: readonly { ref: FileRef; analysis: Analysis }[],
  cross: ReadonlyMap<string, readonly Diagnostic[]>,
  here: number,
): LintOutcome {
  const planned = msSinceStart();
  const sorted = [...docs].sort((a, b) => (a.ref.path < b.ref.path ? -1 : a.ref.path > b.ref.path ? 1 : 0));
  const documents = documentResults(project, sorted, cross);
  const problem = store.save();
  if (problem) notices.push(problem);
  const timing: Timing = { loadAndPlanMs: planned - started, analyzeMs: 0, finishMs: msSinceStart() - planned, here, inWorkers: 0, workers: 0 };
  return { ...runOf(project, documents, foundOf(documents)), documents, notices, timing };
}

/**
 * The common commit, answered from HEAD's tree: when the staged changes keep every changed document's
 * path, id and facts (a body edited), no result across files differs from HEAD's, which a run over the
 * whole tree kept in the store. Then only the changed documents are read (both sides, to compare their
 * facts), never the rest of the index. Null when that does not hold or is not known: the whole run.
 * The store keeps a tree's results only when a whole run found no link where documents are looked for
 * (see `lintChanges`), and this is tried only for a commit that adds none: then no document lies behind
 * a link, and the changes are the documents changed.
 */
function fromTree(
  project: Project,
  source: IndexSource,
  store: Store,
  changes: readonly StagedChange[],
  kindOf: ReadonlyMap<string, Kind>,
  kinds: readonly Kind[],
  started: number,
  notices: string[],
): LintOutcome | null {
  const relevant = changes.filter((c) => kindOf.has(c.path));
  if (relevant.length > MAX_QUICK) return null;
  // Additions and deletions change the set of documents; a conflict has no side to read.
  const plain = (e: IndexEntry | null): e is IndexEntry => e !== null && e.mode !== SYMLINK && e.mode !== GITLINK && e.unmerged !== true;
  if (!relevant.every((c) => plain(c.head) && plain(c.index))) return null;
  const nowRefs = relevant.map((c) => source.refOf(c.path, kindOf.get(c.path)!, c.index!));
  const headRefs = relevant.map((c) => source.refOf(c.path, kindOf.get(c.path)!, c.head!));
  // Both sides' blobs in one git call, which names HEAD's tree too. They are analyzed without the store:
  // decoding its rows of the kind would cost most of a whole run.
  source.prefetch([...nowRefs, ...headRefs], (ref) => maxBytes(project, ref.kind));
  const tree = source.headTree();
  const digests = tree === null ? [] : kinds.map((k) => store.digest(k, tree));
  if (digests.length === 0 || digests.some((d) => d === null)) return null;
  const docs = new Documents(project, source, NO_STORE, { hashing: true, docs: 'drop' });
  const now = nowRefs.map((ref) => docs.slot(ref, true));
  const before = headRefs.map((ref) => docs.slot(ref, false));
  const here = docs.work.length;
  docs.analyzeHere();
  const paths = new Set(relevant.map((c) => c.path));
  if (!sameFacts(project, analysesOf(now), analysesOf(before), paths)) return null;
  const cross = new Map<string, Diagnostic[]>();
  for (let i = 0; i < kinds.length; i++) {
    const results = store.results(kinds[i]!, digests[i]!.digest);
    if (results === null) return null;
    copyResults(results, cross);
  }
  return outcome(
    project,
    store,
    started,
    notices,
    analysesOf(now).map((a, i) => ({ ref: now[i]!.ref, analysis: a })),
    cross,
    here,
  );
}

/**
 * The kinds whose documents a link may reach (a link lies at, above or below one of their folders, in
 * the index or in HEAD), each found in both trees by `IndexTree.discover`: the documents, and those that
 * differ. The link texts are read in one batch.
 */
function throughLinks(
  project: Project,
  source: IndexSource,
  index: ReadonlyMap<string, IndexEntry>,
  links: readonly string[],
  changes: readonly StagedChange[],
): Map<Kind, { refs: IndexRef[]; changed: DocChange[] }> {
  const layout = project.layout;
  const out = new Map<Kind, { refs: IndexRef[]; changed: DocChange[] }>();
  const kinds = layout.kinds.filter((k) =>
    links.some((path) =>
      meets(
        path,
        layout.folders(k).map((f) => f.dir),
      ),
    ),
  );
  if (kinds.length === 0) return out;
  const targets = source.linkTargets([
    ...links.flatMap((path) => (isLink(index.get(path)) ? [index.get(path)!] : [])),
    ...changes.flatMap((c) => (isLink(c.head) ? [c.head] : [])),
  ]);
  const now = new IndexTree(index, targets);
  const then = now.before(changes);
  for (const kind of kinds) {
    const refs = now.discover(project.root, layout, kind);
    out.set(kind, { refs, changed: changedDocs(refs, then.discover(project.root, layout, kind)) });
  }
  return out;
}

/** Lints the snapshot the git index holds, reporting the documents its changes touch. */
export function lintChanges(project: Project, source: IndexSource, store: Store): LintOutcome {
  const started = msSinceStart();
  const layout = project.layout;
  const notices: string[] = [];
  const { changes, intentToAdd } = source.changes();
  if (changes.length === 0) return outcome(project, NO_STORE, started, notices, [], new Map(), 0);
  const kindOf = new Map<string, Kind>();
  for (const c of changes) {
    const k = layout.classify(c.path);
    if (k) kindOf.set(c.path, k.kind);
  }
  const folders = (kinds: Iterable<Kind>): string[] => [...kinds].flatMap((k) => layout.folders(k).map((f) => f.dir));
  const everywhere = folders(layout.kinds);
  // A link changed where documents are looked for: the index may reach documents through it.
  const linkChanged = changes.some((c) => (isLink(c.head) || isLink(c.index)) && meets(c.path, everywhere));
  // The store is read (and its problem said) only by a run that may use it.
  let storeRead = false;
  const readStore = (): void => {
    if (!storeRead && store.problem) notices.push(store.problem);
    storeRead = true;
  };
  if (kindOf.size > 0 && !linkChanged) {
    readStore();
    const quick = fromTree(
      project,
      source,
      store,
      changes,
      kindOf,
      layout.kinds.filter((k) => [...kindOf.values()].includes(k)),
      started,
      notices,
    );
    if (quick) return quick;
  }

  // The index, listed once: the documents of the kinds touched, and every link (a target may lie anywhere).
  const listing = source.listing(intentToAdd);
  const indexLinks = [...listing.links().keys()];
  const links = [...new Set([...indexLinks, ...changes.filter((c) => isLink(c.head)).map((c) => c.path)])];
  const reached = throughLinks(project, source, links.length > 0 ? listing.all() : new Map(), links, changes);
  // Rules across files never cross kinds: only the kinds whose documents changed are linted.
  const touched = new Set<Kind>();
  for (const k of kindOf.values()) if (!reached.has(k)) touched.add(k);
  for (const [k, r] of reached) if (r.changed.length > 0) touched.add(k);
  const kinds = layout.kinds.filter((k) => touched.has(k));
  if (kinds.length === 0) return outcome(project, NO_STORE, started, notices, [], new Map(), 0);

  readStore();
  const linked = new Set(reached.keys());
  source.setDocuments({ flat: listing.under(folders(kinds.filter((k) => !linked.has(k)))), linked: new Map([...reached].map(([k, r]) => [k, r.refs])) });

  // The documents changed: of a kind no link reaches, the changes git lists; of one a link reaches, those found different.
  const docChanges: DocChange[] = [];
  for (const c of changes) {
    const kind = kindOf.get(c.path);
    if (kind === undefined || linked.has(kind) || !touched.has(kind)) continue;
    docChanges.push({
      path: c.path,
      head: c.head !== null && c.head.mode !== GITLINK ? source.refOf(c.path, kind, c.head) : null,
      now: c.index !== null && c.index.mode !== GITLINK,
    });
  }
  for (const k of kinds) docChanges.push(...(reached.get(k)?.changed ?? []));

  // The indexed tree: every document of those kinds, analyzed fully only where staged.
  const staged = new Set(docChanges.filter((d) => d.now).map((d) => d.path));
  const docs = new Documents(project, source, store, { hashing: true, docs: 'drop' });
  const needed = byPath(kinds.flatMap((k) => source.list(k).refs));
  const slots = needed.map((ref) => docs.slot(ref, staged.has(ref.path)));
  let here = docs.work.length;
  docs.analyzeHere();

  // HEAD's tree: the same analyses, but the HEAD side of every changed document (facts only).
  const changed = new Set([...changes.map((c) => c.path), ...docChanges.map((d) => d.path)]);
  const headSlots = docChanges.flatMap((d) => (d.head ? [docs.slot(d.head, false)] : []));
  here += docs.work.length;
  docs.analyzeHere();
  const before: Analysis[] = analysesOf(slots).filter((a) => !changed.has(a.path));
  const headSide = new Map<string, Analysis>();
  for (const a of analysesOf(headSlots)) {
    before.push(a);
    headSide.set(a.path, a);
  }
  // A document in conflict is named (file-unmerged), but the others see it as HEAD has it: what it
  // will hold is not decided yet, and its users are not to blame for that.
  const conflicted = new Set(needed.filter((r) => r.problem === 'unmerged').map((r) => r.path));
  const facing =
    conflicted.size === 0
      ? slots.map((s) => s.analysis)
      : slots.map((s) => (s.analysis && conflicted.has(s.analysis.path) ? (headSide.get(s.analysis.path) ?? null) : s.analysis));
  const facingAnalyses = facing.filter((a): a is Analysis => a !== null);
  const indexResults = resultsOf(project, facingAnalyses);
  // The rules across files read only the facts (and paths and ids): when the changed documents' facts are
  // those HEAD had (a body edited, the common commit), no other document's result can differ.
  const headResults = sameFacts(project, facing, before, changed) ? indexResults : resultsOf(project, byPath(before));
  const tree = store === NO_STORE ? null : source.headTree();
  // HEAD's links: the index's, but as HEAD has each changed path.
  const changedAt = new Map(changes.map((c) => [c.path, c]));
  const headLinks = links.filter((path) => (changedAt.has(path) ? isLink(changedAt.get(path)!.head) : true));
  if (tree !== null && !headLinks.some((path) => meets(path, everywhere))) keepTree(project, store, kinds, linked, tree, byPath(before), headResults);

  // Documents a staged change affects: checked as a whole (their own rules too), like the staged ones.
  const affected: number[] = [];
  if (headResults !== indexResults) {
    slots.forEach((s, i) => {
      if (s.analysis && !staged.has(s.analysis.path) && !sameDiagnostics(indexResults.get(s.analysis.path), headResults.get(s.analysis.path))) affected.push(i);
    });
  }
  const again = affected.map((i) => docs.slot(needed[i]!, true));
  here += docs.work.length;
  docs.analyzeHere();
  affected.forEach((i, j) => {
    if (again[j]!.analysis) slots[i] = again[j]!;
  });

  const selected = new Set([...staged, ...affected.map((i) => needed[i]!.path)]);
  const shown = conflicted.size === 0 ? indexResults : new Map([...indexResults].filter(([path]) => !conflicted.has(path)));
  for (const k of kinds) store.retain(k, new Set(needed.filter((r) => r.kind === k).map((r) => r.path)));
  const reported = slots.flatMap((s) => (s.analysis && selected.has(s.ref.path) ? [{ ref: s.ref, analysis: s.analysis }] : []));
  return outcome(project, store, started, notices, reported, shown, here);
}

/**
 * Keeps HEAD's results across files for the next commit's `fromTree`: `headResults` is what the whole of HEAD's
 * tree gives (`before`: its documents of these kinds). Not for a kind a link reaches: its documents
 * there were found through the links, which `fromTree` does not look at.
 */
function keepTree(
  project: Project,
  store: Store,
  kinds: readonly Kind[],
  linked: ReadonlySet<Kind>,
  tree: string,
  before: readonly Analysis[],
  headResults: ReadonlyMap<string, Diagnostic[]>,
): void {
  for (const kind of kinds) {
    if (linked.has(kind)) continue;
    const analyses = before.filter((a) => a.kind === kind);
    const results = new Map<string, Diagnostic[]>();
    for (const a of analyses) {
      const list = headResults.get(a.path);
      if (list !== undefined && list.length > 0) results.set(a.path, list);
    }
    store.keepResults(kind, { digest: digestOf(project, analyses), count: analyses.length, racy: new Set() }, results, tree);
  }
}
