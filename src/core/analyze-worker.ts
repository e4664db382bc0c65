import { parentPort, workerData } from 'node:worker_threads';
import { analyzeFileIdentified } from './analyze.js';
import type { WorkItem } from './parallel.js';
import { keepRow } from './row.js';
import { loadProject } from '../engine/project.js';
import type { ProjectOptions } from '../engine/project.js';

// One worker of analyzeInWorkers: the project is loaded once, then chunks of files are analyzed on request.
const data = workerData as { root: string; project: ProjectOptions; rows?: boolean };
const project = loadProject(data.root, data.project);
parentPort!.on('message', (msg: { chunk: number; items: WorkItem[] }) => {
  const out = msg.items.map((item) => {
    const r = analyzeFileIdentified(item.ref, project, item.withBody);
    if (r && data.rows) keepRow(r.analysis, project); // the MCP server keeps rows, not documents
    if (r) r.analysis.doc = null; // not needed by lint; keeps the messages small
    return r;
  });
  parentPort!.postMessage({ chunk: msg.chunk, out });
});
