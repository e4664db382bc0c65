import { createRequire } from 'node:module';
import { availableParallelism } from 'node:os';
import type { Worker } from 'node:worker_threads';
import type { IdentifiedAnalysis } from './analyze.js';
import type { FileRef } from './layout.js';
import type { ProjectOptions } from '../engine/project.js';

export interface WorkItem {
  ref: FileRef;
  withBody: boolean;
}

/** Below this many files the start-up of workers (~0.1 s each) costs more than it saves. */
export const PARALLEL_MIN_FILES = 400;

export function workerCount(): number {
  return Math.min(availableParallelism(), 8);
}

interface Reply {
  chunk: number;
  out: (IdentifiedAnalysis | null)[];
}

/**
 * Analyzes files on worker threads (one per core; each loads the rules once and reads its own files).
 * Work goes out in chunks on demand, so a slow chunk does not hold the others back. Parsed documents are
 * not sent back: lint needs diagnostics and facts only; `rows` (the MCP server) sends each document's
 * row instead (src/core/row.ts).
 */
export function analyzeInWorkers(root: string, project: ProjectOptions, items: readonly WorkItem[], threads = workerCount(), rows = false): Promise<(IdentifiedAnalysis | null)[]> {
  // Loaded here, not at start-up: a one-file lint never starts a worker (node:worker_threads costs ~1 ms).
  const { Worker: WorkerThread } = createRequire(import.meta.url)('node:worker_threads') as typeof import('node:worker_threads');
  const size = Math.max(25, Math.ceil(items.length / (threads * 8)));
  const chunks: WorkItem[][] = [];
  for (let i = 0; i < items.length; i += size) chunks.push(items.slice(i, i + size));
  const results: (IdentifiedAnalysis | null)[] = new Array(items.length).fill(null);
  let next = 0;
  let done = 0;
  return new Promise((resolve, reject) => {
    const workers: Worker[] = [];
    const finish = (err?: Error) => {
      for (const w of workers) void w.terminate();
      if (err) reject(err);
      else resolve(results);
    };
    const feed = (w: Worker) => {
      if (next < chunks.length) w.postMessage({ chunk: next, items: chunks[next++] });
    };
    for (let t = 0; t < Math.min(threads, chunks.length); t++) {
      const w = new WorkerThread(new URL('./analyze-worker.js', import.meta.url), { workerData: { root, project, rows } });
      workers.push(w);
      w.on('message', (reply: Reply) => {
        const base = reply.chunk * size;
        reply.out.forEach((r, i) => (results[base + i] = r));
        if (++done === chunks.length) finish();
        else feed(w);
      });
      w.on('error', (e) => finish(e));
      feed(w);
    }
    if (chunks.length === 0) finish();
  });
}
