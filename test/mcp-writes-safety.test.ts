/**
 * Where the write tools of `docgate mcp --allow-writes` never write (docs/mcp.md, "Validated writes"):
 * through a link anywhere on the path (the document, its kind folder, a parent folder; to a target inside
 * the root or outside it), outside the root by a path trick (CVE-2025-53110's prefix sibling among them),
 * through a folder swapped for a link mid-write (GHSA-53mr-w429-c597), over a change made on disk since
 * the file was read; and one writer at a time: of 20 writes racing with one expected hash, one wins.
 */
import { createHash } from 'node:crypto';
import { existsSync, lstatSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, renameSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { REPO, copyRoot, startMcp, stderrContains, structuredOf, textOf } from './fixtures/mcp/harness.js';
import type { McpSession } from './fixtures/mcp/harness.js';
import { treeHash } from './helpers.js';

const WRITES = join(REPO, 'test', 'fixtures', 'mcp', 'writes');
const ALPHA = '11111111-1111-4111-8111-111111111111';
const hash = (bytes: Buffer | string): string => createHash('sha256').update(bytes).digest('hex');
const processText = (name: string, body = 'Do the thing, then check it.') => `---\nname: ${name}\ndescription: ${name} steps\n---\n\n# ${name}\n\n${body}\n`;
const outsideDir = (): string => mkdtempSync(join(tmpdir(), 'docgate-outside-'));

/** A server with writes allowed over a copy of the fixture that `arrange` has changed first. */
async function serve(arrange: (root: string) => void = () => {}, env: Record<string, string> = {}): Promise<{ root: string; s: McpSession }> {
  const root = copyRoot(WRITES);
  arrange(root);
  return { root, s: await startMcp(root, env, ['--allow-writes']) };
}

describe('links anywhere on the path: refused, their targets unchanged', () => {
  const sessions: McpSession[] = [];
  afterAll(() => Promise.all(sessions.map((s) => s.close())));

  it('a document that is a link to a file inside the root', async () => {
    const { root, s } = await serve((r) => symlinkSync('deployment.md', join(r, 'processes/linked.md')));
    sessions.push(s);
    const before = hash(readFileSync(join(root, 'processes/deployment.md')));
    const r = await s.call('update_document', { kind: 'process', path: 'processes/linked.md', content: processText('Linked') });
    expect(r.isError).toBe(true);
    expect(textOf(r)).toContain('processes/linked.md is a symbolic link');
    const e = await s.call('edit_document', { kind: 'process', path: 'processes/linked.md', old_str: 'Deploy', new_str: 'Ship' });
    expect(textOf(e)).toContain('is a symbolic link');
    expect(hash(readFileSync(join(root, 'processes/deployment.md')))).toBe(before);
    expect(lstatSync(join(root, 'processes/linked.md')).isSymbolicLink()).toBe(true);
  });

  it('a document that is a link to a file outside the root', async () => {
    const out = outsideDir();
    writeFileSync(join(out, 'target.md'), processText('Outside'));
    const { s } = await serve((r) => symlinkSync(join(out, 'target.md'), join(r, 'processes/outside.md')));
    sessions.push(s);
    const r = await s.call('update_document', { kind: 'process', path: 'processes/outside.md', content: processText('Outside 2') });
    expect(r.isError).toBe(true);
    expect(textOf(r)).toContain('processes/outside.md is a symbolic link');
    expect(readFileSync(join(out, 'target.md'), 'utf8')).toBe(processText('Outside'));
  });

  it('a kind folder that is a link to a folder inside the root, and one outside', async () => {
    const { root, s } = await serve((r) => {
      renameSync(join(r, 'processes'), join(r, 'kept'));
      symlinkSync('kept', join(r, 'processes'));
    });
    sessions.push(s);
    const inside = treeHash(join(root, 'kept'));
    const u = await s.call('update_document', { kind: 'process', id: 'deployment', content: processText('Deployment', 'Changed.') });
    expect(u.isError).toBe(true);
    expect(textOf(u)).toBe('update_document wrote nothing: processes is a symbolic link (a write never goes through one).');
    const c = await s.call('create_document', { kind: 'process', id: 'fresh', content: processText('Fresh') });
    expect(c.isError).toBe(true);
    expect(textOf(c)).toBe('create_document wrote nothing: processes is a symbolic link (a write never goes through one).');
    expect(treeHash(join(root, 'kept'))).toBe(inside);

    const out = outsideDir();
    const t = await serve((r) => {
      renameSync(join(r, 'processes'), join(out, 'processes'));
      symlinkSync(join(out, 'processes'), join(r, 'processes'));
    });
    sessions.push(t.s);
    const outside = treeHash(out);
    const c2 = await t.s.call('create_document', { kind: 'process', id: 'fresh', content: processText('Fresh') });
    expect(c2.isError).toBe(true);
    expect(textOf(c2)).toContain('processes is a symbolic link');
    const u2 = await t.s.call('update_document', { kind: 'process', path: 'processes/deployment.md', content: processText('Deployment', 'Changed.') });
    expect(u2.isError).toBe(true);
    expect(treeHash(out)).toBe(outside);
  });

  it('a parent folder of the kind folder that is a link, inside the root and outside it', async () => {
    const { root, s } = await serve((r) => {
      renameSync(join(r, 'docs'), join(r, 'real-docs'));
      symlinkSync('real-docs', join(r, 'docs'));
    });
    sessions.push(s);
    const inside = treeHash(join(root, 'real-docs'));
    const text = readFileSync(join(root, 'real-docs/sysrs/alpha.md'), 'utf8');
    const u = await s.call('update_document', { kind: 'sysrs', id: ALPHA, content: text.replace('Purpose of Alpha.', 'Purpose.') });
    expect(u.isError).toBe(true);
    expect(textOf(u)).toBe('update_document wrote nothing: docs is a symbolic link (a write never goes through one).');
    expect(treeHash(join(root, 'real-docs'))).toBe(inside);

    const out = outsideDir();
    const t = await serve((r) => {
      renameSync(join(r, 'docs'), join(out, 'docs'));
      symlinkSync(join(out, 'docs'), join(r, 'docs'));
    });
    sessions.push(t.s);
    const outside = treeHash(out);
    const c = await t.s.call('create_document', {
      kind: 'sysrs',
      path: 'docs/sysrs/new.md',
      content: text.replace(ALPHA, '66666666-6666-4666-8666-666666666666'),
    });
    expect(c.isError).toBe(true);
    expect(textOf(c)).toContain('docs is a symbolic link');
    expect(treeHash(out)).toBe(outside);
  });
});

describe('path tricks: refused before any file is written', () => {
  let root: string;
  let s: McpSession;
  let evil: string;
  beforeAll(async () => {
    ({ root, s } = await serve());
    // CVE-2025-53110: a sibling whose name starts with the root's passes a plain prefix check.
    evil = `${root}-evil`;
    mkdirSync(join(evil, 'processes'), { recursive: true });
  });
  afterAll(() => s.close());

  it.each([
    ['../outside.md', "goes through '..'"],
    ['processes/../../outside.md', "goes through '..'"],
    ['processes\\evil.md', 'holds a backslash'],
    ['processes/evil\u0000.md', 'holds a control character'],
  ])('create_document refuses path %j', async (path, why) => {
    const before = treeHash(root);
    const r = await s.call('create_document', { kind: 'process', path, content: processText('Evil') });
    expect(r.isError).toBe(true);
    expect(textOf(r)).toContain(why);
    expect(treeHash(root)).toBe(before);
  });

  it('refuses an absolute path, inside the root and in a sibling named like it (/root vs /root-evil)', async () => {
    const inside = await s.call('create_document', { kind: 'process', path: join(root, 'processes/abs.md'), content: processText('Abs') });
    expect(textOf(inside)).toContain("it is absolute (give it relative to the root: 'processes/abs.md')");
    const sibling = await s.call('create_document', { kind: 'process', path: join(evil, 'processes/evil.md'), content: processText('Evil') });
    expect(sibling.isError).toBe(true);
    expect(textOf(sibling)).toContain('it lies outside the root');
    const update = await s.call('update_document', { kind: 'process', path: join(evil, 'processes/evil.md'), content: processText('Evil') });
    expect(textOf(update)).toContain('it lies outside the root');
    expect(readdirSync(join(evil, 'processes'))).toEqual([]);
    expect(existsSync(join(root, 'processes/abs.md'))).toBe(false);
  });

  it('refuses an id that names a path', async () => {
    const r = await s.call('create_document', { kind: 'process', id: '../evil', content: processText('Evil') });
    expect(r.isError).toBe(true);
    expect(textOf(r)).toMatch(/^Invalid id '\.\.\/evil'/);
    expect(existsSync(join(root, 'evil.md'))).toBe(false);
  });
});

describe('changes on disk in the middle of a write', () => {
  it('a file changed between the read and the write is not overwritten, and no temporary file is left', async () => {
    const go = join(mkdtempSync(join(tmpdir(), 'docgate-go-')), 'go');
    const { root, s } = await serve(() => {}, { DOCGATE_TEST_FAULT: `pause-before-write=${go}` });
    try {
      const call = s.call('update_document', { kind: 'process', id: 'deployment', content: processText('Deployment', 'Ours.') });
      await stderrContains(s, 'paused before writing');
      const theirs = processText('Deployment', 'Theirs, saved by an editor meanwhile.');
      writeFileSync(join(root, 'processes/deployment.md'), theirs);
      writeFileSync(go, '');
      const r = await call;
      expect(r.isError).toBe(true);
      expect(textOf(r)).toBe('update_document wrote nothing: processes/deployment.md: it changed on disk since it was read. Read it again and retry.');
      expect(readFileSync(join(root, 'processes/deployment.md'), 'utf8')).toBe(theirs);
      expect(readdirSync(join(root, 'processes')).filter((n) => n.endsWith('.tmp'))).toEqual([]);
      expect(s.stderr()).not.toContain('docgate mcp: wrote');
    } finally {
      await s.close();
    }
  });

  it('a kind folder swapped for a link to outside the root after it was opened: nothing lands outside (GHSA-53mr-w429-c597)', async () => {
    const go = join(mkdtempSync(join(tmpdir(), 'docgate-go-')), 'go');
    const out = outsideDir();
    writeFileSync(join(out, 'deployment.md'), processText('Deployment', 'Outside.'));
    const { root, s } = await serve(() => {}, { DOCGATE_TEST_FAULT: `pause-before-write=${go}` });
    try {
      const original = readFileSync(join(root, 'processes/deployment.md'), 'utf8');
      const call = s.call('update_document', { kind: 'process', id: 'deployment', content: processText('Deployment', 'Ours.') });
      await stderrContains(s, 'paused before writing');
      renameSync(join(root, 'processes'), join(root, 'processes.old'));
      symlinkSync(out, join(root, 'processes'));
      writeFileSync(go, '');
      const r = await call;
      expect(r.isError).toBe(true);
      expect(textOf(r)).toBe('update_document wrote nothing: processes/deployment.md: its folder was moved during the run. Read it again and retry.');
      expect(readFileSync(join(out, 'deployment.md'), 'utf8')).toBe(processText('Deployment', 'Outside.'));
      expect(readdirSync(out)).toEqual(['deployment.md']);
      expect(readFileSync(join(root, 'processes.old/deployment.md'), 'utf8')).toBe(original);
      expect(readdirSync(join(root, 'processes.old')).filter((n) => n.endsWith('.tmp'))).toEqual([]);
    } finally {
      await s.close();
    }
  });
});

describe('one writer at a time', () => {
  let root: string;
  let s: McpSession;
  beforeAll(async () => {
    ({ root, s } = await serve());
  });
  afterAll(() => s.close());

  it('20 concurrent update_document calls with one expected hash: exactly one is written', async () => {
    const expected = hash(readFileSync(join(root, 'processes/deployment.md')));
    const texts = Array.from({ length: 20 }, (_, i) => processText('Deployment', `Version ${i}.`));
    const answers = await Promise.all(
      texts.map((content) => s.call('update_document', { kind: 'process', id: 'deployment', content, expected_sha256: expected })),
    );
    const won = answers.filter((a) => !a.isError);
    expect(won).toHaveLength(1);
    const winner = structuredOf<{ sha256: string }>(won[0]!);
    const now = readFileSync(join(root, 'processes/deployment.md'));
    expect(winner.sha256).toBe(hash(now));
    expect(texts).toContain(now.toString('utf8'));
    for (const a of answers.filter((x) => x.isError)) expect(textOf(a)).toContain(`does not have the expected sha256; it is now ${hash(now)}.`);
    expect(s.stderr().match(/docgate mcp: wrote processes\/deployment\.md/g)).toHaveLength(1);
  });

  it('20 concurrent create_document calls of one path: exactly one is written', async () => {
    const texts = Array.from({ length: 20 }, (_, i) => processText('Racing', `Racer ${i}.`));
    const answers = await Promise.all(texts.map((content) => s.call('create_document', { kind: 'process', id: 'racing', content })));
    expect(answers.filter((a) => !a.isError)).toHaveLength(1);
    for (const a of answers.filter((x) => x.isError))
      expect(textOf(a)).toBe('create_document wrote nothing: processes/racing.md exists; change it with update_document or edit_document.');
    expect(texts).toContain(readFileSync(join(root, 'processes/racing.md'), 'utf8'));
    expect(readdirSync(join(root, 'processes')).filter((n) => n.endsWith('.tmp'))).toEqual([]);
  });
});
