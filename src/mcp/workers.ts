import { writeSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import type { Worker } from 'node:worker_threads';
import { errorResult } from './run-tool.js';
import { startToolThread } from './tool-thread-start.js';
import type { Lane, StartedThread, WorkerConfig } from './tool-thread-start.js';

export type { Lane, WorkerConfig };
import type { ToolAnswer } from './run-tool.js';
import type { ProjectOptions } from '../project/project.js';

export interface ToolRequest {
  seq: number;
  name: string;
  args: unknown;
  /** Not a tool call: the prompt `repair` for the document at `args.path` (made where the repository lives). */
  prompt?: 'repair';
}

/** A thread's answer: a tool call's (`result`, `log`), or a prompt's. */
export interface ToolReply extends Partial<ToolAnswer> {
  seq: number;
  prompt?: PromptAnswer;
}

/**
 * Not an answer: a tool thread has loaded another project than the one it serves (the
 * configuration or a rule file changed; tool-worker.ts). It still answers the calls it took.
 */
export interface ThreadNotice {
  moved: true;
}

/** What the repository thread answers for a prompt: its text, or why not (`invalid`: the arguments are at fault). */
export type PromptAnswer = { text: string } | { error: string; invalid: boolean };

/**
 * Pure threads at most: parse_sysrs calls run side by side up to this many. A core is left to the main
 * and repository threads, and no more than two: memory grows with every 2 MiB document parsed at once.
 */
export function pureThreadCount(): number {
  return Math.max(1, Math.min(availableParallelism() - 1, 2));
}

interface Pending {
  name: string;
  resolve(answer: Omit<ToolReply, 'seq'>): void;
}

/** `DOCGATE_MCP_DEBUG=1`: a line when a repository thread is retired, straight to fd 2 as the server's other debug lines. */
function retiredLine(waiting: number): void {
  if (process.env.DOCGATE_MCP_DEBUG !== '1') return;
  try {
    writeSync(2, `docgate mcp: the project changed: a fresh repository thread takes the next calls (the old one ends after ${waiting} it took)\n`);
  } catch {
    // a full non-blocking stderr: the debug line is dropped
  }
}

/** One worker thread and the calls it has not answered yet. */
class ToolThread {
  readonly pending = new Map<number, Pending>();
  readonly worker: Worker;
  /** Retired: it takes no more calls, and ends once it has answered those it took. */
  private retired = false;

  /**
   * `started`: a thread started ahead for this config that has not ended (else one is started now);
   * `moved`: told when the thread has loaded another project (ThreadNotice).
   */
  constructor(config: WorkerConfig, gone: (t: ToolThread) => void, started?: StartedThread, moved?: (t: ToolThread) => void) {
    this.worker = (started ?? startToolThread(config)).worker;
    // Stdout belongs to the protocol: whatever a worker prints goes to stderr.
    this.worker.stdout.on('data', (chunk: Buffer) => process.stderr.write(chunk));
    this.worker.on('message', (reply: ToolReply | ThreadNotice) => {
      if ('moved' in reply) {
        moved?.(this);
        return;
      }
      const p = this.pending.get(reply.seq);
      if (!p) return;
      this.pending.delete(reply.seq);
      p.resolve(reply);
      this.endIfDone();
    });
    // A thread that dies (out of memory, say) fails its own calls only; the next call starts a new one.
    const fail = (why: string) => {
      gone(this);
      for (const p of this.pending.values()) p.resolve({ result: errorResult(`${p.name} could not run: ${why}`), log: `${p.name} failed: ${why}` });
      this.pending.clear();
    };
    this.worker.on('error', (e) => fail(`its worker thread failed: ${e.message}`));
    this.worker.on('exit', (code) => fail(`its worker thread stopped (exit code ${code})`));
  }

  /** Takes no more calls; the thread ends (its isolate, with the code it compiled) after its last answer. */
  retire(): void {
    this.retired = true;
    this.endIfDone();
  }

  private endIfDone(): void {
    if (this.retired && this.pending.size === 0) void this.worker.terminate();
  }

  post(seq: number, name: string, args: unknown, prompt?: 'repair'): Promise<Omit<ToolReply, 'seq'>> {
    return new Promise((resolve) => {
      this.pending.set(seq, { name, resolve });
      this.worker.postMessage({ seq, name, args, ...(prompt ? { prompt } : {}) } satisfies ToolRequest);
    });
  }
}

/**
 * The tool threads of `docgate mcp`. The main thread only speaks the protocol (reads lines, answers
 * ping and tools/list, dispatches calls), so no tool call, however long, delays another request: a
 * 2 MiB parse_sysrs takes seconds, and a ping next to five of them used to wait for all five.
 */
export class ToolWorkers {
  private repository: ToolThread | null = null;
  /** Threads of earlier projects, answering the calls they took before the project changed. */
  private readonly retired = new Set<ToolThread>();
  private readonly pure: ToolThread[] = [];
  private seq = 0;
  private closed = false;
  /** Told when the repository thread has loaded another project than the one it served (a rule file or the configuration changed). */
  onProjectChange?: () => void;

  /** `started`: the repository thread, started ahead by `docgate mcp` (see startToolThread). */
  constructor(
    private readonly root: string,
    private readonly project: ProjectOptions = {},
    private started?: StartedThread,
    private readonly maxPure = pureThreadCount(),
    /** `--allow-writes`: the repository thread runs the write tools too. */
    private readonly writes = false,
  ) {}

  /** Starts the repository thread ahead of the first call (loading it takes a few tens of milliseconds). */
  start(): void {
    this.threadFor('repository');
  }

  /** Runs a tool call on its lane's thread; never rejects. */
  async run(lane: Lane, name: string, args: unknown): Promise<ToolAnswer> {
    if (this.closed) return { result: errorResult(`${name} could not run: the server is closing`) };
    const { result, log } = await this.threadFor(lane).post(++this.seq, name, args);
    const answer = result ?? errorResult(`${name} could not run: its thread gave no result`);
    return log === undefined ? { result: answer } : { result: answer, log };
  }

  /** Makes the prompt `repair` on the repository thread (its lint uses the repository's memory); never rejects. */
  async repairPrompt(path: string): Promise<PromptAnswer> {
    if (this.closed) return { error: 'the server is closing', invalid: false };
    const answer = await this.threadFor('repository').post(++this.seq, 'repair', { path }, 'repair');
    return answer.prompt ?? { error: answer.log ?? 'its thread did not answer', invalid: false };
  }

  private threadFor(lane: Lane): ToolThread {
    if (lane === 'repository') {
      if (this.repository === null) {
        // The thread started ahead is taken once, unless it has already ended (then a new one starts).
        const ahead = this.started?.ended === false ? this.started : undefined;
        this.started = undefined;
        this.repository = new ToolThread(
          { root: this.root, lane, project: this.project, writes: this.writes },
          (t) => {
            if (this.repository === t) this.repository = null;
          },
          ahead,
          (t) => this.retire(t),
        );
      }
      return this.repository;
    }
    // The least busy pure thread; another one while every thread is busy and there are fewer than the most.
    let best: ToolThread | null = null;
    for (const t of this.pure) if (best === null || t.pending.size < best.pending.size) best = t;
    if (best === null || (best.pending.size > 0 && this.pure.length < this.maxPure)) {
      const drop = (t: ToolThread): boolean => {
        const i = this.pure.indexOf(t);
        if (i !== -1) this.pure.splice(i, 1);
        return i !== -1;
      };
      // A pure thread reads rule files too (parse_sysrs): one that loaded another project ends after its calls.
      best = new ToolThread({ root: this.root, lane, project: this.project, writes: false }, drop, undefined, (t) => {
        if (drop(t)) this.endAfterCalls(t);
      });
      this.pure.push(best);
    }
    return best;
  }

  /**
   * A repository thread that has loaded another project takes no more calls: later ones go to a fresh
   * thread, started now so that it boots while the old one finishes (docs/performance.md, "A long-lived
   * server"). Each call is answered once, by the thread it was sent to.
   */
  private retire(t: ToolThread): void {
    if (this.repository !== t) return;
    this.repository = null;
    retiredLine(t.pending.size);
    this.endAfterCalls(t);
    if (!this.closed) this.threadFor('repository');
    // After the fresh thread is started, so that it boots meanwhile.
    this.onProjectChange?.();
  }

  private endAfterCalls(t: ToolThread): void {
    this.retired.add(t);
    t.worker.once('exit', () => this.retired.delete(t));
    t.retire();
  }

  /** Stops every thread (the server is closing; every call has been answered). */
  async close(): Promise<void> {
    this.closed = true;
    const threads = [...(this.repository ? [this.repository] : []), ...this.retired, ...this.pure];
    await Promise.all(threads.map((t) => t.worker.terminate()));
  }
}
