import { execFileSync } from 'node:child_process';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CONTENT, copyRoot, startMcp, structuredOf, textOf } from './fixtures/mcp/harness.js';
import type { McpSession } from './fixtures/mcp/harness.js';
import { REPO, runCli } from './helpers.js';

/**
 * The MCP document tools over kinds of your own (docs/mcp-tools.md): list_documents rows with their
 * description, documents without an id listed with their path, get_document by {kind, id} or {path},
 * and output schemas that accept any kind. Over the SDK client, which validates every structured answer
 * against the tool's output schema.
 */
const FIXTURES = join(REPO, 'test', 'fixtures', 'mcp-own-kinds');
const ISSUE = join(FIXTURES, 'issue');
const KINDS = join(FIXTURES, 'kinds');

interface Row {
  id: string | null;
  title: string;
  path: string;
  description?: string;
  error: string | null;
}
interface Failure {
  id: string;
  path: string;
  kind: string;
  error: string;
  diagnostics: unknown[];
  content?: string;
}

/** What `docgate lint --format json` reports for a root: its results by path. */
function lintErrors(root: string): Map<string, string> {
  const out = runCli(['lint', '--root', root, '--format', 'json']);
  const report = JSON.parse(out.stdout) as { results: { path: string; error: string }[] };
  return new Map(report.results.map((r) => [r.path, r.error]));
}

async function rows(s: McpSession, kind: string): Promise<Row[]> {
  return structuredOf<{ results: Row[] }>(await s.call('list_documents', { kind })).results;
}

const roots: string[] = [];
afterAll(() => {
  for (const r of roots) rmSync(r, { recursive: true, force: true });
});

describe('issue 27: a kind of your own for skills (`id: frontmatter`, a field skills do not have)', () => {
  let s: McpSession;
  beforeAll(async () => {
    s = await startMcp(ISSUE);
  });
  afterAll(async () => {
    await s.close();
  });

  it('list_documents lists every skill, none dropped: the ones without an id with id null and their path, the failing one with its error', async () => {
    // On main: isError "internal: skills/algorithmic-art/SKILL.md has neither a row nor a failure".
    const r = await s.call('list_documents', { kind: 'skill' });
    expect(r.isError ?? false, textOf(r)).toBe(false);
    const listed = structuredOf<{ results: Row[] }>(r).results;
    expect(listed.map((x) => [x.id, x.path, x.error === null])).toEqual([
      [null, 'skills/algorithmic-art/SKILL.md', true],
      [null, 'skills/broken/SKILL.md', false],
      [null, 'skills/pdf/SKILL.md', true],
    ]);
    expect(listed[1]!.error).toBe(lintErrors(ISSUE).get('skills/broken/SKILL.md'));
    // A glob on ids matches no document without an id.
    expect(structuredOf<{ results: Row[] }>(await s.call('list_documents', { kind: 'skill', glob: 'SKILL*' })).results).toEqual([]);
  });

  it('get_document by an id no skill has answers that none has it and how to name it, never "changed while it was read"', async () => {
    // On main: "skills/algorithmic-art/SKILL.md changed while it was read; call again", every time.
    for (let i = 0; i < 2; i++) {
      const r = await s.call('get_document', { kind: 'skill', id: 'SKILL' });
      expect(r.isError).toBe(true);
      expect(textOf(r)).toBe("no skill document found with id 'SKILL' (a document without an id is found by its path: {path})");
    }
  });

  it('a skill without an id is opened by its path (id null), its row titled and described by its frontmatter', async () => {
    const listed = await rows(s, 'skill');
    expect(listed.find((x) => x.path === 'skills/pdf/SKILL.md')).toMatchObject({
      id: null,
      title: 'pdf',
      description: 'Extract text and tables from PDF files, fill forms, merge documents.',
    });
    const r = await s.call('get_document', { path: 'skills/pdf/SKILL.md' });
    expect(r.isError ?? false, textOf(r)).toBe(false);
    const doc = structuredOf<{ result: { kind: string; id: string | null; frontmatter: Record<string, unknown>; content: string } }>(r).result;
    expect(doc).toMatchObject({ kind: 'skill', id: null, frontmatter: { name: 'pdf' } });
    expect(doc.content.startsWith('# PDF\n')).toBe(true);
  });

  it('get_document opens a failed row by its path: its ParseFailureResult with the text, its error what lint prints', async () => {
    // On main: isError "unknown argument 'path'".
    const failed = structuredOf<{ result: Failure }>(await s.call('get_document', { path: 'skills/broken/SKILL.md' })).result;
    expect(failed).toMatchObject({ id: 'SKILL', path: 'skills/broken/SKILL.md', kind: 'skill', error: lintErrors(ISSUE).get('skills/broken/SKILL.md') });
    expect(failed.content).toBe('---\nname: broken\n---\n\n# Broken\n\nThis skill has no description.\n');
  });
});

