/**
 * When a long-lived server makes its full collections (src/lint/collections.ts): the language server
 * and the MCP server's main thread both use this, so a session of thousands of runs does not keep the
 * garbage of many resident (docs/performance.md, "The language server's memory", "A long-lived server").
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { Collections, fullCollection } from '../src/lint/collections.js';

describe('full collections of a long-lived server', () => {
  let count = 0;
  const counted = (): void => {
    count++;
  };
  beforeEach(() => {
    count = 0;
    vi.useFakeTimers();
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it('collects once the server has been quiet for a second after its runs, not while runs follow each other', () => {
    const c = new Collections(counted);
    c.afterRun();
    vi.advanceTimersByTime(900);
    c.afterRun();
    vi.advanceTimersByTime(900);
    expect(count).toBe(0);
    vi.advanceTimersByTime(100);
    expect(count).toBe(1);
    vi.advanceTimersByTime(10_000);
    expect(count).toBe(1);
  });

  it('collects after every 1,000 runs of a server that is never quiet', () => {
    const c = new Collections(counted);
    for (let i = 0; i < 999; i++) c.afterRun();
    expect(count).toBe(0);
    c.afterRun();
    expect(count).toBe(1);
    for (let i = 0; i < 1000; i++) c.afterRun();
    expect(count).toBe(2);
  });

  it('collects at once when told (another project was loaded), and never after stop', () => {
    const c = new Collections(counted);
    c.now();
    expect(count).toBe(1);
    c.afterRun();
    c.stop();
    vi.advanceTimersByTime(5000);
    expect(count).toBe(1);
  });

  it("is given V8's own collection in a process started without --expose-gc", () => {
    const gc = fullCollection();
    expect(typeof gc).toBe('function');
    // A collection that runs: garbage of ~30 MB is gone after it.
    let garbage: number[][] | null = Array.from({ length: 2000 }, (_, i) => new Array<number>(2000).fill(i));
    const held = process.memoryUsage().heapUsed;
    expect(garbage.length).toBe(2000);
    garbage = null;
    gc!();
    expect(process.memoryUsage().heapUsed).toBeLessThan(held - 20 * 1024 * 1024);
  });
});
