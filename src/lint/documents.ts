/**
 * A lint run's documents, each in a slot (docs/architecture.md, "The pipeline"): its analysis taken from
 * the store where the source vouches for it (the same version; else the same content hash), or made by
 * reading it from the source and analyzing it — in this thread, or for a large run of the disk, on
 * worker threads too — and kept in the store.
 */
import type { ReadOutcome } from '../io/file-identity.js';
import type { FileRef } from '../io/layout.js';
import type { Analysis } from '../model/analysis.js';
import type { Project } from '../project/project.js';
import type { Kept, Store } from '../store/store.js';
import { analyzeRead, discoveryFailure, maxBytes } from './analyze.js';
import { factsKeyOf } from './digest.js';
import type { IdentifiedAnalysis } from './analyze.js';
import { analyzeInParallel, worthThreads } from './parallel.js';
import type { Split } from './parallel.js';
import { rowInsteadOfDoc } from './row.js';
import type { Source } from './source.js';

/** One document of a run. */
export interface Slot {
  ref: FileRef;
  /** Analyzed with its rules (a document the run reports), not only for its facts. */
  full: boolean;
  /** Its analysis; null until made, and for a document gone between listing and read. */
  analysis: Analysis | null;
  /** What the store kept of it before this run. */
  kept: Kept | null;
  /** Its path, id and facts are those the store kept (taken from the store, or analyzed again to the same). */
  keptFacts: boolean;
  /** What the store keeps of it now cannot vouch for its content on its version alone (a later run reads it). */
  racy: boolean;
}

/** A document to read and analyze, with the bytes read already (to compare their hash), if any. */
interface Work {
  slot: Slot;
  read?: { outcome: ReadOutcome; hash: string };
}

/** What happens to a parsed document once analyzed: dropped (a lint reads only diagnostics and facts), or kept as its row (a server lists it). */
export type Docs = 'drop' | 'rows' | 'keep';

export interface DocumentsOptions {
  /** Content hashes are kept by the store (the lint cache): the bytes read are hashed. */
  hashing: boolean;
  docs: Docs;
}

/** At most this many bytes of changed files read for the store's check are kept for their analysis. */
const READ_AHEAD_BYTES = 16 * 1024 * 1024;

export class Documents {
  /** Bytes read to check content hashes and kept for analysis (see READ_AHEAD_BYTES). */
  private readAhead = 0;
  readonly work: Work[] = [];
  /** Who analyzed how many (the run's timing). */
  split: Split = { here: 0, inWorkers: 0, workers: 0 };

  constructor(
    private readonly project: Project,
    private readonly source: Source,
    private readonly store: Store,
    private readonly options: DocumentsOptions,
  ) {}

  /**
   * The slot of a document: its analysis from the store when the source vouches for it, else work.
   * `unread`: the kind's listing was the store's, vouched for by the source; a document only needed
   * for its facts is then taken as kept without a look at it (a stat per file would cost more than the
   * rest of a pre-commit run at 10,000 files; docs/decisions.md).
   */
  slot(ref: FileRef, full: boolean, unread = false): Slot {
    const slot: Slot = { ref, full, analysis: null, kept: null, keptFacts: false, racy: false };
    // A problem found at discovery is analyzed without a read; a text laid over the source is never the store's.
    if (ref.problem || this.source.proposed?.(ref)) {
      this.work.push({ slot });
      return slot;
    }
    // A document a watcher vouches for is the store's as it is (docs/editors.md, "Speed"): no stat, and
    // no racy check either, since a change after the store kept it would have been seen.
    if (!this.store.versioned && this.source.vouches?.(ref)) {
      const k = this.store.get(ref, null);
      if (k !== null && (k.full || !full)) {
        slot.kept = k;
        return this.reuse(slot, k);
      }
    }
    // The version (a stat, on the disk) is asked only of a document the store keeps, unless the store
    // keeps several versions of a path and must be told which.
    let version: string | null | undefined;
    let k = this.store.versioned && !(unread && !full) ? this.store.get(ref, (version = this.source.version(ref))) : this.store.get(ref, null);
    if (k !== null && !k.full && full) k = null;
    slot.kept = k;
    if (k !== null && !k.racy && unread && !full) return this.reuse(slot, k);
    // What the store kept vouches for the document, not for the files a rule of it looks at.
    if (k !== null && full && this.looksOutside(ref)) {
      this.work.push({ slot });
      return slot;
    }
    if (k !== null && version === undefined) version = this.source.version(ref);
    // An unchanged version proves unchanged content, except for a document modified around the time it was
    // kept (git's "racily clean" case): then its content hash decides.
    if (k !== null && !k.racy && version !== null && version === k.version) return this.reuse(slot, k);
    if (k !== null && k.hash !== null && this.options.hashing) {
      const outcome = this.source.read(ref, maxBytes(this.project, ref.kind));
      if (outcome.kind === 'bytes') {
        const hash = this.source.hash(ref, outcome.bytes);
        if (hash === k.hash) {
          // The new version is kept, and the racy mark goes unless the document is still racy now.
          slot.racy = !this.source.settled(outcome.identity);
          this.store.keep(ref, { ...k, version: outcome.identity, racy: slot.racy });
          return this.reuse(slot, k);
        }
        // A changed document read for the check is analyzed without a second read, up to READ_AHEAD_BYTES in
        // all: after a checkout that changed thousands of files, the rest are read again rather than held.
        if ((this.readAhead += outcome.bytes.length) <= READ_AHEAD_BYTES) {
          this.work.push({ slot, read: { outcome, hash } });
          return slot;
        }
      }
    }
    this.work.push({ slot });
    return slot;
  }