describe('get_document by {path}: a path that is no document says why', () => {
  let s: McpSession;
  beforeAll(async () => {
    s = await startMcp(KINDS);
  });
  afterAll(async () => {
    await s.close();
  });

  it.each([
    ['../notes/deploy.md', "Invalid path '../notes/deploy.md': it goes through '..' (a document is named by its path inside the root);"],
    ['notes/../notes/deploy.md', "Invalid path 'notes/../notes/deploy.md': it goes through '..'"],
    ['/etc/passwd', "Invalid path '/etc/passwd': it lies outside the root;"],
    [`${KINDS}/notes/deploy.md`, `Invalid path '${KINDS}/notes/deploy.md': it is absolute (give it relative to the root: 'notes/deploy.md');`],
    ['notes\\deploy.md', "Invalid path 'notes\\deploy.md': it holds a backslash (give / separators);"],
    ['./notes/deploy.md', "Invalid path './notes/deploy.md': it has a '.' or an empty segment (give it as list_documents shows it);"],
    ['notes/private-keys.md', "'notes/private-keys.md' is not served: the configuration's `ignores` exclude it."],
    [
      'README.md',
      "'README.md' is not a document of any kind of this repository: no kind's include matches it. The kinds: template (templates/power/*.txt); framework (frameworks/*.md); process (processes/*.md); sysrs (docs/sysrs/*.md); note (notes/*.md); skill (skills/*/SKILL.md); agent (agents/*.agent.md); playbook (playbooks/*/PLAYBOOK.md); guide (guides/*/AGENTS.md).",
    ],
    ['.git/notes/x.md', "'.git/notes/x.md' lies in a .git folder, which holds no documents."],
    ['notes/missing.md', "No document at 'notes/missing.md': there is no such file (a note document would be there)."],
  ])('%s', async (path, message) => {
    const r = await s.call('get_document', { path });
    expect(r.isError).toBe(true);
    expect(textOf(r).startsWith(message), textOf(r)).toBe(true);
  });

  it.each([
    [{ kind: 'note' }, "get_document takes either {kind, id} or {path}: 'kind' was given without 'id'."],
    [{ id: 'deploy' }, "get_document takes either {kind, id} or {path}: 'id' was given without 'kind'."],
    [{}, 'get_document takes either {kind, id} or {path}: neither was given.'],
    [{ kind: 'note', id: 'deploy', path: 'notes/deploy.md' }, "get_document takes either {kind, id} or {path}, not both: drop 'kind' and 'id' or 'path'."],
  ])('arguments %j', async (args, message) => {
    const r = await s.call('get_document', args);
    expect(r.isError).toBe(true);
    expect(textOf(r)).toBe(message);
  });

  it('a file git ignores is not served, and the answer says so', async () => {
    const dir = copyRoot(KINDS, 'docgate-own-kinds-');
    roots.push(dir);
    writeFileSync(join(dir, '.gitignore'), 'notes/secret.md\n');
    writeFileSync(join(dir, 'notes', 'secret.md'), '---\ntitle: Secret\n---\n\nhunter2\n');
    execFileSync('git', ['init', '-q'], { cwd: dir });
    const g = await startMcp(dir);
    try {
      const r = await g.call('get_document', { path: 'notes/secret.md' });
      expect(r.isError).toBe(true);
      expect(textOf(r)).toBe("'notes/secret.md' is not served: git ignores it (docgate serves no file git ignores).");
    } finally {
      await g.close();
    }
  }, 30_000);
});

