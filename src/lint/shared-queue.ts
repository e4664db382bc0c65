/**
 * The queue of a parallel run, shared by its threads (docs/performance.md, "How a large run works"):
 * each thread takes its next chunk itself, under a lock word, from memory every thread sees. No thread
 * waits for another to hand it work: a worker fed by messages from the main thread waited whenever the
 * main thread was busy with a long chunk of its own.
 *
 * The items lie in lanes (a kind's documents, in the order the run planned them), each owned by one
 * thread: the owner takes chunks from a lane's front, a thread with no lane of its own left takes them
 * from the back of the fullest other lane. Chunks shrink as the queue empties (guided scheduling), so
 * that no thread is left with a long chunk while the others have nothing to do.
 */

/** Items [from, to) of a run. */
export type Range = readonly [number, number];

/** A lane: items [front, back) not yet taken, and the thread that owns it. */
export interface Lane {
  front: number;
  back: number;
  owner: number;
}

/** Documents per chunk, at most: a thread holds little at a time, and this one never waits long for its own chunk to end. */
export const CHUNK = 64;
/** Documents per chunk, at least: below it a message's cost (~0.1 ms) shows. */
const MIN_CHUNK = 8;

/** The size of the next chunk when `left` documents are not yet taken by `threads` threads: a share of what is left, between MIN_CHUNK and CHUNK. */
export function chunkSize(left: number, threads: number): number {
  return Math.max(MIN_CHUNK, Math.min(CHUNK, Math.ceil(left / (threads * 4))));
}

/** What a thread needs to take from the queue: the shared cells, the lanes' owners, the number of threads. */
export interface QueueShape {
  cells: SharedArrayBuffer;
  owners: readonly number[];
  threads: number;
}

// Cells: the lock word, the number of items not yet taken, then each lane's front and back.
const LOCK = 0;
const LEFT = 1;
const FIRST_LANE = 2;

export class SharedQueue {
  private readonly cells: Int32Array;

  constructor(private readonly shape: QueueShape) {
    this.cells = new Int32Array(shape.cells);
  }

  /** A queue over `lanes` for `threads` threads, in fresh shared memory. */
  static over(lanes: readonly Lane[], threads: number): SharedQueue {
    const cells = new Int32Array(new SharedArrayBuffer((FIRST_LANE + 2 * lanes.length) * Int32Array.BYTES_PER_ELEMENT));
    let left = 0;
    lanes.forEach((lane, k) => {
      cells[FIRST_LANE + 2 * k] = lane.front;
      cells[FIRST_LANE + 2 * k + 1] = lane.back;
      left += lane.back - lane.front;
    });
    cells[LEFT] = left;
    return new SharedQueue({ cells: cells.buffer as SharedArrayBuffer, owners: lanes.map((l) => l.owner), threads });
  }

  /** What another thread needs to open the same queue. */
  get shapeOf(): QueueShape {
    return this.shape;
  }

  /** The next chunk for thread `t`: from the front of its own lanes, else from the back of the fullest other lane; null when nothing is left. */
  take(t: number): Range | null {
    const c = this.cells;
    // The critical section is a few reads and writes: a spin is shorter than any wait.
    while (Atomics.compareExchange(c, LOCK, 0, 1) !== 0);
    try {
      const left = c[LEFT]!;
      if (left === 0) return null;
      const size = chunkSize(left, this.shape.threads);
      let other = -1;
      let otherLeft = 0;
      for (let k = 0; k < this.shape.owners.length; k++) {
        const front = c[FIRST_LANE + 2 * k]!;
        const back = c[FIRST_LANE + 2 * k + 1]!;
        if (front >= back) continue;
        if (this.shape.owners[k] === t) {
          const to = Math.min(back, front + size);
          c[FIRST_LANE + 2 * k] = to;
          c[LEFT] = left - (to - front);
          return [front, to];
        }
        if (back - front > otherLeft) {
          other = k;
          otherLeft = back - front;
        }
      }
      if (other < 0) return null;
      const back = c[FIRST_LANE + 2 * other + 1]!;
      const from = Math.max(c[FIRST_LANE + 2 * other]!, back - size);
      c[FIRST_LANE + 2 * other + 1] = from;
      c[LEFT] = left - (back - from);
      return [from, back];
    } finally {
      Atomics.store(c, LOCK, 0);
    }
  }
}

/**
 * A run's items in memory every thread sees: each as JSON, one after another in UTF-8, with where each
 * starts. A worker decodes only the chunks it takes, so it holds the chunk it is on, not a copy of every
 * item of the run (docs/performance.md, "How a large run works").
 */
export interface SharedItems {
  bytes: SharedArrayBuffer;
  /** Byte offsets: item i is [starts[i], starts[i + 1]). */
  starts: SharedArrayBuffer;
}

export function shareItems<T>(items: readonly T[]): SharedItems {
  const texts = items.map((item) => JSON.stringify(item));
  const starts = new Int32Array(new SharedArrayBuffer((texts.length + 1) * Int32Array.BYTES_PER_ELEMENT));
  let at = 0;
  texts.forEach((t, i) => {
    starts[i] = at;
    at += Buffer.byteLength(t, 'utf8');
  });
  starts[texts.length] = at;
  const bytes = new SharedArrayBuffer(at);
  const view = Buffer.from(bytes);
  texts.forEach((t, i) => view.write(t, starts[i]!, 'utf8'));
  return { bytes, starts: starts.buffer as SharedArrayBuffer };
}

/** Items [from, to) of shared items, decoded. */
export function itemsIn<T>(shared: SharedItems, [from, to]: Range): T[] {
  const starts = new Int32Array(shared.starts);
  const view = Buffer.from(shared.bytes);
  const out: T[] = [];
  for (let i = from; i < to; i++) out.push(JSON.parse(view.toString('utf8', starts[i]!, starts[i + 1]!)) as T);
  return out;
}
