import { rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { Diagnostic } from 'vscode-languageserver-protocol';
import { startLsp } from './fixtures/lsp/harness.js';
import type { LspClient } from './fixtures/lsp/harness.js';
import { runCli, tempRoot } from './helpers.js';

/**
 * `docgate lsp` while the files on disk change under it (docs/editors.md, "Speed"): the server watches
 * the kinds' folders, so that a change takes the other documents from memory, and it must never serve
 * what memory holds of a file that changed. Every change here is made on disk, outside the editor, and
 * the client says nothing of it: the server sees it by itself.
 */

const made: string[] = [];
const clients: LspClient[] = [];
afterAll(async () => {
  for (const c of clients) if (c.child.exitCode === null) c.child.kill();
  for (const d of made) rmSync(d, { recursive: true, force: true });
});

async function start(root: string): Promise<LspClient> {
  const c = await startLsp(root);
  clients.push(c);
  return c;
}

const doc = (name: string) => `---\nname: ${name}\ndescription: A process.\n---\n# ${name}\n\nSteps.\n`;

/** lint's findings for a path of the root as it is on disk: rule, 1-based line and column, message. */
function lintOf(root: string, path: string): { rule: string; line: number; column: number; message: string }[] {
  const report = JSON.parse(runCli(['lint', '--format', 'json'], { cwd: root }).stdout) as {
    results: { path: string; diagnostics: { rule: string; line: number; column: number; message: string }[] }[];
  };
  return (report.results.find((r) => r.path === path)?.diagnostics ?? []).map(({ rule, line, column, message }) => ({ rule, line, column, message }));
}

function shape(d: Diagnostic[]): ReturnType<typeof lintOf> {
  return d.map((x) => ({ rule: String(x.code), line: x.range.start.line + 1, column: x.range.start.character + 1, message: x.message }));
}

const some = (d: Diagnostic[]) => d.length > 0;
const none = (d: Diagnostic[]) => d.length === 0;

describe('docgate lsp: the disk changing under it', () => {
  it('a file created, rewritten and deleted on disk is seen without a word from the client: the duplicate names it makes come and go', async () => {
    const root = tempRoot('docgate-lsp-disk-', { 'processes/a.md': doc('Release'), 'processes/b.md': doc('Deploy') }, made);
    const c = await start(root);
    const first = c.published('processes/a.md');
    c.open('processes/a.md');
    expect(await first).toEqual([]);

    // A new file takes the open buffer's name: both are told.
    const dupA = c.published('processes/a.md', some);
    const dupC = c.published('processes/c.md', some);
    writeFileSync(join(root, 'processes/c.md'), doc('Release'));
    expect(lintOf(root, 'processes/a.md')[0]?.rule).toBe('process-duplicate-name');
    expect(shape(await dupA)).toEqual(lintOf(root, 'processes/a.md'));
    expect(shape(await dupC)).toEqual(lintOf(root, 'processes/c.md'));

    // Rewritten in place, it takes the closed file's name instead: the buffer is clean, the two files are told.
    const cleanA = c.published('processes/a.md', none);
    const dupB = c.published('processes/b.md', some);
    const dupC2 = c.published('processes/c.md', (d) => some(d) && d[0]!.message.includes('Deploy'));
    writeFileSync(join(root, 'processes/c.md'), doc('Deploy'));
    expect(await cleanA).toEqual([]);
    expect(shape(await dupB)).toEqual(lintOf(root, 'processes/b.md'));
    expect(shape(await dupC2)).toEqual(lintOf(root, 'processes/c.md'));

    // Deleted, it is gone, and so is the duplicate.
    const cleanB = c.published('processes/b.md', none);
    const cleanC = c.published('processes/c.md', none);
    rmSync(join(root, 'processes/c.md'));
    expect(await cleanB).toEqual([]);
    expect(await cleanC).toEqual([]);
    expect(lintOf(root, 'processes/b.md')).toEqual([]);
    expect(c.stderr()).toBe('');
    expect(await c.stop()).toBe(0);
  });

  it('an edit that makes a duplicate of a closed file shows on both; the buffer saved and closed counts as saved; the closed file changed on disk ends it', async () => {
    const root = tempRoot('docgate-lsp-saved-', { 'processes/a.md': doc('Release'), 'processes/b.md': doc('Deploy'), 'processes/c.md': doc('Build') }, made);
    const c = await start(root);
    // c.md open first: a.md is then known from its file, before it is opened.
    const firstC = c.published('processes/c.md');
    c.open('processes/c.md');
    expect(await firstC).toEqual([]);
    const firstA = c.published('processes/a.md');
    c.open('processes/a.md');
    expect(await firstA).toEqual([]);

    // The buffer takes b.md's name, and the editor saves it.
    const dupA = c.published('processes/a.md', some);
    const dupB = c.published('processes/b.md', some);
    c.change('processes/a.md', doc('Deploy'));
    writeFileSync(join(root, 'processes/a.md'), doc('Deploy'));
    const lintA = lintOf(root, 'processes/a.md');
    expect(lintA[0]?.rule).toBe('process-duplicate-name');
    expect(shape(await dupA)).toEqual(lintA);
    expect(shape(await dupB)).toEqual(lintOf(root, 'processes/b.md'));

    // Closed, a.md is its saved file (not what the server read of it before it was opened): still a duplicate.
    const stillA = c.published('processes/a.md', some);
    c.closeDoc('processes/a.md');
    expect(shape(await stillA)).toEqual(lintA);

    // b.md renamed on disk, outside the editor: both are clean again.
    const cleanA = c.published('processes/a.md', none);
    const cleanB = c.published('processes/b.md', none);
    writeFileSync(join(root, 'processes/b.md'), doc('Other'));
    expect(await cleanA).toEqual([]);
    expect(await cleanB).toEqual([]);
    expect(c.stderr()).toBe('');
    expect(await c.stop()).toBe(0);
  });
});
