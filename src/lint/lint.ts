/**
 * The one lint pipeline (docs/architecture.md, "The pipeline"): `lint(project, source, store, selection)`.
 * Every frontend is a choice of the three: the CLI lints the disk with the lint cache or none, `--staged`
 * the git index with the blob cache, the MCP server the disk with its memory (and proposed texts laid
 * over it), `--fix` lints, fixes, and lints again. A run lists the kinds the selection needs (a kind's
 * listing is the store's where the source vouches for it), takes each document's analysis from the
 * store or makes it, takes each kind's results across files from the store or makes them, and gives
 * the selected documents' results under directives and the baseline.
 */
import type { FileRef } from '../io/layout.js';
import { ConfigError } from '../model/errors.js';
import type { Diagnostic, Kind, ParseFailureResult } from '../model/types.js';
import { skippedPath } from '../project/named-paths.js';
import type { Project } from '../project/project.js';
import type { Store } from '../store/store.js';
import { lintChanges } from './changes.js';
import type { IndexSource } from './index-source.js';
import { kindResults } from './cross.js';
import { Documents } from './documents.js';
import type { Docs, Slot } from './documents.js';
import { documentResults, foundOf, resultOfDocument, runOf, serve } from './results.js';
import type { LintOutcome, Timing } from './run.js';

export type { LintOutcome, Timing };
import { checkFound, isSelected, kindsListed, kindsOfTarget } from './selection.js';
import type { Selection, Target } from './selection.js';
import type { Source } from './source.js';
import { msSinceStart } from '../model/clock.js';

export interface RunOptions {
  /** What happens to parsed documents once analyzed (documents.ts `Docs`; default: dropped). */
  docs?: Docs;
  /** Every document is analyzed with its rules, not only the selected ones (a server keeps them all whole). */
  fullAll?: boolean;
  /** A kind's listing may be the store's, when the source vouches for what it depended on (a run over named files). */
  trustListings?: boolean;
  /** Each selected document is also served as a server serves it (results.ts `serve`). */
  serve?: boolean;
  /** The outcome lists every selected document with its result (`documents`). */
  documents?: boolean;
  /** The outcome carries the results across files of every document of the kinds linted (`across`): an editor tells which other documents an edit touched. */
  across?: boolean;
}

/** A kind of a run: its documents (slots in path order), and how its listing was had. */
interface KindRun {
  kind: Kind;
  slots: Slot[];
  /** Its listing was the store's, vouched for by the source: documents not selected are taken unread. */
  trusted: boolean;
  /** Only the selected documents are in `slots` so far (a trusted listing whose store may answer the rest). */
  partial: boolean;
  /** The listing and what it depended on, to record once its documents are known (null: not to be recorded). */
  basis: ReturnType<Source['list']>['basis'];
  /** Its results across files came from the store. */
  kept: boolean;
}

/** A run in its phases: the plan, the documents' analyses (here or on threads), the results. */
class Run {
  readonly started = msSinceStart();
  readonly notices: string[] = [];
  readonly documents: Documents;
  readonly kinds: KindRun[] = [];
  selected = new Set<string>();
  planned = 0;
  analyzed = 0;

  constructor(
    readonly project: Project,
    readonly source: Source,
    readonly store: Store,
    readonly selection: Exclude<Selection, { type: 'changes' }>,
    readonly options: RunOptions,
  ) {
    this.documents = new Documents(project, source, store, { hashing: store.hashing === true, docs: options.docs ?? 'drop' });
    if (store.problem) this.notices.push(store.problem);
  }

  private full(ref: FileRef): boolean {
    return this.options.fullAll === true || this.selected.has(ref.path);
  }

  /** A kind's documents: the store's listing when the source vouches for it, else the source's. */
  private listing(kind: Kind): { refs: FileRef[] | null; trusted: boolean; basis: ReturnType<Source['list']>['basis'] } {
    if (this.options.trustListings) {
      const basis = this.store.listing(kind);
      if (basis !== null && this.source.unchanged(basis)) return { refs: null, trusted: true, basis: null };
    }
    const listed = this.source.list(kind);
    return { refs: listed.refs, trusted: false, basis: listed.basis };
  }

