/**
 * A tool thread of `docgate mcp` (see workers.ts): runs the tool calls the server's main thread posts
 * and posts their answers back. The repository thread keeps the root's live `Repository` (with its
 * watchers); a pure thread parses text it is given and reads nothing but rule files.
 */
import { writeSync } from 'node:fs';
import { parentPort, workerData } from 'node:worker_threads';
import type { Split } from '../lint/parallel.js';
import { Repository } from '../lint/repository.js';
import { ToolRunner, errorResult } from './run-tool.js';
import type { ToolAnswer } from './run-tool.js';
import type { ToolContext } from './tool.js';
import { toolsServed } from './tools/index.js';
import type { PromptAnswer, ThreadNotice, ToolReply, ToolRequest, WorkerConfig } from './workers.js';
import type { Project } from '../project/project.js';
import { repairPrompt } from './repair-prompt.js';
import { ToolError } from './tool.js';
import { ConfigError } from '../model/errors.js';

const { root, lane, project, writes } = workerData as WorkerConfig;
// Tests only: a repository thread that ends as it starts, maybe before the server listens to it (started ahead by `docgate mcp`).
if (process.env.DOCGATE_TEST_FAULT === 'repository-thread-exit' && lane === 'repository') process.exit(3);
/** `DOCGATE_MCP_DEBUG=1`: a line per kind loaded on worker threads, straight to fd 2 as the server's own debug lines. */
function loaded(kind: string, s: Split): void {
  try {
    writeSync(2, `docgate mcp: loaded ${kind}: ${s.here} documents in the repository thread, ${s.inWorkers} in ${s.workers} workers\n`);
  } catch {
    // a full non-blocking stderr: the debug line is dropped
  }
}
/** The key of the first project this thread served (null until one loads), and whether it has loaded another. */
let served: string | null = null;
let moved = false;
/**
 * A tool thread serves one project: once another is loaded (the configuration or a rule file
 * changed), it tells the server, which sends later calls to a fresh thread and ends this one when it has
 * answered the calls it took (workers.ts). Every rule-set version leaves V8 code behind in the isolate
 * that compiled its validators, which only the isolate's end gives back (docs/performance.md, "A
 * long-lived server").
 */
function onProject(p: Project): void {
  served ??= p.key;
  if (p.key !== served && !moved) {
    moved = true;
    parentPort!.postMessage({ moved: true } satisfies ThreadNotice);
  }
}
const repo = new Repository(root, {
  watch: lane === 'repository',
  project,
  ...(process.env.DOCGATE_MCP_DEBUG === '1' ? { onLoaded: loaded } : {}),
  onProject,
});
const ctx: ToolContext = { root, repo, project: () => repo.project() };
/** `--allow-writes` reaches the repository thread only: the write tools and the repair prompt's last line. */
const writing = writes && lane === 'repository';
const runner = new ToolRunner(new Map(toolsServed(writing).map((t) => [t.name, t])), ctx);
const port = parentPort!;

function post(seq: number, answer: ToolAnswer): void {
  try {
    port.postMessage({ seq, ...answer } satisfies ToolReply);
  } catch (e) {
    // An answer that cannot be copied to the main thread (never expected: answers are JSON data).
    port.postMessage({ seq, result: errorResult(`the answer could not be sent: ${(e as Error).message}`), log: (e as Error).stack } satisfies ToolReply);
  }
}

/** The prompt `repair`, with the repository's memory (see ToolWorkers.repairPrompt). */
async function prompt(path: string): Promise<PromptAnswer> {
  try {
    await repo.settle();
    return { text: await repairPrompt(repo, path, writing) };
  } catch (e) {
    const invalid = e instanceof ToolError || e instanceof ConfigError;
    return { error: invalid ? (e as Error).message : `cannot make the prompt repair for ${path}: ${(e as Error).message}`, invalid };
  }
}

port.on('message', (request: ToolRequest) => {
  if (request.prompt === 'repair') {
    const path = (request.args as { path: string }).path;
    void prompt(path).then((answer) => port.postMessage({ seq: request.seq, prompt: answer } satisfies ToolReply));
    return;
  }
  void runner.call(request.name, request.args).then((answer) => post(request.seq, answer));
});
