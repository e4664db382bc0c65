/**
 * Full collections of a long-lived server (the language server, the MCP server's main thread). V8 sizes
 * its old generation by what its last full collection found live and lets garbage promoted between
 * collections stay resident up to that size; a server that is never idle gives it no occasion to give
 * memory back (docs/performance.md, "The language server's memory" and "A long-lived server").
 */
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';

/** A full collection once the server has been quiet this long after a run. */
const IDLE_COLLECTION_MS = 1000;
/** And after every so many runs, for a server that is never quiet for that long. */
const RUNS_PER_COLLECTION = 1000;

/**
 * V8's full collection for this process: node's `gc` when it was started with `--expose-gc`, else the
 * flag is set and `gc` taken from a new context (editors and MCP clients start docgate without node
 * flags). Contexts made after this, worker threads' included, have `gc` too.
 */
export function fullCollection(): (() => void) | undefined {
  const exposed = (globalThis as { gc?: unknown }).gc;
  if (typeof exposed === 'function') return exposed as () => void;
  setFlagsFromString('--expose-gc');
  // The flag gives `gc` to contexts made after it: one is made to take it from.
  const gc: unknown = runInNewContext('gc');
  return typeof gc === 'function' ? (gc as () => void) : undefined;
}

/** A full collection where this thread was given `gc` (see fullCollection), else nothing. */
export function collectIfExposed(): void {
  (globalThis as { gc?: () => void }).gc?.();
}

/** When a server collects: once quiet after a run, after every RUNS_PER_COLLECTION runs, and when told to. */
export class Collections {
  private runs = 0;
  private idle: NodeJS.Timeout | undefined;

  /** `collect`: V8's full collection (fullCollection), or what a test counts. */
  constructor(private readonly collect: (() => void) | undefined = fullCollection()) {}

  /** A run (an editor's lint, a tool call) has ended. */
  afterRun(): void {
    const collect = this.collect;
    if (collect === undefined) return;
    if (++this.runs % RUNS_PER_COLLECTION === 0) collect();
    clearTimeout(this.idle);
    this.idle = setTimeout(collect, IDLE_COLLECTION_MS);
    this.idle.unref();
  }

  /** At once: what the process held for another project is garbage now (a rule file or the configuration changed). */
  now(): void {
    this.collect?.();
  }

  /** No collection after this (the server is shutting down). */
  stop(): void {
    clearTimeout(this.idle);
  }
}
