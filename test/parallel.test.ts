import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { availableParallelism, tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { lintRoot as lint } from '../src/lint/root.js';
import { json } from '../src/report/json.js';
import { PARALLEL_MIN_BYTES } from '../src/lint/parallel.js';
import { REPO, runCli } from './helpers.js';

/**
 * A root with work enough for the CLI to use worker threads (its bytes past PARALLEL_MIN_BYTES: each
 * document padded with lines of body), with failures spread through it.
 */
const root = mkdtempSync(join(tmpdir(), 'docgate-parallel-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

beforeAll(() => {
  mkdirSync(join(root, 'processes'), { recursive: true });
  mkdirSync(join(root, 'docs', 'sysrs'), { recursive: true });
  const pad = 'A line of the body, as long documents have.\n'.repeat(Math.ceil(PARALLEL_MIN_BYTES / 480 / 44) + 20);
  const sysrs = readFileSync(join(REPO, 'test', 'fixtures', 'rules', 'sysrs-valid', 'docs', 'sysrs', 'fixture.md'), 'utf8');
  for (let i = 0; i < 420; i++) {
    const broken = i % 37 === 0 ? 'owner: someone\n' : '';
    const name = i % 101 === 0 ? 'Shared Name' : `Process ${i}`;
    writeFileSync(
      join(root, 'processes', `p${i}.md`),
      `---\nname: ${name}\n${broken}description: Process number ${i}.\n---\n# Process ${i}\n\nSteps.\n\n${pad}`,
    );
  }
  for (let i = 0; i < 60; i++) {
    const id = `${i.toString(16).padStart(8, '0')}-1111-4111-8111-111111111111`;
    let text = sysrs.replace(/^id: .*$/m, `id: ${id}`);
    if (i % 13 === 0) text = text.replace('## System Scope', '## Unknown Section');
    writeFileSync(join(root, 'docs', 'sysrs', `s${i}.md`), `${text}\n${pad}`);
  }
});

describe('worker threads', () => {
  it('give exactly the results of the single-threaded lint', () => {
    const expected = json(lint({ root }));
    const r = runCli(['lint', '--root', root, '--format', 'json']);
    expect(r.code).toBe(1);
    expect(r.stdout).toBe(expected);
    const report = JSON.parse(r.stdout);
    expect(report.filesChecked).toBe(480);
    expect(report.results.length).toBeGreaterThan(10);
  });

  it('share the documents with the main thread, as DOCGATE_TIMING=1 shows on stderr', () => {
    const r = runCli(['lint', '--root', root, '--format', 'json'], { env: { DOCGATE_TIMING: '1' } });
    expect(r.code).toBe(1);
    const m =
      /^docgate: timing: plan [\d,]+ ms, analyze [\d,]+ ms \(([\d,]+) documents in the main thread(?:, ([\d,]+) in (\d+) workers?)?\), rules across files and results [\d,]+ ms, report [\d,]+ ms, process [\d,]+ ms$/m.exec(
        r.stderr,
      );
    expect(m).not.toBeNull();
    const here = Number(m![1]!.replace(',', ''));
    const inWorkers = Number((m![2] ?? '0').replace(',', ''));
    expect(here + inWorkers).toBe(480);
    // At most one thread per core, this one included; on more than one core at least one worker.
    const workers = Number(m![3] ?? 0);
    expect(workers).toBeLessThanOrEqual(availableParallelism() - 1);
    expect(workers > 0).toBe(availableParallelism() > 1);
    expect(JSON.parse(r.stdout).filesChecked).toBe(480);
  });

  it('finish the run in the main thread when a worker dies with chunks in flight', () => {
    const expected = json(lint({ root }));
    const r = runCli(['lint', '--root', root, '--format', 'json'], { env: { DOCGATE_TEST_FAULT: 'worker-exit' } });
    expect(r.code).toBe(1);
    expect(r.stdout).toBe(expected);
    // Every worker started took a chunk and died (none start on a one-core machine).
    expect(r.stderr.includes('docgate: test: worker exits')).toBe(availableParallelism() > 1);
  });
});
