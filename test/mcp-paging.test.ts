/**
 * SPEC §13 / issue 17: list_processes, list_templates and list_frameworks page (max_results, offset) and
 * answer at most 1,000 rows without them, with total and truncated. A generated repository of 1,205
 * documents of each kind (five of them failing) and 450 SysRS, through the real MCP client: enough
 * documents of each kind that the server analyzes them on worker threads and keeps rows, not documents.
 */
import { readFileSync, mkdtempSync, rmSync } from 'node:fs';
import { availableParallelism, tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startMcp, resultOf, structuredOf, textOf } from './fixtures/mcp/harness.js';
import type { McpSession } from './fixtures/mcp/harness.js';
import { asValidate, fixture, runCli, writeFiles } from './helpers.js';
import type { ParseFailureResult as Failure } from '../src/model/types.js';
import type { SysrsRow } from '../src/mcp/tools/sysrs/list_sysrs.js';

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
    files[`templates/power/z${i}.txt`] =
      `framework: POWER\npurpose: Fails without a final period\noutput: x.\nwork: x.\nexamples:\n- x\nrequirements: x.\nsave_as: Z${i}.md\nstore_as: z${i}_summary\n`;
    files[`frameworks/z${i}.md`] = `Notes without a heading ${i}\n`;
  }
  const alpha = readFileSync(fixture('mcp', 'content', 'docs', 'sysrs', 'alpha.md'), 'utf8');
  for (let i = 0; i < SYSRS; i++) {
    const text = alpha.replace('11111111-1111-4111-8111-111111111111', sysrsId(i)).replace('Alpha', `S${pad(i)}`);
    // Every hundredth fails: a status its schema does not allow.
    files[`docs/sysrs/s${pad(i)}.md`] = i % 100 === 7 ? text.replace('status: active', 'status: shelved') : text;
  }
  return files;
}

const SYSRS = 450;
const sysrsId = (i: number) => `${pad(i)}1111-1111-4111-8111-111111111111`;

/** What a paged answer adds (src/mcp/paging.ts Window). */
interface Paged {
  total?: number;
  offset?: number;
  max_results?: number;
  truncated?: boolean;
}
interface Processes extends Paged {
  processes: { name: string; slug: string; description: string }[];
  count: number;
  error_count: number;
  failures: Failure[];
}
interface Templates extends Paged {
  templates: { name: string }[];
  failures: Failure[];
  error_count?: number;
}
interface Frameworks extends Paged {
  frameworks: { name: string; size: number }[];
  failures: Failure[];
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

/** A server of its own (nothing loaded yet) for `use`, closed after it. */
/** Tests only: worker threads for any work, so that these small kinds are loaded on them (src/lint/parallel.ts). */
const ANY_WORK_ON_THREADS = { DOCGATE_TEST_PARALLEL_MIN_BYTES: '0' };

async function onFreshServer(env: Record<string, string>, use: (fresh: McpSession) => Promise<void>): Promise<void> {
  const fresh = await startMcp(dir, env);
  try {
    await use(fresh);
  } finally {
    await fresh.close();
  }
}

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
    expect(text).toContain(
      '\n1000. t0999\n\nTotal: 1200 templates\n\nFailed to parse: 5\n\nShowing rows 1–1,000 of 1,205 (templates, then failures); pass offset 1000 for the next rows.',
    );
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
    expect(textOf(r)).toBe(
      'Available POWER Framework Templates:\n\n\nTotal: 1200 templates\n\nFailed to parse: 5\n\nShowing none of 1,205 rows (templates, then failures): offset 2,000 is past the end.',
    );
  });
});

