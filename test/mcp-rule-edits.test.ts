/**
 * A rule file edited under a running `docgate mcp`: the repository thread of the old project is retired
 * and a fresh one serves the new project (src/mcp/workers.ts, docs/performance.md "A long-lived server").
 * What the client sees must not change: the next call has the new rules, and no call is lost or answered
 * twice while the threads change hands. (The server's memory is measured by bench/rule-edits.mjs.)
 */
import { copyFileSync, renameSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { REPO, copyRoot, startMcp, structuredOf } from './fixtures/mcp/harness.js';
import type { McpSession } from './fixtures/mcp/harness.js';

const FIXTURE = join(REPO, 'test', 'fixtures', 'mcp', 'rule-edits');
const SCHEMA = join('schemas', 'process-frontmatter.schema.json');
const RETIRED = 'the project changed: a fresh repository thread takes the next calls';
const COLLECTED = 'the project changed: the main thread collected its garbage';

interface Validated {
  results: { path: string; diagnostics: { rule: string }[] }[];
  filesChecked: number;
  problemCount: number;
}

describe('a rule-file edit under a running server', () => {
  let root: string;
  let s: McpSession;
  const clientErrors: Error[] = [];
  /**
   * Owners must match `^team-` (the root's schema) or `^squad-` (the fixture's other schema). Written
   * beside and renamed over, as editors save: a call racing the edit reads one schema or the other.
   */
  const useSchema = (which: 'teams' | 'squads'): void => {
    copyFileSync(which === 'teams' ? join(FIXTURE, 'root', SCHEMA) : join(FIXTURE, 'squads.schema.json'), join(root, 'schemas', 'next.tmp'));
    renameSync(join(root, 'schemas', 'next.tmp'), join(root, SCHEMA));
  };
  const linesOf = (line: string): number => s.stderr().split(line).length - 1;
  const retiredLines = (): number => linesOf(RETIRED);
  /** A debug line is written before the answer, but stderr is its own pipe: it may arrive a little later. */
  const linesAtLeast = async (line: string, n: number): Promise<number> => {
    for (const end = Date.now() + 5000; linesOf(line) < n && Date.now() < end; ) await new Promise((r) => setTimeout(r, 10));
    return linesOf(line);
  };
  const retiredAtLeast = (n: number): Promise<number> => linesAtLeast(RETIRED, n);

  beforeAll(async () => {
    root = copyRoot(join(FIXTURE, 'root'), 'docgate-mcp-rule-edits-');
    s = await startMcp(root, { DOCGATE_MCP_DEBUG: '1' });
    // An answer for a call the client no longer waits for (a call answered twice) is reported here.
    s.client.onerror = (e) => clientErrors.push(e);
  });
  afterAll(async () => {
    await s.close();
    rmSync(root, { recursive: true, force: true });
  });

  it('the next call after an edit has the new rules, served by a fresh repository thread', async () => {
    expect(structuredOf<Validated>(await s.call('validate')).problemCount).toBe(0);
    expect(retiredLines()).toBe(0);

    useSchema('squads');
    const after = structuredOf<Validated>(await s.call('validate'));
    expect(after.filesChecked).toBe(3);
    expect(after.problemCount).toBe(3);
    expect(after.results.map((r) => r.path)).toEqual(['processes/step-1.md', 'processes/step-2.md', 'processes/step-3.md']);
    for (const r of after.results) expect(r.diagnostics.map((d) => d.rule)).toEqual(['invalid-value']);
    expect(await retiredAtLeast(1)).toBe(1);
    // The list tools and the repair prompt run on the new thread too, with the new rules.
    expect(structuredOf<{ count: number; error_count: number }>(await s.call('list_processes'))).toMatchObject({ count: 0, error_count: 3 });
    const prompt = await s.client.getPrompt({ name: 'repair', arguments: { path: 'processes/step-2.md' } });
    expect((prompt.messages[0]!.content as { type: 'text'; text: string }).text).toContain('invalid-value');

    // Calls with the project unchanged stay on that thread.
    expect(structuredOf<Validated>(await s.call('validate')).problemCount).toBe(3);
    expect(retiredLines()).toBe(1);

    useSchema('teams');
    expect(structuredOf<Validated>(await s.call('validate')).problemCount).toBe(0);
    expect(await retiredAtLeast(2)).toBe(2);
    // The main thread let its own garbage go at each change too (src/lint/collections.ts).
    expect(await linesAtLeast(COLLECTED, 2)).toBe(2);
    expect(clientErrors).toEqual([]);
  });

  it('calls in flight while the thread changes hands are each answered once, under the rules of a project', async () => {
    const before = retiredLines();
    const pending: { sent: 'before' | 'after'; expected: number; answer: Promise<Validated> }[] = [];
    const send = (sent: 'before' | 'after', expected: number): Promise<Validated> => {
      const answer = s.call('validate').then((r) => structuredOf<Validated>(r));
      pending.push({ sent, expected, answer });
      return answer;
    };
    // Five edits, each with calls sent just before it (the old thread may or may not have taken them)
    // and calls sent once the edit is on disk (they must see it).
    for (let edit = 1; edit <= 5; edit++) {
      const old = edit % 2 === 1 ? 0 : 3;
      for (let i = 0; i < 4; i++) send('before', old);
      useSchema(edit % 2 === 1 ? 'squads' : 'teams');
      const after: Promise<Validated>[] = [];
      for (let i = 0; i < 4; i++) after.push(send('after', 3 - old));
      // These are answered before the next edit, so each has one project to see.
      await Promise.all(after);
    }
    const answers = await Promise.all(pending.map((p) => p.answer));
    expect(answers).toHaveLength(40);
    for (const [i, p] of pending.entries()) {
      const got = answers[i]!.problemCount;
      if (p.sent === 'after') expect(got).toBe(p.expected);
      else expect([0, 3]).toContain(got);
    }
    // A thread per edit at most: calls that an old thread took it answers; later ones go to the fresh thread.
    expect((await retiredAtLeast(before + 1)) - before).toBeGreaterThanOrEqual(1);
    expect(retiredLines() - before).toBeLessThanOrEqual(5);
    expect(clientErrors).toEqual([]);
  }, 60_000);
});
