/**
 * A tool thread of `docgate mcp` (see workers.ts): runs the tool calls the server's main thread posts
 * and posts their answers back. The repository thread keeps the root's live `Repository` (with its
 * watchers); a pure thread parses text it is given and reads nothing but rule files.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { Repository } from '../core/repository.js';
import { ToolRunner, errorResult } from './run-tool.js';
import type { ToolAnswer } from './run-tool.js';
import type { ToolContext } from './tool.js';
import { TOOLS } from './tools/index.js';
import type { ToolReply, ToolRequest, WorkerConfig } from './workers.js';

const { root, lane, project } = workerData as WorkerConfig;
const repo = new Repository(root, { watch: lane === 'repository', project });
const ctx: ToolContext = { root, repo, project: () => repo.project() };
const runner = new ToolRunner(new Map(TOOLS.map((t) => [t.name, t])), ctx);
const port = parentPort!;

function post(seq: number, answer: ToolAnswer): void {
  try {
    port.postMessage({ seq, ...answer } satisfies ToolReply);
  } catch (e) {
    // An answer that cannot be copied to the main thread (never expected: answers are JSON data).
    port.postMessage({ seq, result: errorResult(`the answer could not be sent: ${(e as Error).message}`), log: (e as Error).stack } satisfies ToolReply);
  }
}

port.on('message', (request: ToolRequest) => {
  void runner.call(request.name, request.args).then((answer) => post(request.seq, answer));
});