describe('list_frameworks pages (SPEC §13)', () => {
  it('answers the first 1,000 of 1,205 rows by default, with total and truncated', async () => {
    const r = await s.call('list_frameworks');
    const sc = structuredOf<Frameworks>(r);
    expect(sc.frameworks).toHaveLength(1000);
    expect(sc.frameworks[0]).toEqual({ name: 'F0000.md', size: 16 });
    expect(sc).toMatchObject({ failures: [], total: 1205, offset: 0, max_results: 1000, truncated: true, error_count: 5 });
    expect(textOf(r)).toContain(
      '\n1000. F0999.md (16 bytes)\n\nTotal: 1200 framework docs\n\nFailed to parse: 5\n\nShowing rows 1–1,000 of 1,205 (framework docs, then failures); pass offset 1000 for the next rows.',
    );
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

type Row = SysrsRow;

describe('a large repository is loaded on worker threads, and served as before', () => {
  it('list_sysrs rows and every failure error equal docgate lint; get_sysrs parses its one file again, as parse_sysrs parses its text', async () => {
    const rows: Row[] = [];
    for (let offset = 0; ; offset += 100) {
      const page = structuredOf<{ results: Row[]; total: number; truncated: boolean }>(await s.call('list_sysrs', { max_results: 100, offset }));
      rows.push(...page.results);
      if (!page.truncated) break;
    }
    expect(rows).toHaveLength(SYSRS);
    expect(rows[8]).toEqual({
      id: sysrsId(8),
      title: 'System Requirements Specification: S0008',
      status: 'active',
      ref: 's0008',
      path: 'docs/sysrs/s0008.md',
      error: null,
    });
    const lint = JSON.parse(runCli(['lint', '--root', dir, '--format', 'json']).stdout) as { results: Failure[] };
    const lintErrors = new Map(lint.results.map((r) => [r.path, r.error]));
    const failed = rows.filter((r) => r.error !== null);
    expect(failed.map((r) => r.path)).toEqual([7, 107, 207, 307, 407].map((i) => `docs/sysrs/s${pad(i)}.md`));
    for (const r of failed) expect(r.error).toBe(lintErrors.get(r.path));
    const processes = structuredOf<Processes>(await s.call('list_processes', { offset: 1200 }));
    for (const f of processes.failures) expect(f.error).toBe(lintErrors.get(f.path));

    for (const i of [0, 250, 449]) {
      const text = readFileSync(join(dir, `docs/sysrs/s${pad(i)}.md`), 'utf8');
      const got = structuredOf<{ result: unknown }>(await s.call('get_sysrs', { id: sysrsId(i) }));
      expect(got).toEqual(structuredOf(await s.call('parse_sysrs', { content: text })));
      expect(textOf(await s.call('get_sysrs', { id: sysrsId(i), raw: true }))).toBe(text.split('---\n\n')[1]);
    }
    const broken = structuredOf<{ result: Failure & { content: string } }>(await s.call('get_sysrs', { id: sysrsId(107) }));
    expect(broken.result.error).toBe(lintErrors.get('docs/sysrs/s0107.md'));
  });

  it('get_process, get_template, get_framework and search_processes read their files again', async () => {
    const p = resultOf<{ name: string; slug: string; description: string; content: string }>(await s.call('get_process', { name: 'process 1111' }));
    expect(p).toEqual({ name: 'Process 1111', slug: 'p1111', description: 'Step 1111', content: '# Process 1111\n\nDo it.\n' });
    expect(textOf(await s.call('get_template', { template_name: 't0042' }))).toBe(
      `=== T0042 Template ===\n\n${readFileSync(join(dir, 'templates/power/t0042.txt'), 'utf8')}`,
    );
    expect(textOf(await s.call('get_framework', { name: 'F0042' }))).toBe('# F0042\n\nNotes.\n');
    const found = structuredOf<{ results: { slug: string; snippet: string; relevance_score: number }[]; total_processes: number }>(
      await s.call('search_processes', { query: 'process 1111' }),
    );
    expect(found.total_processes).toBe(1200);
    expect(found.results).toEqual([
      { name: 'Process 1111', slug: 'p1111', description: 'Step 1111', relevance_score: 0.55, snippet: '# Process 1111\n\nDo it.\n' },
    ]);
  });
});

describe('a listing of large failures is cut by size', () => {
  it('list_processes answers under 1 MB by default when 40 failures carry 100 diagnostics each, and offset walks through them all', async () => {
    const files: Record<string, string> = { 'processes/a.md': '---\nname: A\ndescription: a\n---\n\n# A\n\nDo it.\n' };
    const keys = Array.from({ length: 120 }, (_, k) => `unknown_key_number_${k}: some value that is not allowed here`).join('\n');
    for (let i = 0; i < 40; i++) files[`processes/b${pad(i)}.md`] = `---\nname: B ${i}\n${keys}\n---\n\n# B\n`;
    const root = mkdtempSync(join(tmpdir(), 'docgate-mcp-budget-'));
    writeFiles(root, files);
    const t = await startMcp(root);
    try {
      const r = await t.call('list_processes');
      const first = structuredOf<Processes>(r);
      expect(first.failures[0]!.diagnostics).toHaveLength(100);
      expect(Buffer.byteLength(textOf(r)) + Buffer.byteLength(JSON.stringify(r.structuredContent))).toBeLessThan(1024 * 1024);
      expect(first).toMatchObject({ count: 1, error_count: 40, total: 41, offset: 0, max_results: 1000, truncated: true });
      expect(first.processes.map((p) => p.slug)).toEqual(['a']);
      const shown = first.processes.length + first.failures.length;
      expect(shown).toBeGreaterThan(1);
      expect(shown).toBeLessThan(41);
      const failures = [...first.failures];
      for (let offset = shown, more = true; more; ) {
        const next = structuredOf<Processes>(await t.call('list_processes', { offset }));
        expect(next.failures.length).toBeGreaterThan(0);
        failures.push(...next.failures);
        offset += next.failures.length;
        more = next.truncated === true;
      }
      expect(failures.map((f) => f.id)).toEqual(Array.from({ length: 40 }, (_, i) => `b${pad(i)}`));
    } finally {
      await t.close();
      rmSync(root, { recursive: true, force: true });
    }
  }, 60_000);
});

describe('calls that arrive while a kind is loaded on worker threads', () => {
  it('validate on a fresh server loads each kind on the workers and answers exactly docgate lint', async () => {
    await onFreshServer({ DOCGATE_MCP_DEBUG: '1', ...ANY_WORK_ON_THREADS }, async (fresh) => {
      const report = JSON.parse(runCli(['lint', '--root', dir, '--format', 'json']).stdout) as {
        results: Failure[];
        filesChecked: number;
        problemCount: number;
      };
      const got = structuredOf(await fresh.call('validate', {})) as typeof report;
      expect(got.filesChecked).toBe(3 * N + SYSRS);
      expect(got.results.length).toBeGreaterThanOrEqual(3 * BROKEN);
      expect(got).toEqual(asValidate(report));
      // Every kind was loaded on lint's threads, not in one thread (a one-core machine starts none).
      for (const kind of ['sysrs', 'process', 'template', 'framework']) {
        const m = new RegExp(`docgate mcp: loaded ${kind}: (\\d+) documents in the repository thread, (\\d+) in (\\d+) workers`).exec(fresh.stderr());
        if (availableParallelism() < 2) {
          expect(m, kind).toBeNull();
          continue;
        }
        expect(m, kind).not.toBeNull();
        expect(Number(m![1]) + Number(m![2])).toBe(kind === 'sysrs' ? SYSRS : N);
        expect(Number(m![3])).toBeGreaterThan(0);
      }
    });
  }, 60_000);

  it('validate of one folder on a fresh server loads only that kind on the workers, and answers docgate lint of it', async () => {
    await onFreshServer({ DOCGATE_MCP_DEBUG: '1', ...ANY_WORK_ON_THREADS }, async (fresh) => {
      const report = JSON.parse(runCli(['lint', '--root', dir, '--format', 'json', join(dir, 'templates')]).stdout) as {
        results: Failure[];
        filesChecked: number;
        problemCount: number;
      };
      const got = structuredOf(await fresh.call('validate', { paths: ['templates'] })) as typeof report;
      expect(got.filesChecked).toBe(N);
      expect(got).toEqual(asValidate(report));
      const loads = [...fresh.stderr().matchAll(/docgate mcp: loaded (\w+):/g)].map((m) => m[1]);
      expect(loads).toEqual(availableParallelism() < 2 ? [] : ['template']);
    });
  }, 60_000);

  it('check_content on a fresh server loads its kind on the workers; the answer sees every other document', async () => {
    await onFreshServer({ DOCGATE_MCP_DEBUG: '1', ...ANY_WORK_ON_THREADS }, async (fresh) => {
      const valid = structuredOf(
        await fresh.call('check_content', {
          path: 'processes/p0001.md',
          content: '---\nname: Process 0001\ndescription: Step 1 again.\n---\n\n# Process 0001\n\nDo it.\n',
        }),
      );
      expect(valid).toEqual({ valid: true });
      // A name another process holds: the rule across files sees the other 1,204 processes.
      const dup = structuredOf(
        await fresh.call('check_content', {
          path: 'processes/p0001.md',
          content: '---\nname: Process 0002\ndescription: Step 1.\n---\n\n# Process 0001\n\nDo it.\n',
        }),
      ) as Failure;
      expect(dup.error).toContain('processes/p0002.md');
      const m = /docgate mcp: loaded process: (\d+) documents in the repository thread, (\d+) in (\d+) workers/.exec(fresh.stderr());
      if (availableParallelism() < 2) expect(m).toBeNull();
      else {
        expect(m).not.toBeNull();
        expect(Number(m![1]) + Number(m![2])).toBe(N);
      }
    });
  }, 60_000);

  it('wait for the one load and answer as calls made one after the other do', async () => {
    await onFreshServer({}, async (t) => {
      const [a, b, c] = await Promise.all([t.call('list_processes'), t.call('get_process', { name: 'p0005' }), t.call('list_processes', { offset: 1000 })]);
      expect(structuredOf(a)).toEqual(structuredOf(await s.call('list_processes')));
      expect(structuredOf(b)).toEqual(structuredOf(await s.call('get_process', { name: 'p0005' })));
      expect(structuredOf(c)).toEqual(structuredOf(await s.call('list_processes', { offset: 1000 })));
    });
  }, 60_000);
});