  /** The rules whose findings depend on other files (`looksOutside`), found once per run. */
  private outsideRules: readonly string[] | undefined;

  /** A rule that looks at other files is on for the document. */
  private looksOutside(ref: FileRef): boolean {
    this.outsideRules ??= [...this.project.rules.values()].filter((e) => e.rule.looksOutside).map((e) => e.rule.id);
    if (this.outsideRules.length === 0) return false;
    const severity = this.project.severityFor(ref.path);
    return this.outsideRules.some((id) => severity(id) !== 'off');
  }

  private reuse(slot: Slot, k: Kept): Slot {
    slot.analysis = k.analysis;
    slot.keptFacts = true;
    return slot;
  }

  /** The work, in this thread. */
  analyzeHere(): void {
    this.source.prefetch?.(
      this.work.filter((w) => !w.read && !w.slot.ref.problem).map((w) => w.slot.ref),
      (ref) => maxBytes(this.project, ref.kind),
    );
    const pins = this.work.length > 1 ? this.source.pinFolders?.() : undefined;
    try {
      for (const w of this.work) this.take(w, this.analyzeOne(w));
    } finally {
      pins?.close();
    }
    this.split = { here: this.split.here + this.work.length, inWorkers: this.split.inWorkers, workers: this.split.workers };
    this.work.length = 0;
  }

  /**
   * The work, on worker threads too when there is enough of it and the source can be read by them (the
   * disk): workers read their files themselves and send back analyses without parsed documents (rows,
   * when they are kept).
   */
  async analyze(parallel: boolean): Promise<void> {
    const items = parallel && this.source.threads ? this.work.map((w) => ({ ref: w.slot.ref, withBody: w.slot.full })) : [];
    if (!worthThreads(items) || this.work.some((w) => this.source.proposed?.(w.slot.ref))) {
      this.analyzeHere();
      return;
    }
    const work = this.work.splice(0);
    const pins = this.source.pinFolders?.();
    try {
      this.split = await analyzeInParallel(
        this.project.root,
        this.project.options,
        { items, here: (i) => this.analyzeOne(work[i]!), done: (i, r) => this.take(work[i]!, r) },
        { hashing: this.options.hashing, rows: this.options.docs === 'rows' },
      );
    } finally {
      pins?.close();
    }
  }

  private analyzeOne(w: Work): IdentifiedAnalysis | null {
    const { ref, full } = w.slot;
    if (ref.problem) return discoveryFailure(ref, ref.problem, this.project);
    const keepDoc = this.options.docs !== 'drop';
    if (w.read) return analyzeRead(ref, w.read.outcome, this.project, { withBody: full, hash: w.read.hash, keepDoc });
    const outcome = this.source.read(ref, maxBytes(this.project, ref.kind));
    const hash = this.options.hashing && outcome.kind === 'bytes' ? this.source.hash(ref, outcome.bytes) : undefined;
    return analyzeRead(ref, outcome, this.project, { withBody: full, hash, hashing: false, keepDoc });
  }

  /** One document analyzed: into its slot (reduced to what the rest of the run reads), and into the store. */
  private take(w: Work, r: IdentifiedAnalysis | null): void {
    if (!r) return; // gone between listing and read: omitted
    const { slot } = w;
    const a = r.analysis;
    // The strings the listing holds already (memory grows with the documents' facts only).
    a.path = slot.ref.path;
    a.kind = slot.ref.kind;
    // A run that drops parsed documents made none (analyzeOne); a server keeps rows instead.
    if (this.options.docs === 'rows') rowInsteadOfDoc(a, this.project);
    slot.analysis = a;
    slot.keptFacts = slot.kept !== null && factsKeyOf(this.project, slot.kept.analysis) === factsKeyOf(this.project, a);
    slot.racy = !this.source.settled(r.identity);
    if (!this.source.proposed?.(slot.ref)) this.store.keep(slot.ref, { analysis: a, version: r.identity, hash: r.hash, full: slot.full, racy: slot.racy });
  }
}