describe('list_documents and get_document for a kind of your own with ids from the stem', () => {
  let s: McpSession;
  beforeAll(async () => {
    s = await startMcp(KINDS);
  });
  afterAll(async () => {
    await s.close();
  });

  it('rows carry the frontmatter description when there is one', async () => {
    // On main: rows are {id, title, path, error}, no description.
    expect(await rows(s, 'note')).toEqual([
      { id: 'deploy', title: 'Deploying', path: 'notes/deploy.md', description: 'How a release reaches production.', error: null },
      { id: 'glossary', title: 'Glossary', path: 'notes/glossary.md', error: null },
    ]);
  });

  it('get_document by {kind, id} and by {path} answer the same document', async () => {
    const byId = structuredOf<{ result: unknown }>(await s.call('get_document', { kind: 'note', id: 'deploy' })).result;
    const byPath = structuredOf<{ result: unknown }>(await s.call('get_document', { path: 'notes/deploy.md' })).result;
    expect(byId).toEqual({
      kind: 'note',
      id: 'deploy',
      frontmatter: { title: 'Deploying', description: 'How a release reaches production.' },
      content: 'Tag, build, ship.\n',
    });
    expect(byPath).toEqual(byId);
  });
});

describe('list_documents and get_document for kinds of your own with ids from a field, the folder, the stem, and a body-only kind', () => {
  let s: McpSession;
  const lint = lintErrors(KINDS);
  beforeAll(async () => {
    s = await startMcp(KINDS);
  });
  afterAll(async () => {
    await s.close();
  });

  /** A document got by {kind, id} and by {path}: the same answer. */
  async function both(kind: string, id: string, path: string): Promise<unknown> {
    const byId = structuredOf<{ result: unknown }>(await s.call('get_document', { kind, id })).result;
    const byPath = structuredOf<{ result: unknown }>(await s.call('get_document', { path })).result;
    expect(byPath).toEqual(byId);
    return byId;
  }

  it('ids from a frontmatter field (skill `name`): rows with their descriptions, a skill found by id and by path', async () => {
    expect(await rows(s, 'skill')).toEqual([
      // Code point order: `-` sorts before `/`.
      { id: null, title: '<failed to parse>', path: 'skills/pdf-x/SKILL.md', error: lint.get('skills/pdf-x/SKILL.md') },
      {
        id: 'pdf',
        title: 'pdf',
        path: 'skills/pdf/SKILL.md',
        description: 'Extract text and tables from PDF files, fill forms, merge documents.',
        error: null,
      },
      { id: 'xlsx', title: 'xlsx', path: 'skills/xlsx/SKILL.md', description: 'Read and write spreadsheets.', error: null },
    ]);
    expect(await both('skill', 'pdf', 'skills/pdf/SKILL.md')).toEqual({
      kind: 'skill',
      id: 'pdf',
      frontmatter: { name: 'pdf', description: 'Extract text and tables from PDF files, fill forms, merge documents.' },
      content: '# PDF\n\nUse pypdf for text, pdfplumber for tables.\n',
    });
  });

  it('a failed skill opened by its path is its ParseFailureResult with its text, the same as by the id its name gives', async () => {
    const byPath = structuredOf<{ result: Failure }>(await s.call('get_document', { path: 'skills/pdf-x/SKILL.md' })).result;
    expect(byPath).toMatchObject({ path: 'skills/pdf-x/SKILL.md', kind: 'skill', error: lint.get('skills/pdf-x/SKILL.md') });
    expect(byPath.error).toContain('[skill-path-match]');
    expect(byPath.content).toBe('---\nname: pdf-tools\ndescription: More PDF tools.\n---\n\n# PDF tools\n\nSplit and merge.\n');
    expect(structuredOf<{ result: Failure }>(await s.call('get_document', { kind: 'skill', id: 'pdf-tools' })).result).toEqual(byPath);
  });

  it('ids from the stem without the include suffix (`*.agent.md` → CSharpExpert)', async () => {
    expect(await rows(s, 'agent')).toEqual([
      { id: 'CSharpExpert', title: 'CSharpExpert', path: 'agents/CSharpExpert.agent.md', description: 'Writes idiomatic, tested C# code.', error: null },
    ]);
    expect(await both('agent', 'CSharpExpert', 'agents/CSharpExpert.agent.md')).toEqual({
      kind: 'agent',
      id: 'CSharpExpert',
      frontmatter: { description: 'Writes idiomatic, tested C# code.', tools: ['read', 'edit'] },
      content: 'You are a C# expert.\n',
    });
  });

  it('ids from the folder (playbooks/release/PLAYBOOK.md → release)', async () => {
    expect(await rows(s, 'playbook')).toEqual([
      { id: 'release', title: 'Release', path: 'playbooks/release/PLAYBOOK.md', description: 'Cutting a release, step by step.', error: null },
    ]);
    expect(await both('playbook', 'release', 'playbooks/release/PLAYBOOK.md')).toMatchObject({
      kind: 'playbook',
      id: 'release',
      content: '1. Tag.\n2. Build.\n',
    });
  });

  it('a body-only kind (`frontmatter: none`): listed and read, its frontmatter empty, its body the whole file', async () => {
    expect(await rows(s, 'guide')).toEqual([
      { id: 'backend', title: 'backend', path: 'guides/backend/AGENTS.md', error: null },
      { id: 'frontend', title: 'frontend', path: 'guides/frontend/AGENTS.md', error: null },
    ]);
    expect(await both('guide', 'backend', 'guides/backend/AGENTS.md')).toEqual({
      kind: 'guide',
      id: 'backend',
      frontmatter: {},
      content: '# Backend\n\nRun `make test` before every commit.\n',
    });
  });
});

