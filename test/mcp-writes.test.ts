/**
 * The write tools of `docgate mcp --allow-writes` (docs/mcp.md, "Validated writes"), over the SDK client:
 * each tool's success, refusals that leave the bytes as they were, the splice of body lines against
 * get_sysrs's numbered output, the ratchet on a document that already fails, expected_sha256, and what
 * every other tool sees after a write.
 */
import { createHash } from 'node:crypto';
import { chmodSync, existsSync, readFileSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { REPO, copyRoot, resultOf, startMcp, structuredOf, textOf } from './fixtures/mcp/harness.js';
import type { McpSession } from './fixtures/mcp/harness.js';

const WRITES = join(REPO, 'test', 'fixtures', 'mcp', 'writes');
const ALPHA = '11111111-1111-4111-8111-111111111111';
const ALPHA_PATH = 'docs/sysrs/alpha.md';

const hash = (bytes: Buffer | string): string => createHash('sha256').update(bytes).digest('hex');
const fileHash = (root: string, rel: string): string => hash(readFileSync(join(root, rel)));

interface Written {
  written: true;
  path: string;
  sha256: string;
  warnings: string;
  remaining_errors?: string;
}
interface Refused {
  written: false;
  path: string;
  kind: string;
  error: string;
  diagnostics: { rule: string; message: string }[];
  fixed_content?: string;
  new_errors?: string;
}

/** A server with writes allowed over a fresh copy of the fixture. */
async function serveCopy(): Promise<{ root: string; s: McpSession }> {
  const root = copyRoot(WRITES);
  return { root, s: await startMcp(root, {}, ['--allow-writes']) };
}

/** A valid process document. */
const processText = (name: string, body = 'Do the thing, then check it.') => `---\nname: ${name}\ndescription: ${name} steps\n---\n\n# ${name}\n\n${body}\n`;

describe('without --allow-writes', () => {
  let s: McpSession;
  beforeAll(async () => {
    s = await startMcp(copyRoot(WRITES));
  });
  afterAll(() => s.close());

  it('lists no write tool, and calling one is an unknown-tool error', async () => {
    const names = s.tools.map((t) => t.name);
    for (const name of ['create_document', 'update_document', 'edit_document']) expect(names).not.toContain(name);
    const r = await s.call('create_document', { kind: 'process', id: 'x', content: processText('X') });
    expect(r.isError).toBe(true);
    expect(textOf(r)).toMatch(/^Unknown tool 'create_document'\. Available tools: /);
  });

  it('the instructions say the server writes nothing', () => {
    expect(s.client.getInstructions()).toMatch(
      /every kind its configuration or presets declare .*The server writes nothing: write a checked text with your own file tool\.$/,
    );
  });

  it('the repair prompt leaves the write to the agent', async () => {
    const got = await s.client.getPrompt({ name: 'repair', arguments: { path: 'processes/broken-key.md' } });
    const text = (got.messages[0]!.content as { text: string }).text;
    expect(text.split('\n').at(-1)).toMatch(/The docgate server never writes files: write the file yourself once it is valid\.$/);
  });
});

describe('docgate mcp --allow-writes', () => {
  let root: string;
  let s: McpSession;
  beforeAll(async () => {
    ({ root, s } = await serveCopy());
  });
  afterAll(() => s.close());

  it('the instructions name the write tools and when they write', () => {
    expect(s.client.getInstructions()).toMatch(
      /create_document, update_document and edit_document write a document only when its new text passes every rule \(or, for a document that already fails, adds no error\)\.$/,
    );
  });

  it('the repair prompt ends with the update_document call that writes the repaired text', async () => {
    const got = await s.client.getPrompt({ name: 'repair', arguments: { path: 'processes/broken-key.md' } });
    const text = (got.messages[0]!.content as { text: string }).text;
    expect(text.split('\n').at(-1)).toMatch(
      /Once it is valid, write it with the tool update_document \{"kind": "process", "path": "processes\/broken-key\.md", "content": <the text>\}: it checks the text again and writes it only if it is valid\.$/,
    );
  });

  it('lists the three write tools after the others, annotated as writing (update and edit destructive)', () => {
    const names = s.tools.map((t) => t.name);
    expect(names.slice(-3)).toEqual(['create_document', 'update_document', 'edit_document']);
    const hints = Object.fromEntries(s.tools.slice(-3).map((t) => [t.name, t.annotations]));
    expect(hints.create_document).toMatchObject({ readOnlyHint: false, destructiveHint: false, idempotentHint: false });
    expect(hints.update_document).toMatchObject({ readOnlyHint: false, destructiveHint: true });
    expect(hints.edit_document).toMatchObject({ readOnlyHint: false, destructiveHint: true, idempotentHint: false });
    expect(s.tools.find((t) => t.name === 'get_document')!.annotations).toMatchObject({ readOnlyHint: true });
  });

  it('create_document writes a valid process where the kind keeps its id, answers its hash, and logs one line', async () => {
    const content = processText('Rollback');
    const r = await s.call('create_document', { kind: 'process', id: 'rollback', content });
    const answer = structuredOf<Written>(r);
    expect(answer).toEqual({ written: true, path: 'processes/rollback.md', sha256: hash(content), warnings: '' });
    expect(readFileSync(join(root, 'processes/rollback.md'), 'utf8')).toBe(content);
    expect(s.stderr()).toContain(`docgate mcp: wrote processes/rollback.md (sha256 ${hash(content)})\n`);
    // Every tool sees it at once.
    const got = resultOf<{ name: string; content: string }>(await s.call('get_process', { name: 'rollback' }));
    expect(got.name).toBe('Rollback');
    const rows = structuredOf<{ results: { path: string }[] }>(await s.call('list_documents', { kind: 'process' }));
    expect(rows.results.map((x) => x.path)).toContain('processes/rollback.md');
  });

  it('create_document refuses a text with an error: the ParseFailureResult of the text, fixed_content, and no file', async () => {
    const content = `\uFEFF${processText('Bom')}`;
    const r = await s.call('create_document', { kind: 'process', path: 'processes/bom.md', content });
    expect(r.isError ?? false).toBe(false);
    const answer = structuredOf<Refused>(r);
    expect(answer).toMatchObject({ written: false, path: 'processes/bom.md', kind: 'process' });
    expect(answer.diagnostics.map((d) => d.rule)).toContain('file-bom');
    expect(answer.fixed_content).toBe(processText('Bom'));
    expect(answer.new_errors).toBeUndefined();
    expect(existsSync(join(root, 'processes/bom.md'))).toBe(false);
  });

  it('create_document refuses an existing file (bytes unchanged) and a name it cannot place', async () => {
    const before = fileHash(root, 'processes/deployment.md');
    const r = await s.call('create_document', { kind: 'process', id: 'deployment', content: processText('Deployment 2') });
    expect(r.isError).toBe(true);
    expect(textOf(r)).toBe('create_document wrote nothing: processes/deployment.md exists; change it with update_document or edit_document.');
    expect(fileHash(root, 'processes/deployment.md')).toBe(before);
    const sysrs = await s.call('create_document', { kind: 'sysrs', id: ALPHA, content: 'x' });
    expect(sysrs.isError).toBe(true);
    expect(textOf(sysrs)).toMatch(/^A sysrs document's path does not follow from the id .*: give 'path' instead\.$/);
    const elsewhere = await s.call('create_document', { kind: 'process', path: 'frameworks/Other.md', content: processText('Other') });
    expect(elsewhere.isError).toBe(true);
    expect(textOf(elsewhere)).toContain("'frameworks/Other.md' is where a framework document lies, not a process one");
  });

  it('create_document places a framework by its file name and a SysRS by its path', async () => {
    const fw = '# Notes\n\nSome notes.\n';
    expect(structuredOf<Written>(await s.call('create_document', { kind: 'framework', id: 'Notes.md', content: fw })).path).toBe('frameworks/Notes.md');
    const other = readFileSync(join(root, ALPHA_PATH), 'utf8').replace(ALPHA, '55555555-5555-4555-8555-555555555555').replace(/Alpha/g, 'Other');
    const r = structuredOf<Written>(await s.call('create_document', { kind: 'sysrs', path: 'docs/sysrs/other.md', content: other }));
    expect(r.path).toBe('docs/sysrs/other.md');
    expect(readFileSync(join(root, 'docs/sysrs/other.md'), 'utf8')).toBe(other);
  });

  it('update_document replaces the whole text; every tool sees the new text at once', async () => {
    const content = processText('Deployment', 'Deploy with the new pipeline.');
    const r = structuredOf<Written>(await s.call('update_document', { kind: 'process', id: 'deployment', content }));
    expect(r).toEqual({ written: true, path: 'processes/deployment.md', sha256: hash(content), warnings: '' });
    expect(readFileSync(join(root, 'processes/deployment.md'), 'utf8')).toBe(content);
    const doc = structuredOf<{ result: { content: string } }>(await s.call('get_document', { kind: 'process', id: 'deployment' }));
    expect(doc.result.content).toContain('Deploy with the new pipeline.');
    const found = structuredOf<{ results: { slug: string }[] }>(await s.call('search_processes', { query: 'new pipeline' }));
    expect(found.results.map((x) => x.slug)).toEqual(['deployment']);
    const checked = structuredOf(await s.call('check_content', { path: 'processes/deployment.md', content }));
    expect(checked).toEqual({ valid: true });
  });

  it('update_document refuses a text with an error and leaves the bytes as they were', async () => {
    const before = fileHash(root, 'processes/deployment.md');
    const r = await s.call('update_document', { kind: 'process', path: 'processes/deployment.md', content: '---\nname: Deployment\nowner: x\n---\n\n# D\n' });
    const answer = structuredOf<Refused>(r);
    expect(answer.written).toBe(false);
    expect(answer.error).toContain('[unknown-key]');
    expect(fileHash(root, 'processes/deployment.md')).toBe(before);
    expect(s.stderr()).not.toContain('wrote processes/deployment.md (sha256 ' + hash('---\nname: Deployment\nowner: x\n---\n\n# D\n'));
  });

  it('a cross-file error with another document is found before writing: a duplicate process name is refused', async () => {
    const r = structuredOf<Refused>(await s.call('create_document', { kind: 'process', id: 'deploy-again', content: processText('Deployment') }));
    expect(r.written).toBe(false);
    expect(r.error).toContain('[process-duplicate-name]');
    expect(existsSync(join(root, 'processes/deploy-again.md'))).toBe(false);
  });

  it('edit_document replaces a unique snippet byte for byte; no match and several matches are errors', async () => {
    writeFileSync(join(root, 'processes/edit-me.md'), processText('Edit Me', 'one two two three'));
    const r = structuredOf<Written>(await s.call('edit_document', { kind: 'process', id: 'edit-me', old_str: 'one', new_str: 'ONE' }));
    expect(r.written).toBe(true);
    expect(readFileSync(join(root, 'processes/edit-me.md'), 'utf8')).toBe(processText('Edit Me', 'ONE two two three'));
    const before = fileHash(root, 'processes/edit-me.md');
    const none = await s.call('edit_document', { kind: 'process', id: 'edit-me', old_str: 'one ', new_str: 'x' });
    expect(none.isError).toBe(true);
    expect(textOf(none)).toMatch(/^old_str was not found: it must match the file byte for byte/);
    const many = await s.call('edit_document', { kind: 'process', id: 'edit-me', old_str: 'two', new_str: '2' });
    expect(many.isError).toBe(true);
    expect(textOf(many)).toBe('old_str occurs 2 times: add text around it to make it unique, or pass replace_all: true to replace all 2.');
    expect(fileHash(root, 'processes/edit-me.md')).toBe(before);
    structuredOf<Written>(await s.call('edit_document', { kind: 'process', id: 'edit-me', old_str: 'two', new_str: '2', replace_all: true }));
    expect(readFileSync(join(root, 'processes/edit-me.md'), 'utf8')).toBe(processText('Edit Me', 'ONE 2 2 three'));
  });

  it('expected_sha256: a mismatch writes nothing and names the current hash; the hash a write answers chains the next', async () => {
    const current = fileHash(root, 'processes/edit-me.md');
    const wrong = await s.call('edit_document', { kind: 'process', id: 'edit-me', old_str: 'three', new_str: '3', expected_sha256: 'a'.repeat(64) });
    expect(wrong.isError).toBe(true);
    expect(textOf(wrong)).toBe(
      `edit_document wrote nothing: processes/edit-me.md does not have the expected sha256; it is now ${current}. Read it again, then retry with that hash.`,
    );
    expect(fileHash(root, 'processes/edit-me.md')).toBe(current);
    const ok = structuredOf<Written>(
      await s.call('edit_document', { kind: 'process', id: 'edit-me', old_str: 'three', new_str: '3', expected_sha256: current }),
    );
    expect(ok.sha256).toBe(fileHash(root, 'processes/edit-me.md'));
    const next = structuredOf<Written>(
      await s.call('edit_document', { kind: 'process', id: 'edit-me', old_str: '3', new_str: 'three', expected_sha256: ok.sha256 }),
    );
    expect(next.written).toBe(true);
  });

  it('the ratchet: a document that already fails is written when it gains no error, refused with new_errors when it does', async () => {
    const path = 'processes/broken-key.md';
    const fixed = structuredOf<Written>(await s.call('edit_document', { kind: 'process', path, old_str: 'This process', new_str: 'This old process' }));
    expect(fixed.written).toBe(true);
    expect(fixed.remaining_errors).toBe('3:1 Unexpected key `owner`, expected one of: `name`, `description` [unknown-key]');
    expect(readFileSync(join(root, path), 'utf8')).toContain('This old process');
    const before = fileHash(root, path);
    // A second unknown key is an error the document did not have (the old one moved a line: positions do not count).
    const worse = structuredOf<Refused>(await s.call('edit_document', { kind: 'process', path, old_str: 'owner: nobody', new_str: 'team: a\nowner: nobody' }));
    expect(worse.written).toBe(false);
    expect(worse.new_errors).toBe('3:1 Unexpected key `team`, expected one of: `name`, `description` [unknown-key]');
    expect(worse.error.split('\n')).toHaveLength(2);
    expect(fileHash(root, path)).toBe(before);
    // A repair removes the old error: then it passes.
    const repaired = structuredOf<Written>(await s.call('edit_document', { kind: 'process', path, old_str: 'owner: nobody\n', new_str: '' }));
    expect(repaired).toMatchObject({ written: true, warnings: '' });
    expect(repaired.remaining_errors).toBeUndefined();
  });

  it('keeps the mode of the file it replaces (640 stays 640) and leaves no temporary file', async () => {
    chmodSync(join(root, 'processes/edit-me.md'), 0o640);
    structuredOf<Written>(await s.call('edit_document', { kind: 'process', id: 'edit-me', old_str: 'ONE', new_str: 'One' }));
    expect(statSync(join(root, 'processes/edit-me.md')).mode & 0o777).toBe(0o640);
    for (const dir of ['processes', 'frameworks', 'docs/sysrs']) expect(readdirSync(join(root, dir)).filter((n) => n.endsWith('.tmp'))).toEqual([]);
  });
});

describe('update_document: the splice of body lines, numbered as get_sysrs numbered shows them', () => {
  let root: string;
  let s: McpSession;
  beforeAll(async () => {
    ({ root, s } = await serveCopy());
  });
  afterAll(() => s.close());

  const numbered = async (): Promise<string[]> =>
    textOf(await s.call('get_sysrs', { id: ALPHA, raw: true, numbered: true }))
      .split('\n')
      .slice(0, -1);
  const lineOf = (lines: string[], text: string): number => Number(lines.find((l) => l.endsWith(`: ${text}`))!.split(':')[0]);

  it('replaces the line whose number numbered shows, inserts with limit 0, appends at last + 1', async () => {
    const lines = await numbered();
    const n = lineOf(lines, 'Scope of Alpha.');
    const replaced = structuredOf<Written>(await s.call('update_document', { kind: 'sysrs', id: ALPHA, offset: n, limit: 1, content: 'The scope, restated.' }));
    expect(replaced.written).toBe(true);
    const after = await numbered();
    expect(after[n - 1]).toBe(`${n}: The scope, restated.`);
    expect(after).toHaveLength(lines.length);

    const m = lineOf(after, 'Context text.');
    structuredOf<Written>(await s.call('update_document', { kind: 'sysrs', id: ALPHA, offset: m, limit: 0, content: 'Before the context.\n\n' }));
    const inserted = await numbered();
    expect(inserted.slice(m - 1, m + 2)).toEqual([`${m}: Before the context.`, `${m + 1}: `, `${m + 2}: Context text.`]);

    const last = inserted.length;
    structuredOf<Written>(
      await s.call('update_document', { kind: 'sysrs', id: ALPHA, offset: last + 1, content: '- REQ 2c2d3e4f-5a6b-4c7d-8e9f-0a1b2c3d4e5f: Write documents\n' }),
    );
    const appended = await numbered();
    expect(appended).toEqual([...inserted, `${last + 1}: - REQ 2c2d3e4f-5a6b-4c7d-8e9f-0a1b2c3d4e5f: Write documents`]);
    // The frontmatter is as it was, the body lines as numbered shows them.
    const text = readFileSync(join(root, ALPHA_PATH), 'utf8');
    expect(text.startsWith(`---\nid: ${ALPHA}\n`)).toBe(true);
    expect(text.endsWith('- REQ 2c2d3e4f-5a6b-4c7d-8e9f-0a1b2c3d4e5f: Write documents\n')).toBe(true);
  });

  it('an offset or a limit out of range is an error naming the range, and nothing is written', async () => {
    const n = (await numbered()).length;
    const before = fileHash(root, ALPHA_PATH);
    const far = await s.call('update_document', { kind: 'sysrs', id: ALPHA, offset: n + 2, content: 'x' });
    expect(far.isError).toBe(true);
    expect(textOf(far)).toBe(`offset ${n + 2} is out of range: the body has ${n} lines, so offset is 1..${n + 1} (${n + 1} appends).`);
    const long = await s.call('update_document', { kind: 'sysrs', id: ALPHA, offset: n, limit: 2, content: 'x' });
    expect(textOf(long)).toBe(`limit 2 is out of range: from body line ${n} there is 1 line to replace (0 inserts).`);
    const alone = await s.call('update_document', { kind: 'sysrs', id: ALPHA, limit: 1, content: 'x' });
    expect(textOf(alone)).toMatch(/^limit needs offset/);
    expect(fileHash(root, ALPHA_PATH)).toBe(before);
  });

  it('in a CRLF file each line given gets CRLF; a file without a final newline keeps ending without one', async () => {
    const crlf = processText('Crlf', 'First line.\nSecond line.').replace(/\n/g, '\r\n');
    writeFileSync(join(root, 'processes/crlf.md'), crlf);
    structuredOf<Written>(await s.call('update_document', { kind: 'process', id: 'crlf', offset: 4, limit: 0, content: 'Between.\n' }));
    expect(readFileSync(join(root, 'processes/crlf.md'), 'utf8')).toBe(processText('Crlf', 'First line.\nBetween.\nSecond line.').replace(/\n/g, '\r\n'));
    writeFileSync(join(root, 'processes/open.md'), processText('Open', 'Last line.').slice(0, -1));
    // Body lines: 1 `# Open`, 2 blank, 3 `Last line.` (no newline after it).
    structuredOf<Written>(await s.call('update_document', { kind: 'process', id: 'open', offset: 4, content: 'Appended.' }));
    expect(readFileSync(join(root, 'processes/open.md'), 'utf8')).toBe(processText('Open', 'Last line.\nAppended.').slice(0, -1));
  });

  it('a splice that breaks the outline is refused with the ParseFailureResult of the proposed text', async () => {
    const lines = await numbered();
    const before = fileHash(root, ALPHA_PATH);
    const r = structuredOf<Refused>(
      await s.call('update_document', { kind: 'sysrs', id: ALPHA, offset: lineOf(lines, '## System Scope'), limit: 1, content: '## Scope' }),
    );
    expect(r.written).toBe(false);
    expect(r.error).toMatch(/\[sysrs-/);
    expect(fileHash(root, ALPHA_PATH)).toBe(before);
  });
});

describe('docs/mcp-tools.md lists the write tools', () => {
  it('after the others, each marked as served only with --allow-writes', () => {
    const doc = readFileSync(join(REPO, 'docs', 'mcp-tools.md'), 'utf8');
    for (const name of ['create_document', 'update_document', 'edit_document']) {
      expect(doc).toMatch(new RegExp(`\\| \\[\`${name}\`\\]\\(#${name}\\) \\| [^|]+ \\(only with \`--allow-writes\`\\) \\|`));
      expect(doc.split(`## \`${name}\``)[1]!.split('### Arguments')[0]).toContain('Served only by `docgate mcp --allow-writes`');
    }
    expect(doc.indexOf('## `create_document`')).toBeGreaterThan(doc.indexOf('## `check_content`'));
  });
});

describe('create_document for kinds of your own (test/fixtures/mcp-own-kinds/kinds)', () => {
  let root: string;
  let s: McpSession;
  beforeAll(async () => {
    root = copyRoot(join(REPO, 'test', 'fixtures', 'mcp-own-kinds', 'kinds'));
    s = await startMcp(root, {}, ['--allow-writes']);
  });
  afterAll(() => s.close());

  it('places a folder-id kind by its id, creating the folder; a refused text creates no folder', async () => {
    const content = '# Mobile\n\nRun the simulator before every commit.\n';
    const r = structuredOf<Written>(await s.call('create_document', { kind: 'guide', id: 'mobile', content }));
    expect(r.path).toBe('guides/mobile/AGENTS.md');
    expect(readFileSync(join(root, 'guides/mobile/AGENTS.md'), 'utf8')).toBe(content);
    const got = structuredOf<{ result: { id: string; content: string } }>(await s.call('get_document', { kind: 'guide', id: 'mobile' }));
    expect(got.result).toMatchObject({ id: 'mobile', content });
    const refused = structuredOf<Refused>(await s.call('create_document', { kind: 'guide', id: 'tablet', content: `\uFEFF${content}` }));
    expect(refused.written).toBe(false);
    expect(existsSync(join(root, 'guides/tablet'))).toBe(false);
  });

  it('places a stem kind whose include has a longer suffix (agents/*.agent.md), and asks for a path where the id is in the content', async () => {
    const agent = readFileSync(join(root, 'agents/CSharpExpert.agent.md'), 'utf8');
    const r = structuredOf<Written>(await s.call('create_document', { kind: 'agent', id: 'Reviewer', content: agent }));
    expect(r.path).toBe('agents/Reviewer.agent.md');
    const skill = await s.call('create_document', { kind: 'skill', id: 'docx', content: 'x' });
    expect(textOf(skill)).toMatch(/^A skill document's path does not follow from the id 'docx'/);
    const ignored = await s.call('create_document', { kind: 'note', path: 'notes/private-x.md', content: 'x' });
    expect(textOf(ignored)).toContain("the configuration's `ignores` exclude it");
  });
});
