import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { runCli } from './helpers.js';

const made: string[] = [];
afterAll(() => {
  for (const d of made) rmSync(d, { recursive: true, force: true });
});

/** The documents each thread analyzed, from the DOCGATE_TIMING=1 line on stderr. */
function split(stderr: string): { here: number; inWorkers: number; workers: number } {
  const m = /analyze [\d,]+ ms \(([\d,]+) documents in the main thread(?:, ([\d,]+) in (\d+) workers?)?\)/.exec(stderr);
  expect(m).not.toBeNull();
  const n = (s: string | undefined): number => Number((s ?? '0').replace(/,/g, ''));
  return { here: n(m![1]), inWorkers: n(m![2]), workers: n(m![3]) };
}

describe('a small repository (issue 27)', () => {
  it('is analyzed in the main thread, however many files it has: 600 processes of a few hundred bytes start no worker', () => {
    const root = mkdtempSync(join(tmpdir(), 'docgate-small-'));
    made.push(root);
    mkdirSync(join(root, 'processes'));
    for (let i = 0; i < 600; i++)
      writeFileSync(
        join(root, 'processes', `p${i}.md`),
        `---\nname: Process ${i}\ndescription: Process number ${i}.\n---\n# Process ${i}\n\nSteps to follow.\n`,
      );
    const r = runCli(['lint', '--root', root, '--format', 'json'], { env: { DOCGATE_TIMING: '1' } });
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout).filesChecked).toBe(600);
    expect(split(r.stderr)).toEqual({ here: 600, inWorkers: 0, workers: 0 });
  });
});
