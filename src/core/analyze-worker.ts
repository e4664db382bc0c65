import { parentPort, workerData } from 'node:worker_threads';
import { analyzeFileIdentified } from './analyze.js';
import type { WorkItem } from './parallel.js';
import { loadRuleSet } from './schemas.js';

// One worker of analyzeInWorkers: rules are loaded once, then chunks of files are analyzed on request.
const rules = loadRuleSet((workerData as { root: string }).root);
parentPort!.on('message', (msg: { chunk: number; items: WorkItem[] }) => {
  const out = msg.items.map((item) => {
    const r = analyzeFileIdentified(item.ref, rules, item.withBody);
    if (r) r.analysis.doc = null; // not needed by lint; keeps the messages small
    return r;
  });
  parentPort!.postMessage({ chunk: msg.chunk, out });
});
