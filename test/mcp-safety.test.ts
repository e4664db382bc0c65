import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startMcp, resultOf, structuredOf, sysrsText, textOf } from './fixtures/mcp/harness.js';
import type { McpSession } from './fixtures/mcp/harness.js';

const LINKED = '55555555-5555-4555-8555-555555555555';
const HUGE = '66666666-6666-4666-8666-666666666666';

interface Failure {
  id: string;
  path: string;
  error: string;
  diagnostics: { rule: string }[];
}

describe('bad input files (SPEC §5) are answered, never thrown', () => {
  const root = mkdtempSync(join(tmpdir(), 'docgate-mcp-bad-'));
  const outside = mkdtempSync(join(tmpdir(), 'docgate-mcp-outside-'));
  let s: McpSession;
  beforeAll(async () => {
    for (const d of ['templates/power', 'frameworks', 'processes/folder.md', 'docs/sysrs']) mkdirSync(join(root, d), { recursive: true });
    writeFileSync(join(root, 'templates/power/bom.txt'), Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from('framework: POWER\n')]));
    writeFileSync(join(root, 'frameworks/Latin.md'), Buffer.from([0x23, 0x20, 0x41, 0xe9, 0x0a]));
    writeFileSync(join(root, 'processes/empty.md'), '');
    writeFileSync(join(root, 'processes/nul.md'), '# Nul\n\u0000\n');
    writeFileSync(
      join(root, 'processes/alias.md'),
      `---\na: &a [x, x, x, x, x, x, x, x, x]\nb: &b [*a, *a, *a, *a, *a, *a, *a, *a, *a]\nc: &c [*b, *b, *b, *b, *b, *b, *b, *b, *b]\nd: [*c, *c, *c, *c, *c, *c, *c, *c, *c]\n---\n\n# Alias\n`,
    );
    writeFileSync(join(root, 'processes/crlf.md'), '---\r\nname: Crlf\r\n---\r\n\r\n# Crlf\r\n\r\nWindows line endings.\r\n');
    writeFileSync(join(outside, 'secret.md'), sysrsText(LINKED, 'Secret outside the root'));
    symlinkSync(join(outside, 'secret.md'), join(root, `docs/sysrs/${LINKED}.md`));
    writeFileSync(join(root, `docs/sysrs/${HUGE}.md`), `${sysrsText(HUGE, 'Huge')}\n${'x'.repeat(10 * 1024 * 1024)}\n`);
    writeFileSync(join(root, 'docs/sysrs/unterminated.md'), '---\nid: 77777777-7777-4777-8777-777777777777\n\n# System Requirements Specification: Open\n');
    s = await startMcp(root);
  });
  afterAll(async () => {
    await s.close();
    rmSync(root, { recursive: true, force: true });
    rmSync(outside, { recursive: true, force: true });
  });

  it('lists every broken file as a failure and keeps the good ones', async () => {
    const t = structuredOf<{ failures: Failure[] }>(await s.call('list_templates'));
    expect(t.failures.map((f) => f.diagnostics[0]!.rule)).toEqual(['file-bom']);
    const f = structuredOf<{ failures: Failure[] }>(await s.call('list_frameworks'));
    expect(f.failures.map((x) => x.diagnostics[0]!.rule)).toEqual(['file-encoding']);
    const p = structuredOf<{ processes: { slug: string }[]; failures: Failure[] }>(await s.call('list_processes'));
    expect(p.processes.map((x) => x.slug)).toEqual(['crlf']);
    expect(p.failures.map((x) => x.path)).toEqual(['processes/alias.md', 'processes/empty.md', 'processes/folder.md', 'processes/nul.md']);
    const l = structuredOf<{ results: { path: string; error: string | null }[]; error_count: number }>(await s.call('list_sysrs'));
    expect(l.error_count).toBe(3);
    expect(l.results.every((r) => r.error !== null && r.error.length > 0)).toBe(true);
  });

  it('refuses a symlink that resolves outside the root, without returning its content', async () => {
    for (const raw of [false, true]) {
      const r = await s.call('get_sysrs', { id: LINKED, raw });
      expect(r.isError ?? false).toBe(false);
      expect(textOf(r)).not.toContain('Secret outside the root');
      expect(structuredOf<{ result: Failure }>(r).result.diagnostics.map((d) => d.rule)).toEqual(['file-symlink']);
    }
  });

  it('answers a 10 MB document with its size failure, and a CRLF process with its body', async () => {
    const r = await s.call('get_sysrs', { id: HUGE, raw: true });
    expect(structuredOf<{ result: Failure }>(r).result.diagnostics.map((d) => d.rule)).toEqual(['file-size']);
    expect(resultOf(await s.call('get_process', { name: 'CRLF' }))).toMatchObject({ name: 'Crlf', content: '# Crlf\r\n\r\nWindows line endings.\r\n' });
  });
});
