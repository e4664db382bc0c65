import { lstatSync } from 'node:fs';
import { createRequire } from 'node:module';
import { availableParallelism } from 'node:os';
import type { Worker } from 'node:worker_threads';
import type { IdentifiedAnalysis } from './analyze.js';
import type { FileRef } from '../io/layout.js';
import type { ProjectOptions } from '../project/project.js';

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

/** The bytes `items` are estimated to take to analyze (see worthThreads). */
export function estimatedWork(items: readonly WorkItem[]): number {
  const step = Math.max(1, items.length / SAMPLED);
  let bytes = 0;
  let seen = 0;
  for (let i = 0; i < items.length; i += step, seen++) {
    const ref = items[Math.floor(i)]!.ref;
    // A size to estimate by only: the document itself is read (and checked) where it is analyzed.
    if (!ref.problem) bytes += lstatSync(ref.abs, { throwIfNoEntry: false })?.size ?? 0;
  }
  return (bytes / seen + DOCUMENT_BYTES) * items.length;
}

/**
 * Documents per message. Small, so that a worker holds little at a time (memory flat in the number of
 * documents, docs/performance.md "Scale (issue 17)") and this thread never waits long for its own chunk to end; a message costs ~0.1 ms.
 */
const CHUNK = 64;
/** Chunks sent ahead to each worker: it starts the next while this thread is busy with a chunk of its own. */
const IN_FLIGHT = 2;
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

interface Reply {
  chunk: number;
  out: (IdentifiedAnalysis | null)[];
}

/**
 * Analyzes items on every core: this thread and `threads - 1` worker threads (each loads the rules once
 * and reads its own files) take chunks from one queue, so nobody idles while work is left and nothing
 * waits for workers to start. This thread analyzes one chunk per turn of its event loop, taking the
 * workers' replies in between. Parsed documents are not sent back. A worker that fails (out of memory
 * under its limits, say) hands its chunks back: this thread analyzes them, so the run still completes.
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
  const chunks = Math.ceil(items.length / CHUNK);
  const range = (c: number): [number, number] => [c * CHUNK, Math.min(items.length, (c + 1) * CHUNK)];
  let next = 0;
  let finished = 0;
  const split: Split = { here: 0, inWorkers: 0, workers: 0 };
  /** Chunks of failed workers, to do here. */
  const returned: number[] = [];
  const take = (): number => returned.pop() ?? (next < chunks ? next++ : -1);
  return new Promise((resolve, reject) => {
    const workers = new Set<Worker>();
    let settled = false;
    const end = (err?: unknown): void => {
      if (settled) return;
      settled = true;
      for (const w of workers) void w.terminate();
      if (err === undefined) resolve(split);
      else reject(err instanceof Error ? err : new Error(String(err)));
    };
    /** Hands a chunk's results over (an exception ends the run with it) and counts the chunk done. */
    const settle = (handOver: () => void): boolean => {
      try {
        handOver();
      } catch (e) {
        end(e);
        return false;
      }
      if (++finished === chunks) end();
      return !settled;
    };
    let localBusy = false;
    const local = (): void => {
      localBusy = false;
      if (settled) return;
      const c = take();
      if (c < 0) return;
      const [from, to] = range(c);
      const ok = settle(() => {
        for (let i = from; i < to; i++) work.done(i, work.here(i));
        split.here += to - from;
      });
      if (ok) wake();
    };
    const wake = (): void => {
      if (settled || localBusy) return;
      localBusy = true;
      setImmediate(local);
    };
    if (chunks === 0) return end();
    // Loaded here, not at start-up: a one-file lint never starts a worker (node:worker_threads costs ~1 ms).
    const { Worker: WorkerThread } = createRequire(import.meta.url)('node:worker_threads') as typeof import('node:worker_threads');
    for (let t = 1; t < Math.min(threads, chunks); t++) {
      const w = new WorkerThread(new URL('./analyze-worker.js', import.meta.url), {
        workerData: { root, project, hashing: options.hashing, rows: options.rows === true },
        resourceLimits: WORKER_LIMITS,
      });
      workers.add(w);
      split.workers++;
      const held = new Set<number>();
      const feed = (): void => {
        while (!settled && held.size < IN_FLIGHT) {
          const c = take();
          if (c < 0) return;
          held.add(c);
          const [from, to] = range(c);
          w.postMessage({ chunk: c, items: items.slice(from, to) });
        }
      };
      w.on('message', (reply: Reply) => {
        if (settled) return;
        held.delete(reply.chunk);
        const ok = settle(() => {
          const [from] = range(reply.chunk);
          reply.out.forEach((r, k) => work.done(from + k, r));
          split.inWorkers += reply.out.length;
        });
        if (ok) feed();
      });
      const lost = (): void => {
        workers.delete(w);
        if (settled) return;
        returned.push(...held);
        held.clear();
        wake();
      };
      w.on('error', lost);
      w.on('exit', lost);
      feed();
    }
    wake();
  });
}
