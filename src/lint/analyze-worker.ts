import { parentPort, workerData } from 'node:worker_threads';
import { analyzeFileIdentified } from './analyze.js';
import type { WorkItem } from './parallel.js';
import { rowInsteadOfDoc } from './row.js';
import { loadProject } from '../project/project.js';
import type { ProjectOptions } from '../project/project.js';

// One worker of analyzeInParallel: the project is loaded once, then chunks of files are analyzed on request.
const data = workerData as { root: string; project: ProjectOptions; hashing: boolean; rows: boolean };
const project = loadProject(data.root, data.project);
parentPort!.on('message', (msg: { chunk: number; items: WorkItem[] }) => {
  // Tests only: a worker that dies with chunks in flight (the run must still complete, in the main thread).
  if (process.env.DOCGATE_TEST_FAULT === 'worker-exit') {
    process.stderr.write('docgate: test: worker exits\n');
    process.exit(3);
  }
  const out = msg.items.map((item) => {
    const r = analyzeFileIdentified(item.ref, project, item.withBody, data.hashing);
    if (r && data.rows) rowInsteadOfDoc(r.analysis, project); // the MCP server keeps rows, not documents
    if (r) r.analysis.doc = null; // not needed by lint; keeps the messages small
    return r;
  });
  parentPort!.postMessage({ chunk: msg.chunk, out });
});
