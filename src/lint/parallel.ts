import { lstatSync } from 'node:fs';
import { createRequire } from 'node:module';
import { availableParallelism } from 'node:os';
import type { Worker } from 'node:worker_threads';
import type { IdentifiedAnalysis } from './analyze.js';
import type { FileRef } from '../io/layout.js';
import type { ProjectOptions } from '../project/project.js';
import { CHUNK, SharedQueue, shareItems } from './shared-queue.js';
import type { Lane } from './shared-queue.js';

export interface WorkItem {
  ref: FileRef;
  withBody: boolean;
}

/**
 * The work below which a worker thread costs more than it saves, in bytes of documents to analyze: a
 * worker takes ~80 ms of a core to start (its bundle compiled without a code cache, the project loaded)
 * and analyzes slowly until its code is optimized, while this thread analyzes ~60 MB/s from the first
 * document. Measured on 2 cores (docs/performance.md, "Small repositories (issue 27)").
 */
export const PARALLEL_MIN_BYTES = 24 * 1024 * 1024;
/**
 * What a document costs beyond its bytes (opened, checked, its rules run), in bytes analyzed in the same
 * time: ~20 µs, at the rate above.
 */
const DOCUMENT_BYTES = 1200;
/** Documents whose size is looked at to estimate the bytes of a run (a stat each, ~5 µs). */
const SAMPLED = 64;

/**
 * Threads a large run analyzes on, this one included: one per core the process may run on (Node's
 * availableParallelism follows the CPU affinity, so `taskset -c 0` gives 1). No cap: each thread holds
 * only the chunks in flight (docs/performance.md).
 */
export function threadCount(): number {
  return availableParallelism();
}

/**
 * Whether analyzing `items` is worth worker threads: more than one core, more than one chunk, and work
 * enough — their bytes, estimated from the sizes of up to SAMPLED documents spread over them, plus a
 * cost per document — that a worker's start is paid back. A file count alone is no measure: 400 skills
 * of 9 KB are done in this thread before a worker would take its first chunk.
 */
export function worthThreads(items: readonly WorkItem[]): boolean {
  if (items.length <= CHUNK || threadCount() < 2) return false;
  return estimatedWork(items) >= minBytes();
}

/**
 * PARALLEL_MIN_BYTES, or for tests only `DOCGATE_TEST_PARALLEL_MIN_BYTES`: the workers' machinery (a
 * server's kinds loaded on threads, a worker that dies) is tested on roots far smaller than that.
 */
function minBytes(): number {
  const t = process.env.DOCGATE_TEST_PARALLEL_MIN_BYTES;
  return t !== undefined && /^\d+$/.test(t) ? Number(t) : PARALLEL_MIN_BYTES;
}

/** A document's size to estimate by only: it is read (and checked) where it is analyzed. */
function sampledSize(ref: WorkItem['ref']): number {
  return ref.problem ? 0 : (lstatSync(ref.abs, { throwIfNoEntry: false })?.size ?? 0);
}

/** The bytes `items` are estimated to take to analyze (see worthThreads), from the sizes of up to `samples` of them. */
export function estimatedWork(items: readonly WorkItem[], sizeOf: (ref: WorkItem['ref']) => number = sampledSize, samples = SAMPLED): number {
  if (items.length === 0) return 0;
  const step = Math.max(1, items.length / samples);
  let bytes = 0;
  let seen = 0;
  for (let i = 0; i < items.length; i += step, seen++) bytes += sizeOf(items[Math.floor(i)]!.ref);
  return (bytes / seen + DOCUMENT_BYTES) * items.length;
}

/**
 * A worker's young generation. V8's default (up to 48 MB per thread) lets each worker hold that much
 * garbage between scavenges: with two workers a third of the 300 MB bound. 16 MB: once the frontmatter
 * no longer went through the `yaml` package, the scavenges of an 8 MB one showed (a cold lint of 10,000
 * documents on 2 cores ≈ 5 % slower), while 16 MB adds ≈ 5 MB of peak RSS at 100,000 documents
 * (docs/performance.md).
 */
const WORKER_LIMITS = { maxYoungGenerationSizeMb: 16 };

/** How a parallel run analyzes one item here and takes each result (in any order). */
export interface ParallelWork {
  items: readonly WorkItem[];
  /** Analyzes item `index` in this thread. */
  here(index: number): IdentifiedAnalysis | null;
  /** The result of item `index`, from this thread or a worker, as soon as it is known. */
  done(index: number, result: IdentifiedAnalysis | null): void;
}

/** How many items this thread and the workers analyzed, and how many workers were started. */
export interface Split {
  here: number;
  inWorkers: number;
  workers: number;
}

/** A worker's message: the results of a chunk it took, or that it found nothing left to take. */
type Reply = { from: number; out: (IdentifiedAnalysis | null)[] } | { idle: true };

type WorkerOptions = { hashing: boolean; rows?: boolean };

/** A worker thread of analyzeInParallel for a project: it loads the project, then is told its run. */
function startWorker(root: string, project: ProjectOptions, options: WorkerOptions): Worker {
  // Loaded here, not at start-up: a one-file lint never starts a worker (node:worker_threads costs ~1 ms).
  const { Worker: WorkerThread } = createRequire(import.meta.url)('node:worker_threads') as typeof import('node:worker_threads');
  return new WorkerThread(new URL('./analyze-worker.js', import.meta.url), {
    workerData: { root, project, hashing: options.hashing, rows: options.rows === true },
    resourceLimits: WORKER_LIMITS,
  });
}