  /** Lists the kinds, selects the documents, and makes the slots of the first round. */
  plan(): void {
    const sel = this.selection;
    const listed = kindsListed(this.project, sel);
    const targets = sel.type === 'paths' ? sel.targets : null;
    const found: { kind: Kind; refs: FileRef[] | null; trusted: boolean; basis: KindRun['basis'] }[] = listed.map((kind) => ({ kind, ...this.listing(kind) }));
    if (targets === null) {
      for (const f of found) {
        const refs = this.refsOf(f);
        for (const r of refs) this.selected.add(r.path);
        this.kinds.push({
          kind: f.kind,
          slots: refs.map((r) => this.documents.slot(r, true)),
          trusted: f.trusted,
          partial: false,
          basis: f.basis,
          kept: false,
        });
      }
      this.planned = msSinceStart();
      return;
    }
    // A kind whose listing is trusted and whose targets are all files: its selected documents are those
    // files, and the rest of the kind is looked at only if the store cannot answer for it (`complete`).
    const fileTargets = new Map<Kind, Target[]>();
    for (const f of found) {
      if (!f.trusted) continue;
      const ts = targets.filter((t) => kindsOfTarget(this.project, t).includes(f.kind));
      if (ts.every((t) => !t.dir && t.lossy === undefined && this.project.layout.classify(t.rel)?.kind === f.kind)) fileTargets.set(f.kind, ts);
    }
    const all: FileRef[] = [];
    for (const f of found) {
      if (fileTargets.has(f.kind)) continue;
      all.push(...this.refsOf(f));
    }
    for (const r of all) if (isSelected(r, targets)) this.selected.add(r.path);
    for (const ts of fileTargets.values()) for (const t of ts) this.selected.add(t.rel);
    // A file named by a second path to a folder listed by another (through a link) is the document found there.
    const aliased = new Set<Target>();
    for (const t of targets) {
      if (t.dir || this.selected.has(t.rel) || this.project.layout.classify(t.rel) === null) continue;
      const at = this.source.foundElsewhere?.(t.rel, all) ?? null;
      if (at !== null) {
        this.selected.add(at);
        aliased.add(t);
      }
    }
    checkFound(targets, this.selected);
    // A file is skipped when it is no document (classify: ignored, or of no kind), or git ignores it; a folder when it selected none.
    const selects = (t: Target): boolean =>
      t.dir
        ? all.some((f) => this.selected.has(f.path) && isSelected(f, [t]))
        : this.project.layout.classify(t.rel) !== null && (this.selected.has(t.rel) || aliased.has(t) || !this.source.ignoredByGit?.(t.rel, false));
    for (const t of targets) {
      const any = selects(t);
      const skipped = skippedPath(this.project, t.given, t.rel, t.dir, any, !any && this.source.ignoredByGit?.(t.rel, t.dir) === true);
      if (skipped !== null) this.notices.push(skipped);
    }
    // Only the kinds of the selected documents are linted: rules across files never cross kinds.
    for (const f of found) {
      const few = fileTargets.get(f.kind);
      if (few !== undefined) {
        const refs = [...new Set(few.map((t) => t.rel))].sort().map((path) => this.source.refAt(path, f.kind));
        this.kinds.push({ kind: f.kind, slots: refs.map((r) => this.documents.slot(r, true, true)), trusted: true, partial: true, basis: null, kept: false });
        continue;
      }
      const refs = f.refs!;
      if (!refs.some((r) => this.selected.has(r.path))) continue;
      this.kinds.push({
        kind: f.kind,
        slots: refs.map((r) => this.documents.slot(r, this.full(r), f.trusted)),
        trusted: f.trusted,
        partial: false,
        basis: f.basis,
        kept: false,
      });
    }
    this.planned = msSinceStart();
  }

  /** The paths of a kind's listing as the store recorded it, as the source's documents; null when the store cannot give them after all. */
  private trustedRefs(kind: Kind): FileRef[] | null {
    return this.store.listedPaths(kind)?.map((path) => this.source.refAt(path, kind)) ?? null;
  }

  /** A kind's documents from a trusted listing, or listed by the source when the store cannot give them. */
  private refsOf(f: { kind: Kind; refs: FileRef[] | null; trusted: boolean; basis: KindRun['basis'] }): FileRef[] {
    if (f.refs === null) f.refs = this.trustedRefs(f.kind);
    if (f.refs === null) {
      const listed = this.source.list(f.kind);
      f.refs = listed.refs;
      f.trusted = false;
      f.basis = listed.basis;
    }
    return f.refs;
  }

  /**
   * The kinds whose selected documents alone were looked at: done when the store answers for the rest
   * (each selected document kept its path, id and facts, and no other document is racy); else their
   * other documents become the next round's slots. True when there is a next round.
   */
  complete(): boolean {
    let more = false;
    for (const k of this.kinds) {
      if (!k.partial) continue;
      const d = k.slots.every((s) => s.analysis !== null && s.keptFacts) ? this.store.digest(k.kind) : null;
      if (d !== null && [...d.racy].every((path) => this.selected.has(path)) && this.store.results(k.kind, d.digest) !== null) continue;
      k.partial = false;
      let refs = this.trustedRefs(k.kind);
      // A named file missing from the recorded listing: the listing is stale after all, list again.
      const listedNow = new Set(refs?.map((r) => r.path));
      if (refs === null || k.slots.some((s) => !listedNow.has(s.ref.path))) {
        const listed = this.source.list(k.kind);
        refs = listed.refs;
        k.trusted = false;
        k.basis = listed.basis;
      }
      const done = new Map(k.slots.map((s) => [s.ref.path, s]));
      k.slots = refs.map((r) => done.get(r.path) ?? this.documents.slot(r, this.full(r), k.trusted));
      more = true;
    }
    return more;
  }

