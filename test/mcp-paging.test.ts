/**
 * SPEC §13 / issue 17: list_processes, list_templates and list_frameworks page (max_results, offset) and
 * answer at most 1,000 rows without them, with total and truncated. A generated repository of 1,205
 * documents of each kind (five of them failing), through the real MCP client.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startMcp, structuredOf, textOf } from './fixtures/mcp/harness.js';
import type { McpSession } from './fixtures/mcp/harness.js';
import { writeFiles } from './helpers.js';
import type { ParseFailureResult as Failure } from '../src/core/types.js';

const N = 1205;
const BROKEN = 5;
const pad = (i: number) => String(i).padStart(4, '0');

/** 1,200 valid documents of each kind and 5 broken ones (named to sort last by path: z…). */
function repository(): Record<string, string> {
  const files: Record<string, string> = {};
  for (let i = 0; i < N - BROKEN; i++) {
    files[`processes/p${pad(i)}.md`] = `---\nname: Process ${pad(i)}\ndescription: Step ${i}\n---\n\n# Process ${pad(i)}\n\nDo it.\n`;
    files[`templates/power/t${pad(i)}.txt`] =
      `framework: POWER\npurpose: Generate T${pad(i)}.md for the test.\noutput: Markdown with the required header and footer.\nwork: Write it.\nexamples:\n- One\nrequirements: Must be short.\nsave_as: T${pad(i)}.md\nstore_as: t${pad(i)}_summary\n`;
    files[`frameworks/F${pad(i)}.md`] = `# F${pad(i)}\n\nNotes.\n`;
  }
  for (let i = 0; i < BROKEN; i++) {
    files[`processes/z${i}.md`] = `---\nname: Broken ${i}\nowner: nobody\n---\n\n# Broken\n`;
    files[`templates/power/z${i}.txt`] = `framework: POWER\npurpose: Fails without a final period\noutput: x.\nwork: x.\nexamples:\n- x\nrequirements: x.\nsave_as: Z${i}.md\nstore_as: z${i}_summary\n`;
    files[`frameworks/z${i}.md`] = `Notes without a heading ${i}\n`;
  }
  return files;
}

interface Processes {
  processes: { name: string; slug: string; description: string }[];
  count: number;
  error_count: number;
  failures: Failure[];
  total?: number;
  offset?: number;
  max_results?: number;
  truncated?: boolean;
}
interface Templates {
  templates: { name: string }[];
  failures: Failure[];
  total?: number;
  offset?: number;
  max_results?: number;
  truncated?: boolean;
  error_count?: number;
}
interface Frameworks {
  frameworks: { name: string; size: number }[];
  failures: Failure[];
  total?: number;
  offset?: number;
  max_results?: number;
  truncated?: boolean;
  error_count?: number;
}