describe("get_document's output schema describes what comes back", () => {
  let s: McpSession;
  beforeAll(async () => {
    s = await startMcp(CONTENT);
  });
  afterAll(async () => {
    await s.close();
  });

  it('a branch per kind of document, each with its properties (on main: a bare {type: object})', () => {
    const get = s.tools.find((t) => t.name === 'get_document')!;
    const branches = (get.outputSchema!.properties as { result: { anyOf: { properties?: Record<string, unknown>; required?: string[] }[] } }).result.anyOf;
    expect(branches.length).toBe(6);
    for (const b of branches) {
      expect(Object.keys(b.properties ?? {})).toContain('kind');
      expect(b.required).toContain('kind');
    }
  });

  it('every built-in kind opened by path validates against it (the client checks each answer)', async () => {
    for (const path of ['templates/power/alpha.txt', 'frameworks/COSTAR.md', 'processes/code-review.md', 'docs/sysrs/alpha.md', 'docs/sysrs/de/alpha.md']) {
      const r = await s.call('get_document', { path });
      expect(r.isError ?? false, `${path}: ${textOf(r)}`).toBe(false);
    }
    const failed = structuredOf<{ result: Failure }>(await s.call('get_document', { path: 'processes/broken-key.md' })).result;
    expect(failed.kind).toBe('process');
  });
});

describe('a kind added to the configuration while the server runs', () => {
  it("validates in answers whose schemas the client took before (a ParseFailureResult's kind is any kind's name)", async () => {
    const dir = copyRoot(KINDS, 'docgate-own-kinds-');
    roots.push(dir);
    const s = await startMcp(dir);
    try {
      expect(structuredOf<{ results: Failure[] }>(await s.call('validate')).results.map((f) => f.kind)).toEqual(['skill']);
      mkdirSync(join(dir, 'memos'));
      writeFileSync(join(dir, 'memos', 'q3.md'), '---\ntitle: Q3\nowner: me\n---\n\nPlans.\n');
      writeFileSync(
        join(dir, 'docgate.config.yaml'),
        'kinds:\n  note:\n    include: ["notes/*.md"]\n    id: stem\n    frontmatter: note.schema.json\n  memo:\n    include: ["memos/*.md"]\n    id: stem\n    frontmatter: note.schema.json\n',
      );
      // On main: the client refuses the answer (kind `memo` is not in the enum it took from tools/list).
      const run = structuredOf<{ results: Failure[] }>(await s.call('validate'));
      expect(run.results.map((f) => [f.kind, f.path])).toEqual([['memo', 'memos/q3.md']]);
      const got = structuredOf<{ result: Failure }>(await s.call('get_document', { path: 'memos/q3.md' })).result;
      expect(got).toMatchObject({ kind: 'memo', path: 'memos/q3.md' });
    } finally {
      await s.close();
    }
  }, 30_000);
});