  /** The results: across files per kind, then each selected document's, under directives and the baseline. */
  finish(): LintOutcome {
    this.analyzed = msSinceStart();
    const cross = new Map<string, Diagnostic[]>();
    const picked: (Slot & { analysis: NonNullable<Slot['analysis']> })[] = [];
    let few = this.kinds.length > 0;
    for (const k of this.kinds) {
      if (k.partial) {
        // The store answered for the rest of the kind (see `complete`).
        const d = this.store.digest(k.kind)!;
        for (const [path, list] of this.store.results(k.kind, d.digest)!) cross.set(path, [...list]);
        k.kept = true;
      } else {
        few = false;
        const r = kindResults(this.project, this.store, k.kind, k.slots, k.trusted);
        for (const [path, list] of r.results) cross.set(path, list);
        k.kept = r.kept;
        this.keepListing(k);
      }
      for (const s of k.slots) if (s.analysis !== null && this.selected.has(s.ref.path)) picked.push(s as (typeof picked)[number]);
    }
    picked.sort((a, b) => (a.ref.path < b.ref.path ? -1 : a.ref.path > b.ref.path ? 1 : 0));
    // A run that reports only its results makes no object per document for them.
    const documents = this.options.serve || this.options.documents ? documentResults(this.project, picked, cross) : undefined;
    const found: ParseFailureResult[] = [];
    if (documents) found.push(...foundOf(documents));
    else {
      for (const s of picked) {
        const r = resultOfDocument(this.project, s.analysis, cross);
        if (r) found.push(r);
      }
    }
    const run = runOf(this.project, picked, found);
    const served = this.options.serve && documents ? documents.map((d) => serve(this.project, this.source, this.store, d)) : undefined;
    const problem = this.store.save();
    if (problem) this.notices.push(problem);
    const allKept = !few && this.kinds.length > 0 && this.kinds.every((k) => k.kept) && this.documents.split.here + this.documents.split.inWorkers === 0;
    const timing: Timing = {
      loadAndPlanMs: this.planned - this.started,
      analyzeMs: this.analyzed - this.planned,
      finishMs: msSinceStart() - this.analyzed,
      ...this.documents.split,
      ...(few ? { kept: 'few' as const } : allKept ? { kept: 'all' as const } : {}),
    };
    const across = this.options.across ? { across: cross as ReadonlyMap<string, readonly Diagnostic[]> } : {};
    return { ...run, ...(documents ? { documents } : {}), ...(served ? { served } : {}), ...across, notices: this.notices, timing };
  }

  /**
   * Records a kind's listing for later runs, or forgets it when it must not be reused: a document that
   * is a link or not a regular file is examined every run, and one gone before it was read is missing
   * from what the store keeps. What the store keeps of paths no longer listed is dropped.
   */
  private keepListing(k: KindRun): void {
    if (k.trusted) return;
    const keepable = k.basis !== null && k.slots.every((s) => !s.ref.problem && !s.ref.link && s.analysis !== null);
    this.store.keepListing(k.kind, keepable ? k.basis : null);
    this.store.retain(k.kind, new Set(k.slots.map((s) => s.ref.path)));
  }
}

/** A lint in this thread: what tests, small frontends and the MCP server's calls on a warm memory run. */
export function lint(project: Project, source: Source, store: Store, selection: Selection, options: RunOptions = {}): LintOutcome {
  if (selection.type === 'changes') return lintChanges(project, asIndex(source), store);
  const run = new Run(project, source, store, selection, options);
  run.plan();
  run.documents.analyzeHere();
  while (run.complete()) run.documents.analyzeHere();
  return run.finish();
}

/** The same lint, analyzing a large run's documents on worker threads too (the CLI, the MCP server's cold loads). */
export async function lintInParallel(project: Project, source: Source, store: Store, selection: Selection, options: RunOptions = {}): Promise<LintOutcome> {
  if (selection.type === 'changes') return lintChanges(project, asIndex(source), store);
  const run = new Run(project, source, store, selection, options);
  run.plan();
  await run.documents.analyze(true);
  while (run.complete()) await run.documents.analyze(true);
  return run.finish();
}

function asIndex(source: Source): IndexSource {
  if (!('changes' in source)) throw new ConfigError('internal: a selection of changes needs a source that has them (the git index)');
  return source as IndexSource;
}
