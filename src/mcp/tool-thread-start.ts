import { createRequire } from 'node:module';
import type { Worker } from 'node:worker_threads';
import type { ProjectOptions } from '../project/project.js';

/**
 * Which thread runs a tool: the one repository thread (tools that read the root's documents, through one
 * live Repository), or one of a few pure threads (tools that only turn their arguments into an answer).
 */
export type Lane = 'repository' | 'pure';

export interface WorkerConfig {
  root: string;
  lane: Lane;
  /** `--config` and `--suppressions-location` (with the folder they are relative to). */
  project: ProjectOptions;
  /** `--allow-writes`: the write tools run here too (the repository thread only). */
  writes: boolean;
}

const require = createRequire(import.meta.url);

/** A tool thread started, and whether it has already ended (an error or an exit before the server listened). */
export interface StartedThread {
  worker: Worker;
  ended: boolean;
}

/**
 * Starts a tool thread (tool-worker.ts). `docgate mcp` starts its repository thread with this before it
 * loads the server's own code (~70 ms), so the thread boots meanwhile and a first call waits less; the
 * server adopts it unless it has ended. `node:worker_threads` is loaded here, not on import: a lint never
 * needs it.
 */
export function startToolThread(config: WorkerConfig): StartedThread {
  const { Worker: WorkerThread } = require('node:worker_threads') as typeof import('node:worker_threads');
  // The bundled CLI and server find the bundled worker beside them (scripts/bundle.mjs), dist/mcp finds dist/mcp/tool-worker.js.
  const worker = new WorkerThread(new URL('./tool-worker.js', import.meta.url), { workerData: config, stdout: true });
  const started: StartedThread = { worker, ended: false };
  // Until the server listens (and after): an error is never an uncaught exception, an end is remembered.
  const end = (): void => {
    started.ended = true;
  };
  worker.on('error', end);
  worker.on('exit', end);
  return started;
}