let dir: string;
let s: McpSession;
beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'docgate-mcp-paging-'));
  writeFiles(dir, repository());
  s = await startMcp(dir);
}, 60_000);
afterAll(async () => {
  await s?.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('list_processes pages (SPEC §13)', () => {
  it('answers the first 1,000 of 1,205 rows by default, with total and truncated; count and error_count count every document', async () => {
    const r = await s.call('list_processes');
    const sc = structuredOf<Processes>(r);
    expect(sc.processes).toHaveLength(1000);
    expect(sc.processes[0]).toEqual({ name: 'Process 0000', slug: 'p0000', description: 'Step 0' });
    expect(sc.failures).toEqual([]);
    expect(sc).toMatchObject({ count: 1200, error_count: 5, total: 1205, offset: 0, max_results: 1000, truncated: true });
    expect(JSON.parse(textOf(r))).toEqual(sc);
  });

  it('offset 1,000 answers the last 205 rows (the processes, then the failures) and is not truncated', async () => {
    const sc = structuredOf<Processes>(await s.call('list_processes', { offset: 1000 }));
    expect(sc.processes.map((p) => p.slug)).toEqual(Array.from({ length: 200 }, (_, i) => `p${pad(1000 + i)}`));
    expect(sc.failures.map((f) => f.id)).toEqual(['z0', 'z1', 'z2', 'z3', 'z4']);
    expect(sc.failures[0]!.error).toContain('owner');
    expect(sc).toMatchObject({ count: 1200, error_count: 5, total: 1205, offset: 1000, max_results: 1000, truncated: false });
  });

  it('clamps max_results to 1..1,000 and a negative offset to 0', async () => {
    const big = structuredOf<Processes>(await s.call('list_processes', { max_results: 5000 }));
    expect(big).toMatchObject({ max_results: 1000, offset: 0, truncated: true });
    expect(big.processes).toHaveLength(1000);
    const none = structuredOf<Processes>(await s.call('list_processes', { max_results: 0, offset: -7 }));
    expect(none).toMatchObject({ max_results: 1, offset: 0, total: 1205, truncated: true });
    expect(none.processes.map((p) => p.slug)).toEqual(['p0000']);
    const past = structuredOf<Processes>(await s.call('list_processes', { offset: 5000 }));
    expect(past).toMatchObject({ processes: [], failures: [], total: 1205, offset: 5000, truncated: false });
  });

  it('a window across the boundary holds the last processes and the first failures', async () => {
    const sc = structuredOf<Processes>(await s.call('list_processes', { offset: 1198, max_results: 4 }));
    expect(sc.processes.map((p) => p.slug)).toEqual(['p1198', 'p1199']);
    expect(sc.failures.map((f) => f.id)).toEqual(['z0', 'z1']);
    expect(sc.truncated).toBe(true);
  });

  it('refuses arguments that are not integers, and unknown ones (additionalProperties: false)', async () => {
    expect((await s.call('list_processes', { offset: 'x' })).isError).toBe(true);
    expect((await s.call('list_processes', { page: 2 })).isError).toBe(true);
    const schema = s.tools.find((t) => t.name === 'list_processes')!.inputSchema as { additionalProperties?: boolean; properties: Record<string, unknown> };
    expect(schema.additionalProperties).toBe(false);
    expect(Object.keys(schema.properties)).toEqual(['max_results', 'offset']);
  });
});

describe('list_templates pages (SPEC §13)', () => {
  it('answers the first 1,000 of 1,205 rows by default; the text numbers them, counts every template and failure, and says how to go on', async () => {
    const r = await s.call('list_templates');
    const sc = structuredOf<Templates>(r);
    expect(sc.templates).toHaveLength(1000);
    expect(sc.failures).toEqual([]);
    expect(sc).toMatchObject({ total: 1205, offset: 0, max_results: 1000, truncated: true, error_count: 5 });
    const text = textOf(r);
    expect(text.startsWith('Available POWER Framework Templates:\n\n1. t0000\n2. t0001\n')).toBe(true);
    expect(text).toContain('\n1000. t0999\n\nTotal: 1200 templates\n\nFailed to parse: 5\n\nShowing rows 1–1,000 of 1,205 (templates, then failures); pass offset 1000 for the next rows.');
    expect(text.endsWith('pass offset 1000 for the next rows.')).toBe(true);
    expect(text).not.toContain('1001.');
  });

  it('offset 1,000 answers 205 rows, numbered on from 1,001, with the failures and their first error lines', async () => {
    const r = await s.call('list_templates', { offset: 1000 });
    const sc = structuredOf<Templates>(r);
    expect(sc.templates).toHaveLength(200);
    expect(sc.failures.map((f) => f.id)).toEqual(['z0', 'z1', 'z2', 'z3', 'z4']);
    expect(sc).toMatchObject({ total: 1205, offset: 1000, max_results: 1000, truncated: false, error_count: 5 });
    const text = textOf(r);
    expect(text.startsWith('Available POWER Framework Templates:\n\n1001. t1000\n')).toBe(true);
    expect(text).toContain('\n1200. t1199\n\nTotal: 1200 templates\n\nFailed to parse: 5\nz0: ');
    expect(text.endsWith('\n\nShowing rows 1,001–1,205 of 1,205 (templates, then failures).')).toBe(true);
  });

  it('clamps max_results and offset like list_sysrs, and says when the offset is past the end', async () => {
    const one = structuredOf<Templates>(await s.call('list_templates', { max_results: -3, offset: -1 }));
    expect(one).toMatchObject({ templates: [{ name: 't0000' }], failures: [], max_results: 1, offset: 0, truncated: true });
    const big = structuredOf<Templates>(await s.call('list_templates', { max_results: 1e6 }));
    expect(big).toMatchObject({ max_results: 1000, truncated: true });
    const r = await s.call('list_templates', { offset: 2000 });
    expect(structuredOf<Templates>(r)).toMatchObject({ templates: [], failures: [], total: 1205, truncated: false });
    expect(textOf(r)).toBe('Available POWER Framework Templates:\n\n\nTotal: 1200 templates\n\nFailed to parse: 5\n\nShowing none of 1,205 rows (templates, then failures): offset 2,000 is past the end.');
  });
});

describe('list_frameworks pages (SPEC §13)', () => {
  it('answers the first 1,000 of 1,205 rows by default, with total and truncated', async () => {
    const r = await s.call('list_frameworks');
    const sc = structuredOf<Frameworks>(r);
    expect(sc.frameworks).toHaveLength(1000);
    expect(sc.frameworks[0]).toEqual({ name: 'F0000.md', size: 16 });
    expect(sc).toMatchObject({ failures: [], total: 1205, offset: 0, max_results: 1000, truncated: true, error_count: 5 });
    expect(textOf(r)).toContain('\n1000. F0999.md (16 bytes)\n\nTotal: 1200 framework docs\n\nFailed to parse: 5\n\nShowing rows 1–1,000 of 1,205 (framework docs, then failures); pass offset 1000 for the next rows.');
  });

  it('offset 1,000 answers the last 205 rows with the failures; max_results windows them', async () => {
    const sc = structuredOf<Frameworks>(await s.call('list_frameworks', { offset: 1000 }));
    expect(sc.frameworks).toHaveLength(200);
    expect(sc.failures.map((f) => f.id)).toEqual(['z0.md', 'z1.md', 'z2.md', 'z3.md', 'z4.md']);
    expect(sc.truncated).toBe(false);
    const tail = await s.call('list_frameworks', { offset: 1203, max_results: 10 });
    expect(structuredOf<Frameworks>(tail)).toMatchObject({ frameworks: [], total: 1205, offset: 1203, max_results: 10, truncated: false });
    expect(structuredOf<Frameworks>(tail).failures.map((f) => f.id)).toEqual(['z3.md', 'z4.md']);
    expect(textOf(tail).endsWith('\n\nShowing rows 1,204–1,205 of 1,205 (framework docs, then failures).')).toBe(true);
  });
});

describe('no list answer is large by default', () => {
  it('each list tool answers well under 1 MB by default on 1,205 documents of each kind', async () => {
    for (const [name, args] of [
      ['list_processes', {}],
      ['list_templates', {}],
      ['list_frameworks', {}],
      ['list_documents', { kind: 'process' }],
    ] as const) {
      const r = await s.call(name, args);
      const bytes = Buffer.byteLength(textOf(r)) + Buffer.byteLength(JSON.stringify(r.structuredContent ?? {}));
      expect(bytes, name).toBeLessThan(1024 * 1024);
    }
  });
});
