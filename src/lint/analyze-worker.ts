import { parentPort, workerData } from 'node:worker_threads';
import { analyzeFileIdentified } from './analyze.js';
import type { IdentifiedAnalysis } from './analyze.js';
import { realRootOf } from '../io/layout.js';
import { PinnedFolders } from '../io/safe-fs.js';
import type { WorkItem } from './parallel.js';
import { rowInsteadOfDoc } from './row.js';
import { SharedQueue, itemsIn } from './shared-queue.js';
import type { QueueShape, SharedItems } from './shared-queue.js';
import { loadProject } from '../project/project.js';
import type { ProjectOptions } from '../project/project.js';

// One worker of analyzeInParallel: the project is loaded once; then, told where the run's items and its
// queue are, it takes chunks from the queue itself, decodes their items and sends each chunk's results,
// until nothing is left.
const data = workerData as { root: string; project: ProjectOptions; hashing: boolean; rows: boolean };
const project = loadProject(data.root, data.project);
parentPort!.once('message', (msg: { thread: number; queue: QueueShape; items: SharedItems }) => {
  const queue = new SharedQueue(msg.queue);
  for (let r = queue.take(msg.thread); r !== null; r = queue.take(msg.thread)) {
    // Tests only: a worker that dies with a chunk taken (the run must still complete, in the main thread).
    if (process.env.DOCGATE_TEST_FAULT === 'worker-exit') {
      process.stderr.write('docgate: test: worker exits\n');
      process.exit(3);
    }
    // The chunk's folders are opened once for its reads (safe-fs.ts PinnedFolders).
    const items = itemsIn<WorkItem>(msg.items, r);
    const pins = new PinnedFolders(realRootOf(items[0]!.ref));
    let out: (IdentifiedAnalysis | null)[];
    try {
      out = items.map((item) => {
        // No parsed document crosses threads: a lint makes none, the MCP server keeps its row instead.
        const a = analyzeFileIdentified(item.ref, project, { withBody: item.withBody, hashing: data.hashing, pins, keepDoc: data.rows });
        if (a && data.rows) rowInsteadOfDoc(a.analysis, project);
        return a;
      });
    } finally {
      pins.close();
    }
    parentPort!.postMessage({ from: r[0], out });
  }
  parentPort!.postMessage({ idle: true });
});