/**
 * The lanes of a run: each kind's items (they lie together, in the order the run planned them), given
 * to threads so that the estimated work is even (the largest first, each to the least loaded thread).
 * A thread then meets few kinds: each V8 isolate compiles and optimizes the code of the kinds it
 * analyzes, and the code of a kind another thread analyzes is not warmed up twice (docs/performance.md,
 * "How a large run works"). Thread 0 is this one.
 */
export function lanesOf(items: readonly WorkItem[], threads: number, sizeOf: (ref: WorkItem['ref']) => number = sampledSize): Lane[] {
  const lanes: (Lane & { cost: number })[] = [];
  for (let i = 0; i < items.length; ) {
    let j = i + 1;
    while (j < items.length && items[j]!.ref.kind === items[i]!.ref.kind) j++;
    // A lane's weight needs less than the run's: a quarter of the samples.
    lanes.push({ front: i, back: j, owner: 0, cost: estimatedWork(items.slice(i, j), sizeOf, SAMPLED / 4) });
    i = j;
  }
  const load = new Array<number>(threads).fill(0);
  for (const lane of [...lanes].sort((x, y) => y.cost - x.cost)) {
    let least = 0;
    for (let t = 1; t < threads; t++) if (load[t]! < load[least]!) least = t;
    lane.owner = least;
    load[least]! += lane.cost;
  }
  return lanes.map(({ front, back, owner }) => ({ front, back, owner }));
}

/**
 * Analyzes items on every core: this thread and `threads - 1` worker threads (each loads the rules once
 * and reads its own files) take chunks from one shared queue (shared-queue.ts), each from its own lanes
 * first (`lanesOf`), so nobody idles while work is left and nothing waits for workers to start. This
 * thread analyzes one chunk per turn of its event loop, taking the workers' results in between. Parsed
 * documents are not sent back. What a worker that fails (out of memory under its limits, say) took and
 * did not answer is analyzed here once the queue is empty, so the run still completes.
 * `hashing`: whether results need their content hash (a cache keeps it); `rows`: the workers send each
 * document's row instead of nothing (the MCP server keeps rows, src/lint/row.ts).
 */
export function analyzeInParallel(
  root: string,
  project: ProjectOptions,
  work: ParallelWork,
  options: { hashing: boolean; rows?: boolean },
  threads = threadCount(),
): Promise<Split> {
  const { items } = work;
  const total = items.length;
  const started = Math.max(1, Math.min(threads, Math.ceil(total / CHUNK)));
  const queue = SharedQueue.over(lanesOf(items, started), started);
  const shared = started > 1 ? shareItems(items) : null;
  /** The items whose results are in. */
  const answered = new Uint8Array(total);
  let finished = 0;
  const split: Split = { here: 0, inWorkers: 0, workers: 0 };
  const faultyWorkers = process.env.DOCGATE_TEST_FAULT === 'worker-exit';
  return new Promise((resolve, reject) => {
    /** Workers alive and not yet idle. */
    const busy = new Set<Worker>();
    const all = new Set<Worker>();
    let settled = false;
    let queueEmpty = false;
    const end = (err?: unknown): void => {
      if (settled) return;
      settled = true;
      for (const w of all) void w.terminate();
      if (err === undefined) resolve(split);
      else reject(err instanceof Error ? err : new Error(String(err)));
    };
    /** Takes results (an exception ends the run with it); false once the run has ended. */
    const settle = (handOver: () => number): boolean => {
      try {
        finished += handOver();
      } catch (e) {
        end(e);
        return false;
      }
      if (finished === total) end();
      return !settled;
    };
    /** Takes item i's result unless it has one (a lost worker's chunk is done again here): 1 if taken. */
    const answer = (i: number, result: () => IdentifiedAnalysis | null): number => {
      if (answered[i]) return 0;
      answered[i] = 1;
      work.done(i, result());
      return 1;
    };
    const analyzeHere = (from: number, to: number): number => {
      let n = 0;
      for (let i = from; i < to; i++) n += answer(i, () => work.here(i));
      split.here += n;
      return n;
    };
    /** The queue is empty and no worker is busy: what a lost worker took and did not answer is done here. */
    const sweep = (): void => {
      if (settled || !queueEmpty || busy.size > 0) return;
      settle(() => analyzeHere(0, total));
    };
    let localBusy = false;
    const local = (): void => {
      localBusy = false;
      if (settled) return;
      const r = queue.take(0);
      if (r === null) {
        queueEmpty = true;
        sweep();
        return;
      }
      if (settle(() => analyzeHere(r[0], r[1]))) wake();
    };
    const wake = (): void => {
      if (settled || localBusy) return;
      localBusy = true;
      setImmediate(local);
    };
    if (total === 0) return end();
    for (let t = 1; t < started; t++) {
      const w = startWorker(root, project, options);
      all.add(w);
      busy.add(w);
      split.workers++;
      w.on('message', (reply: Reply) => {
        if (settled) return;
        if ('idle' in reply) {
          busy.delete(w);
          sweep();
          return;
        }
        settle(() => {
          let n = 0;
          reply.out.forEach((r, k) => {
            n += answer(reply.from + k, () => r);
          });
          split.inWorkers += n;
          return n;
        });
      });
      const lost = (): void => {
        busy.delete(w);
        all.delete(w);
        if (faultyWorkers && all.size === 0) wake();
        sweep();
      };
      w.on('error', lost);
      w.on('exit', lost);
      w.postMessage({ thread: t, queue: queue.shapeOf, items: shared });
    }
    // Tests only (workers that die with a chunk taken): this thread starts once they are gone, so that
    // each worker takes a chunk first, however fast this thread would have done the run alone.
    if (!faultyWorkers || all.size === 0) wake();
  });
}
