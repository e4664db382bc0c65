import { spawnSync } from 'node:child_process';
import { readFileSync, rmSync, unlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { BIN, CONTENT, REPO, copyRoot, startMcp, resultOf, structuredOf, sysrsText, textOf } from './fixtures/mcp/harness.js';
import type { McpSession } from './fixtures/mcp/harness.js';
import type { ParseFailureResult as Failure } from '../src/model/types.js';
import { asValidate } from './helpers.js';

/** Every broken document of the fixture root, with how its get and list tools reach it. */
interface Case {
  path: string;
  get: [string, Record<string, unknown>] | null;
  list: [string, Record<string, unknown>];
  /** The failure inside each answer. */
  fromGet(sc: Record<string, unknown>): Failure;
  fromList(sc: Record<string, unknown>): string;
}

const inResult = (sc: Record<string, unknown>): Failure => sc.result as Failure;
const failureRow =
  (path: string) =>
  (sc: Record<string, unknown>): string =>
    (sc.failures as Failure[]).find((f) => f.path === path)!.error;
const sysrsRow =
  (path: string) =>
  (sc: Record<string, unknown>): string =>
    (sc.results as { path: string; error: string }[]).find((r) => r.path === path)!.error;

function cases(): Case[] {
  const template = (name: string): Case => {
    const path = `templates/power/${name}.txt`;
    return { path, get: ['get_template', { template_name: name }], list: ['list_templates', {}], fromGet: inResult, fromList: failureRow(path) };
  };
  const process = (slug: string): Case => {
    const path = `processes/${slug}.md`;
    return { path, get: ['get_process', { name: slug }], list: ['list_processes', {}], fromGet: inResult, fromList: failureRow(path) };
  };
  const sysrs = (file: string, id: string | null, language?: string): Case => {
    const path = `docs/sysrs/${language ? `${language}/` : ''}${file}`;
    const lang = language ? { language } : {};
    return {
      path,
      get: id ? ['get_sysrs', { id, ...lang }] : null,
      list: ['list_sysrs', { max_results: 100, ...lang }],
      fromGet: inResult,
      fromList: sysrsRow(path),
    };
  };
  return [
    template('broken'),
    template('dangling'),
    {
      path: 'frameworks/Broken.md',
      get: ['get_framework', { name: 'Broken.md' }],
      list: ['list_frameworks', {}],
      fromGet: inResult,
      fromList: failureRow('frameworks/Broken.md'),
    },
    process('broken-key'),
    process('dup-one'),
    process('dup-two'),
    sysrs('broken-outline.md', '33333333-3333-4333-8333-333333333333'),
    sysrs('status-bad.md', '44444444-4444-4444-8444-444444444444'),
    sysrs('no-id.md', null),
    sysrs('beta.md', '22222222-2222-4222-8222-222222222222', 'de'),
  ];
}

/** `docgate lint --format json` on the root, as CI runs it. */
function lintJson(root: string): Map<string, string> {
  const r = spawnSync(process.execPath, [BIN, 'lint', '--root', root, '--format', 'json'], { cwd: REPO, encoding: 'utf8' });
  expect(r.status).toBe(1);
  const report = JSON.parse(r.stdout) as { results: Failure[] };
  return new Map(report.results.map((f) => [f.path, f.error]));
}

async function collect(s: McpSession, order: 'get-first' | 'list-first'): Promise<Map<string, { get: string | null; list: string }>> {
  const out = new Map<string, { get: string | null; list: string }>();
  const gets = new Map<string, string | null>();
  const lists = new Map<string, string>();
  const doGets = async (): Promise<void> => {
    for (const c of cases()) {
      if (!c.get) {
        gets.set(c.path, null);
        continue;
      }
      const r = await s.call(...c.get);
      expect(r.isError ?? false, c.path).toBe(false);
      const failure = c.fromGet(structuredOf(r));
      expect(failure.path).toBe(c.path);
      gets.set(c.path, failure.error);
    }
  };
  const doLists = async (): Promise<void> => {
    for (const c of cases()) lists.set(c.path, c.fromList(structuredOf(await s.call(...c.list))));
  };
  if (order === 'get-first') {
    await doGets();
    await doLists();
  } else {
    await doLists();
    await doGets();
  }
  for (const c of cases()) out.set(c.path, { get: gets.get(c.path)!, list: lists.get(c.path)! });
  return out;
}

describe('byte identity of `error` across get, list, validate and docgate lint', () => {
  it('is the same text in every frontend, get first and list first, each in a fresh server', async () => {
    const cli = lintJson(CONTENT);
    expect([...cli.keys()].sort()).toEqual(
      cases()
        .map((c) => c.path)
        .sort(),
    );
    const runs: Map<string, { get: string | null; list: string }>[] = [];
    let validated: Map<string, string> | null = null;
    for (const order of ['get-first', 'list-first'] as const) {
      const s = await startMcp(CONTENT);
      try {
        runs.push(await collect(s, order));
        const v = structuredOf<{ results: Failure[]; filesChecked: number; problemCount: number }>(await s.call('validate'));
        validated = new Map(v.results.map((f) => [f.path, f.error]));
        expect(v.filesChecked).toBe(20);
      } finally {
        await s.close();
      }
    }
    for (const c of cases()) {
      const expected = cli.get(c.path)!;
      expect(expected.length, c.path).toBeGreaterThan(0);
      expect(validated!.get(c.path), `validate ${c.path}`).toBe(expected);
      for (const run of runs) {
        expect(run.get(c.path)!.list, `list ${c.path}`).toBe(expected);
        if (c.get) expect(run.get(c.path)!.get, `get ${c.path}`).toBe(expected);
      }
    }
  });

  it('validate with paths matches docgate lint with the same paths', async () => {
    const s = await startMcp(CONTENT);
    try {
      const v = structuredOf<{ results: Failure[]; filesChecked: number; problemCount: number }>(
        await s.call('validate', { paths: ['processes/dup-one.md', 'frameworks'] }),
      );
      const r = spawnSync(process.execPath, [BIN, 'lint', '--root', CONTENT, '--format', 'json', 'processes/dup-one.md', 'frameworks'], {
        cwd: CONTENT,
        encoding: 'utf8',
      });
      expect(v).toEqual(asValidate(JSON.parse(r.stdout)));
      expect(v.filesChecked).toBe(4);
      const outside = await s.call('validate', { paths: ['../..'] });
      expect(outside.isError).toBe(true);
      expect(textOf(outside)).toMatch(/^validate cannot run: .*outside the root/);
      const missing = await s.call('validate', { paths: ['nope.md'] });
      expect(textOf(missing)).toBe('validate cannot run: no such file or folder: nope.md');
    } finally {
      await s.close();
    }
  });
});

describe('live reads', () => {
  const root = copyRoot(CONTENT);
  afterAll(() => rmSync(root, { recursive: true, force: true }));

  it('sees a file changed, added or removed between two calls', async () => {
    const s = await startMcp(root);
    try {
      const before = structuredOf<{ results: { path: string; title: string }[]; total: number }>(await s.call('list_sysrs'));
      expect(before.total).toBe(5);
      expect(textOf(await s.call('get_sysrs', { id: '11111111-1111-4111-8111-111111111111', raw: true, limit: 1 }))).toBe(
        '# System Requirements Specification: Alpha\n',
      );

      // Changed: a new title; added: a new document; broken: an existing one loses its scope.
      const alpha = join(root, 'docs/sysrs/alpha.md');
      writeFileSync(alpha, readFileSync(alpha, 'utf8').replace('Specification: Alpha', 'Specification: Alpha Renamed'));
      writeFileSync(join(root, 'docs/sysrs/gamma.md'), sysrsText('99999999-9999-4999-8999-999999999999', 'Gamma'));
      const after = structuredOf<{ results: { path: string; title: string; id: string | null }[]; total: number }>(await s.call('list_sysrs'));
      expect(after.total).toBe(6);
      expect(after.results.find((r) => r.path === 'docs/sysrs/alpha.md')!.title).toBe('System Requirements Specification: Alpha Renamed');
      expect(after.results.find((r) => r.path === 'docs/sysrs/gamma.md')!.id).toBe('99999999-9999-4999-8999-999999999999');
      expect(textOf(await s.call('get_sysrs', { id: '11111111-1111-4111-8111-111111111111', raw: true, limit: 1 }))).toBe(
        '# System Requirements Specification: Alpha Renamed\n',
      );

      // A process fixed in place, a template removed.
      expect(resultOf(await s.call('get_process', { name: 'broken-key' }))).toHaveProperty('error');
      writeFileSync(join(root, 'processes/broken-key.md'), '---\nname: Broken Key\n---\n\n# Broken Key\n\nFixed now.\n');
      expect(resultOf(await s.call('get_process', { name: 'broken-key' }))).toEqual({
        name: 'Broken Key',
        slug: 'broken-key',
        description: '',
        content: '# Broken Key\n\nFixed now.\n',
      });
      unlinkSync(join(root, 'templates/power/broken.txt'));
      expect(textOf(await s.call('list_templates'))).not.toContain('broken:');
      expect(textOf(await s.call('get_template', { template_name: 'broken' }))).toBe("Template 'broken' not found. Available: alpha, beta, dangling");

      // A same-size rewrite is still seen (identity includes the modification time and inode).
      const gamma = join(root, 'docs/sysrs/gamma.md');
      writeFileSync(gamma, readFileSync(gamma, 'utf8').replace('Gamma', 'Delta'));
      expect(textOf(await s.call('get_sysrs', { id: '99999999-9999-4999-8999-999999999999', raw: true, limit: 1 }))).toBe(
        '# System Requirements Specification: Delta\n',
      );
    } finally {
      await s.close();
    }
  });
});
