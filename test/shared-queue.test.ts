/**
 * The queue of a parallel run (src/lint/shared-queue.ts) and its lanes (src/lint/parallel.ts `lanesOf`):
 * every item is taken exactly once, a thread takes its own lanes first, then the back of the fullest
 * other lane, and chunks shrink as the queue empties.
 */
import { Worker } from 'node:worker_threads';
import { describe, expect, it } from 'vitest';
import type { FileRef } from '../src/io/layout.js';
import { lanesOf } from '../src/lint/parallel.js';
import type { WorkItem } from '../src/lint/parallel.js';
import { CHUNK, SharedQueue, chunkSize } from '../src/lint/shared-queue.js';
import type { Range } from '../src/lint/shared-queue.js';

function items(kinds: [string, number][]): WorkItem[] {
  const out: WorkItem[] = [];
  for (const [kind, n] of kinds)
    for (let i = 0; i < n; i++) out.push({ ref: { path: `${kind}/${i}.md`, abs: `/r/${kind}/${i}.md`, kind, lang: null } as FileRef, withBody: true });
  return out;
}

describe('lanesOf', () => {
  it('makes a lane of each kind and gives the largest to the least loaded thread', () => {
    const list = items([
      ['process', 300],
      ['sysrs', 200],
      ['template', 50],
    ]);
    // Sizes by kind: a SysRS weighs ten processes.
    const size = (ref: FileRef): number => (ref.kind === 'sysrs' ? 30_000 : 3_000);
    const lanes = lanesOf(list, 2, size);
    expect(lanes.map((l) => [l.front, l.back])).toEqual([
      [0, 300],
      [300, 500],
      [500, 550],
    ]);
    // The SysRS lane is the heaviest (200 × 31,200): thread 0; processes then templates: thread 1.
    expect(lanes.map((l) => l.owner)).toEqual([1, 0, 1]);
  });
});

describe('SharedQueue', () => {
  it('takes own lanes from the front, then the fullest other lane from the back', () => {
    const q = SharedQueue.over(
      [
        { front: 0, back: 100, owner: 0 },
        { front: 100, back: 400, owner: 1 },
      ],
      2,
    );
    const first = q.take(0)!;
    expect(first[0]).toBe(0);
    expect(first[1]).toBe(chunkSize(400, 2));
    const taken: Range[] = [first];
    // Thread 0 empties its lane, then takes from the back of thread 1's.
    let r = q.take(0);
    while (r !== null && r[0] < 100) {
      taken.push(r);
      r = q.take(0);
    }
    expect(taken.length).toBeGreaterThan(1);
    expect(taken.at(-1)![1]).toBe(100);
    expect(r![1]).toBe(400);
    expect(q.take(0)![1]).toBe(r![0]);
    // Thread 1 still starts at its lane's front.
    expect(q.take(1)![0]).toBe(100);
  });

  it('hands out every item exactly once, chunks between 8 and CHUNK, to threads taking at once', async () => {
    const total = 5_000;
    const q = SharedQueue.over(
      [
        { front: 0, back: 2_000, owner: 1 },
        { front: 2_000, back: 5_000, owner: 2 },
      ],
      3,
    );
    // Two workers (over the built module, as the CLI's workers) and this thread take until nothing is left.
    const takers = [1, 2].map(
      (t) =>
        new Promise<Range[]>((resolve, reject) => {
          const w = new Worker(new URL('./fixtures/shared-queue-taker.mjs', import.meta.url), { workerData: { shape: q.shapeOf, thread: t } });
          w.once('message', resolve);
          w.once('error', reject);
        }),
    );
    const mine: Range[] = [];
    for (let r = q.take(0); r !== null; r = q.take(0)) mine.push(r);
    const all = [...mine, ...(await Promise.all(takers)).flat()];
    const seen = new Uint8Array(total);
    for (const [from, to] of all) {
      expect(to - from).toBeGreaterThan(0);
      expect(to - from).toBeLessThanOrEqual(CHUNK);
      for (let i = from; i < to; i++) seen[i]! += 1;
    }
    expect([...seen].every((n) => n === 1)).toBe(true);
    expect(q.take(1)).toBeNull();
  });

  it('sizes chunks by what is left', () => {
    expect(chunkSize(10_000, 2)).toBe(CHUNK);
    expect(chunkSize(200, 2)).toBe(25);
    expect(chunkSize(10, 2)).toBe(8);
  });
});
