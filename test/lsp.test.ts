import { readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { TextDocument } from 'vscode-languageserver-textdocument';
import type { CodeAction, CompletionItem, Diagnostic, Hover, TextEdit } from 'vscode-languageserver-protocol';
import { execFile } from 'node:child_process';
import { BIN, filesUnder, fixture, powerTemplate, runCli, tempRoot } from './helpers.js';
import { startLsp } from './fixtures/lsp/harness.js';
import { RULE_DESCRIPTIONS } from '../src/report/rule-descriptions.js';
import type { LspClient } from './fixtures/lsp/harness.js';

/**
 * `docgate lsp` as an editor meets it: the server over stdio, spoken to by a client made with
 * vscode-languageserver-protocol (test/fixtures/lsp/harness.ts). Its diagnostics are lint's, for the
 * buffers' texts laid over the disk.
 */

const made: string[] = [];
const clients: LspClient[] = [];
afterAll(async () => {
  for (const c of clients) if (c.child.exitCode === null) c.child.kill();
  for (const d of made) rmSync(d, { recursive: true, force: true });
});

async function start(root: string, options: Parameters<typeof startLsp>[1] = {}): Promise<LspClient> {
  const c = await startLsp(root, options);
  clients.push(c);
  return c;
}

interface LintDiagnostic {
  line: number;
  column: number;
  endLine?: number;
  endColumn?: number;
  rule: string;
  message: string;
  severity?: 'warning';
}

type Report = { results: { path: string; diagnostics: LintDiagnostic[] }[]; warnings?: { path: string; diagnostics: LintDiagnostic[] }[] };

/** Every document with findings in lint's json report, path → its diagnostics. */
function findingsOf(stdout: string): Map<string, LintDiagnostic[]> {
  const report = JSON.parse(stdout) as Report;
  return new Map([...report.results, ...(report.warnings ?? [])].map((x) => [x.path, x.diagnostics]));
}

/** lint's json report of a root. */
function lintJson(root: string): Map<string, LintDiagnostic[]> {
  return findingsOf(runCli(['lint', '--format', 'json'], { cwd: root }).stdout);
}

/** The same, the CLI run without blocking (many roots at once). */
async function lintJsonAsync(root: string): Promise<Map<string, LintDiagnostic[]>> {
  const env = { ...process.env };
  delete env.DOCGATE_ROOT;
  const stdout = await new Promise<string>((resolve) =>
    execFile(process.execPath, [BIN, 'lint', '--format', 'json'], { cwd: root, env, maxBuffer: 64 * 1024 * 1024 }, (_e, out) => resolve(out)),
  );
  return findingsOf(stdout);
}

/** A published diagnostic as lint writes it: message, rule, 1-based line and column, severity. */
function asLint(d: Diagnostic): { line: number; column: number; rule: string; message: string; severity: string } {
  expect(d.source).toBe('docgate');
  return {
    line: d.range.start.line + 1,
    column: d.range.start.character + 1,
    rule: String(d.code),
    message: d.message,
    severity: d.severity === 2 ? 'warning' : 'error',
  };
}

function lintShape(d: LintDiagnostic): ReturnType<typeof asLint> {
  return { line: d.line, column: d.column, rule: d.rule, message: d.message, severity: d.severity ?? 'error' };
}

/** The text after a WorkspaceEdit's changes to one document. */
function applyEdit(uri: string, text: string, action: CodeAction): string {
  const edits: TextEdit[] = action.edit?.changes?.[uri] ?? [];
  return TextDocument.applyEdits(TextDocument.create(uri, 'markdown', 1, text), edits);
}

const DIAGNOSTIC_KINDS = ['rules', 'fix', 'presets'];

/** Every fixture root of the lint tests that lint fails or warns on (the fix fixtures' `root` folders). */
function brokenRoots(): string[] {
  const roots: string[] = [];
  for (const group of DIAGNOSTIC_KINDS) {
    for (const name of readdirSync(fixture(group))) {
      const dir = group === 'fix' ? fixture(group, name, 'root') : fixture(group, name);
      roots.push(dir);
    }
  }
  return roots;
}

describe('docgate lsp: diagnostics', () => {
  it('publishes for every broken fixture of the lint tests exactly lint’s diagnostics (message, rule, line, column, severity)', async () => {
    let documents = 0;
    const one = async (root: string): Promise<void> => {
      const expected = await lintJsonAsync(root);
      if (expected.size === 0) return;
      const c = await start(root);
      const pending = [...expected.keys()].map((path) => {
        const p = c.published(path);
        c.open(path);
        return p.then((d) => ({ path, d }));
      });
      for (const { path, d } of await Promise.all(pending)) {
        const lint = expected.get(path)!;
        expect(d.map(asLint), `${root}: ${path}`).toEqual(lint.map(lintShape));
        d.forEach((x, i) => {
          // The rule's section of docs/rules.md, as SARIF links it (kinds of a configuration's own have none there).
          const href = Object.hasOwn(RULE_DESCRIPTIONS, lint[i]!.rule)
            ? `https://github.com/docgate/docgate/blob/HEAD/docs/rules.md#${lint[i]!.rule}`
            : undefined;
          expect(x.codeDescription?.href).toBe(href);
          if (lint[i]!.endLine !== undefined) expect(x.range.end).toEqual({ line: lint[i]!.endLine! - 1, character: lint[i]!.endColumn! - 1 });
        });
        documents++;
      }
      expect(await c.stop()).toBe(0);
    };
    const roots = brokenRoots();
    // A few servers at a time: each root is a server of its own.
    for (let i = 0; i < roots.length; i += 6) await Promise.all(roots.slice(i, i + 6).map(one));
    expect(documents).toBeGreaterThan(40);
  }, 240_000);

  it('lints as you type: a buffer broken and mended, never written', async () => {
    const root = tempRoot('docgate-lsp-type-', { 'templates/power/readme.txt': powerTemplate('readme', 'readme_summary') }, made);
    const c = await start(root);
    const path = 'templates/power/readme.txt';
    const text = readFileSync(join(root, path), 'utf8');
    const first = c.published(path);
    c.open(path);
    expect(await first).toEqual([]);
    const broken = c.published(path, (d) => d.length > 0);
    c.change(path, text.replace('framework: POWER', 'framework: COSTAR'));
    expect((await broken).map(asLint)).toEqual([
      {
        line: 1,
        column: 12,
        rule: 'invalid-value',
        message: 'Unexpected `framework` value `COSTAR`, expected `POWER` (the framework name `POWER`)',
        severity: 'error',
      },
    ]);
    const mended = c.published(path, (d) => d.length === 0);
    c.change(path, text);
    expect(await mended).toEqual([]);
    expect(readFileSync(join(root, path), 'utf8')).toBe(text);
  });

  it('a template’s store_as changed in a buffer updates the diagnostics of its closed user', async () => {
    const root = tempRoot(
      'docgate-lsp-store-',
      {
        'templates/power/setup.txt': powerTemplate('setup', 'setup_summary'),
        'templates/power/readme.txt': powerTemplate('readme', 'readme_summary', '{{setup_summary}}'),
      },
      made,
    );
    const c = await start(root);
    const setup = 'templates/power/setup.txt';
    const user = 'templates/power/readme.txt';
    const text = readFileSync(join(root, setup), 'utf8');
    const first = c.published(setup);
    c.open(setup);
    expect(await first).toEqual([]);
    const reached = c.published(user, (d) => d.length > 0);
    c.change(setup, text.replace('store_as: setup_summary', 'store_as: setup_notes'));
    // What lint says of the user once the file holds that text.
    writeFileSync(join(root, setup), text.replace('store_as: setup_summary', 'store_as: setup_notes'));
    const lint = lintJson(root).get(user)!;
    writeFileSync(join(root, setup), text);
    expect(lint.map((d) => d.rule)).toContain('template-placeholder');
    expect((await reached).map(asLint)).toEqual(lint.map(lintShape));
    const cleared = c.published(user, (d) => d.length === 0);
    c.change(setup, text);
    expect(await cleared).toEqual([]);
  });

  it('a duplicate process name typed in one buffer marks both documents, and is gone with the edit', async () => {
    const doc = (name: string) => `---\nname: ${name}\ndescription: A process.\n---\n# ${name}\n\nSteps.\n`;
    const root = tempRoot('docgate-lsp-dup-', { 'processes/a.md': doc('Release'), 'processes/b.md': doc('Deploy') }, made);
    const c = await start(root);
    const firstA = c.published('processes/a.md');
    const firstB = c.published('processes/b.md');
    c.open('processes/a.md');
    c.open('processes/b.md');
    expect(await firstA).toEqual([]);
    expect(await firstB).toEqual([]);
    const dupA = c.published('processes/a.md', (d) => d.length > 0);
    const dupB = c.published('processes/b.md', (d) => d.length > 0);
    c.change('processes/b.md', doc('release'));
    writeFileSync(join(root, 'processes/b.md'), doc('release'));
    const lint = lintJson(root);
    writeFileSync(join(root, 'processes/b.md'), doc('Deploy'));
    expect((await dupA).map(asLint)).toEqual(lint.get('processes/a.md')!.map(lintShape));
    expect((await dupB).map(asLint)).toEqual(lint.get('processes/b.md')!.map(lintShape));
    expect(lint.get('processes/a.md')![0]!.rule).toBe('process-duplicate-name');
    // Closed, it is still told: its findings come from its file and the open buffer.
    const still = c.published('processes/a.md', (d) => d.length > 0);
    c.closeDoc('processes/a.md');
    expect((await still).map(asLint)).toEqual(lint.get('processes/a.md')!.map(lintShape));
    const gone = c.published('processes/a.md', (d) => d.length === 0);
    c.change('processes/b.md', doc('Deploy'));
    expect(await gone).toEqual([]);
  });

  it('a configuration broken while the server runs: one diagnostic on the file at its position; documents keep their last results; mended, it goes', async () => {
    const root = tempRoot(
      'docgate-lsp-config-',
      {
        'docgate.config.yaml': 'rules:\n  empty-value: warn\n',
        'templates/power/readme.txt': powerTemplate('readme', 'readme_summary').replace('work: Read the code.', 'work:'),
      },
      made,
    );
    const c = await start(root);
    const path = 'templates/power/readme.txt';
    const first = c.published(path);
    c.open(path);
    expect((await first).map(asLint)).toEqual(lintJson(root).get(path)!.map(lintShape));
    expect((await c.published(path, () => true, 1).catch(() => 'none')) === 'none').toBe(true);
    const config = 'docgate.config.yaml';
    const broken = c.published(config, (d) => d.length > 0);
    writeFileSync(join(root, config), 'rules:\n  no-such-rule: warn\n');
    void c.connection.sendNotification('workspace/didChangeWatchedFiles', { changes: [{ uri: c.uri(config), type: 2 }] });
    const cli = runCli(['lint'], { cwd: root });
    expect(cli.stderr).toContain('docgate.config.yaml:2:3 Unexpected rule id `no-such-rule`');
    const d = await broken;
    expect(d).toEqual([
      {
        range: { start: { line: 1, character: 2 }, end: { line: 1, character: 2 } },
        severity: 1,
        source: 'docgate',
        message: 'Unexpected rule id `no-such-rule`, expected a rule id of docgate (see docs/rules.md) or of a configured kind',
      },
    ]);
    // The document keeps what it had: nothing was published for it since.
    c.change(path, readFileSync(join(root, path), 'utf8'));
    const pulledHover = await c.request<Hover | null>('textDocument/hover', { textDocument: { uri: c.uri(path) }, position: { line: 0, character: 1 } });
    expect(pulledHover).toBeNull();
    expect(c.last(path)!.map((x) => x.code)).toEqual(['empty-value']);
    const mended = c.published(config, (x) => x.length === 0);
    const relinted = c.published(path);
    writeFileSync(join(root, config), 'rules:\n  empty-value: error\n');
    void c.connection.sendNotification('workspace/didChangeWatchedFiles', { changes: [{ uri: c.uri(config), type: 2 }] });
    expect(await mended).toEqual([]);
    expect((await relinted).map(asLint)).toEqual(lintJson(root).get(path)!.map(lintShape));
    expect((await relinted)[0]!.severity).toBe(1);
  });
});

describe('docgate lsp: code actions', () => {
  const codeActions = (c: LspClient, path: string, d: Diagnostic | null, only?: string[]) =>
    c.request<CodeAction[]>('textDocument/codeAction', {
      textDocument: { uri: c.uri(path) },
      range: d?.range ?? { start: { line: 0, character: 0 }, end: { line: 0, character: 0 } },
      context: { diagnostics: d ? [d] : [], ...(only ? { only } : {}) },
    });

  it('source.fixAll.docgate gives what --fix writes, for every fix fixture; each quick fix applied and linted again removes its finding', async () => {
    let quick = 0;
    for (const name of readdirSync(fixture('fix'))) {
      const root = fixture('fix', name, 'root');
      const c = await start(root);
      for (const path of filesUnder(root)) {
        const text = readFileSync(join(root, path), 'utf8');
        const first = c.published(path);
        c.open(path);
        const found = await first;
        const uri = c.uri(path);
        const all = await codeActions(c, path, null, ['source.fixAll']);
        const fixed = readFileSync(fixture('fix', name, 'fixed', path), 'utf8');
        if (fixed === text) {
          expect(all).toEqual([]);
          continue;
        }
        expect(all.map((a) => a.kind)).toEqual(['source.fixAll.docgate']);
        expect(applyEdit(uri, text, all[0]!), `${name}: ${path}`).toBe(fixed);
        for (const d of found) {
          const actions = (await codeActions(c, path, d, ['quickfix'])).filter((a) => a.title === `Fix this ${d.code} problem`);
          if (actions.length === 0) continue;
          const after = applyEdit(uri, text, actions[0]!);
          const relinted = c.published(path, (x) => JSON.stringify(x) !== JSON.stringify(found));
          c.change(path, after);
          const left = await relinted;
          expect(left.filter((x) => x.code === d.code && x.message === d.message && x.range.start.line === d.range.start.line)).toEqual([]);
          const back = c.published(path, (x) => JSON.stringify(x) === JSON.stringify(found));
          c.change(path, text);
          await back;
          quick++;
        }
      }
      await c.stop();
    }
    expect(quick).toBeGreaterThan(8);
  });

  it('“disable <rule> for this line” inserts the directive in the document’s syntax, and linted again the finding is gone without an unused directive', async () => {
    const cases: { name: string; path: string; rule: string; line: string }[] = [
      { name: 'template-framework', path: 'templates/power/readme.txt', rule: 'invalid-value', line: '# docgate-disable-next-line invalid-value' },
      { name: 'process-unknown-key', path: 'processes/code-review.md', rule: 'unknown-key', line: '# docgate-disable-next-line unknown-key' },
      { name: 'hidden-unicode', path: 'processes/onboarding.md', rule: 'hidden-unicode', line: '<!-- docgate-disable-next-line hidden-unicode -->' },
    ];
    for (const k of cases) {
      const root = k.name === 'hidden-unicode' ? fixture('fix', k.name, 'root') : fixture('rules', k.name);
      const path = k.path;
      const c = await start(root);
      const text = readFileSync(join(root, path), 'utf8');
      const first = c.published(path);
      c.open(path);
      const found = await first;
      const d = found.find((x) => x.code === k.rule && (k.name !== 'hidden-unicode' || x.range.start.line > 2))!;
      expect(d, `${k.name}: ${JSON.stringify(found)}`).toBeDefined();
      const action = (await codeActions(c, path, d)).find((a) => a.title === `Disable ${d.code} for this line`)!;
      expect(action.kind).toBe('quickfix');
      const after = applyEdit(c.uri(path), text, action);
      expect(after.split('\n')[d.range.start.line]?.trim()).toBe(k.line);
      const relinted = c.published(path, (x) => JSON.stringify(x) !== JSON.stringify(found));
      c.change(path, after);
      const left = await relinted;
      expect(left.filter((x) => x.code === d.code && x.message === d.message)).toEqual([]);
      expect(left.map((x) => x.code)).not.toContain('unused-disable-directive');
      await c.stop();
    }
  });
});

describe('docgate lsp: hover and completion', () => {
  const sysrs = `---\nid: 7d1f3c2a-9b8e-4f6d-a5c4-3b2a1f0e9d8c\nstatus: \n---\n# x\n`;

  it('hover on a frontmatter key gives its schema’s description, type, allowed values and default; on a finding its rule and doc link', async () => {
    const root = tempRoot('docgate-lsp-hover-', { 'processes/deploy.md': '---\nname: Deploy\ncolour: red\n---\n# Deploy\n\nSteps.\n' }, made);
    const c = await start(root);
    const path = 'processes/deploy.md';
    const first = c.published(path);
    c.open(path);
    await first;
    const hover = (line: number, character: number, p = path) =>
      c.request<Hover | null>('textDocument/hover', { textDocument: { uri: c.uri(p) }, position: { line, character } });
    const onName = await hover(1, 2);
    expect(onName?.contents).toEqual({
      kind: 'markdown',
      value: '**name**: a non-empty process name (when absent it is derived from the file name)\n\ntype: `string`',
    });
    const onFinding = (await hover(2, 2))!.contents as { value: string };
    expect(onFinding.value).toContain('**unknown-key** (docgate): ');
    expect(onFinding.value).toContain('(https://github.com/docgate/docgate/blob/HEAD/docs/rules.md#unknown-key)');
    expect(await hover(5, 1)).toBeNull();
    c.open('docs/sysrs/x.md', sysrs);
    const onStatus = (await hover(2, 1, 'docs/sysrs/x.md'))!.contents as { value: string };
    expect(onStatus.value).toBe(
      '**status**: one of `draft`, `review`, `approved`, `active`, `retired`\n\ntype: `string` or `null`\n\nallowed: `"draft"`, `"review"`, `"approved"`, `"active"`, `"retired"`\n\ndefault: `"draft"`',
    );
  });

  it('completes the keys a document lacks (required first), enum and boolean values, and POWER field names', async () => {
    const root = tempRoot('docgate-lsp-complete-', {}, made);
    const c = await start(root);
    const complete = (p: string, line: number, character: number) =>
      c.request<CompletionItem[]>('textDocument/completion', { textDocument: { uri: c.uri(p) }, position: { line, character } });
    c.open('docs/sysrs/x.md', '---\n\nstatus: \n---\n# x\n');
    const keys = await complete('docs/sysrs/x.md', 1, 0);
    const sorted = [...keys].sort((a, b) => (a.sortText! < b.sortText! ? -1 : 1)).map((k) => k.label);
    expect(sorted[0]).toBe('id');
    expect(sorted).not.toContain('status');
    expect(sorted).toContain('type');
    expect(keys.find((k) => k.label === 'id')).toMatchObject({ insertText: 'id: ', detail: 'required' });
    const values = await complete('docs/sysrs/x.md', 2, 8);
    expect(values.map((v) => v.label)).toEqual(['draft', 'review', 'approved', 'active', 'retired']);
    c.open('templates/power/a.txt', 'framework: POWER\npurpose: Do it.\n\n');
    const fields = (await complete('templates/power/a.txt', 2, 0)).map((k) => k.label);
    expect(fields).toEqual(['output', 'work', 'examples', 'requirements', 'save_as', 'store_as']);
    const framework = await complete('templates/power/a.txt', 0, 11);
    expect(framework.map((v) => v.label)).toEqual(['POWER']);
    expect(await complete('templates/power/a.txt', 1, 12)).toEqual([]);
  });
});

describe('docgate lsp: pulled diagnostics', () => {
  it('answers textDocument/diagnostic and workspace/diagnostic with lint’s findings, pushes none, and asks for a refresh when an edit reaches another document', async () => {
    const root = fixture('rules', 'process-duplicate-name');
    const c = await start(root, { pull: true });
    const path = 'processes/code-review.md';
    const expected = lintJson(root);
    c.open(path);
    const pulled = await c.request<{ kind: string; items: Diagnostic[] }>('textDocument/diagnostic', { textDocument: { uri: c.uri(path) } });
    expect(pulled.kind).toBe('full');
    expect(pulled.items.map(asLint)).toEqual(expected.get(path)!.map(lintShape));
    const ws = await c.request<{ items: { uri: string; kind: string; items: Diagnostic[] }[] }>('workspace/diagnostic', { previousResultIds: [] });
    expect(ws.items.map((i) => [i.uri, i.items.map(asLint)])).toEqual([[c.uri(path), expected.get(path)!.map(lintShape)]]);
    const text = readFileSync(join(root, path), 'utf8');
    c.change(path, text.replace('Code Review', 'Code Audit'));
    const after = await c.request<{ items: Diagnostic[] }>('textDocument/diagnostic', { textDocument: { uri: c.uri(path) } });
    expect(after.items).toEqual([]);
    expect(c.last(path)).toBeUndefined();
    expect(await c.stop()).toBe(0);
  });

  it('a closed document an edit reaches is in the workspace’s report, and the client is asked to pull again', async () => {
    const doc = (name: string) => `---\nname: ${name}\n---\n# ${name}\n\nSteps.\n`;
    const root = tempRoot('docgate-lsp-pull-', { 'processes/a.md': doc('Release'), 'processes/b.md': doc('Deploy') }, made);
    const c = await start(root, { pull: true });
    c.open('processes/b.md');
    const ws = await c.request<{ items: { uri: string; items: Diagnostic[] }[] }>('workspace/diagnostic', { previousResultIds: [] });
    expect(ws.items.map((i) => [i.uri, i.items.length])).toEqual([[c.uri('processes/b.md'), 0]]);
    const refreshes = c.refreshes;
    c.change('processes/b.md', doc('release'));
    const b = await c.request<{ items: Diagnostic[] }>('textDocument/diagnostic', { textDocument: { uri: c.uri('processes/b.md') } });
    expect(b.items.map((d) => d.code)).toEqual(['process-duplicate-name']);
    const ws2 = await c.request<{ items: { uri: string; items: Diagnostic[] }[] }>('workspace/diagnostic', { previousResultIds: [] });
    writeFileSync(join(root, 'processes/b.md'), doc('release'));
    const lint = lintJson(root);
    expect(ws2.items.map((i) => [i.uri, i.items.map(asLint)])).toEqual([
      [c.uri('processes/b.md'), lint.get('processes/b.md')!.map(lintShape)],
      [c.uri('processes/a.md'), lint.get('processes/a.md')!.map(lintShape)],
    ]);
    expect(c.refreshes).toBeGreaterThan(refreshes);
    expect(c.last('processes/a.md')).toBeUndefined();
  });
});

describe('docgate lsp: bad input', () => {
  it('a 10 MB buffer, a buffer outside the root, one of no kind, changes to a document never opened: answered, and the server keeps serving', async () => {
    const root = tempRoot('docgate-lsp-bad-', { 'README.md': '# Read me\n', 'templates/power/readme.txt': powerTemplate('readme', 'readme_summary') }, made);
    const outside = tempRoot('docgate-lsp-outside-', { 'templates/power/x.txt': 'nonsense\n' }, made);
    const c = await start(root);
    const big = 'templates/power/big.txt';
    const bigDiagnostics = c.published(big);
    c.open(big, `framework: POWER\n${'x'.repeat(10 * 1024 * 1024)}\n`);
    writeFileSync(join(root, big), `framework: POWER\n${'x'.repeat(10 * 1024 * 1024)}\n`);
    const lint = lintJson(root).get(big)!;
    rmSync(join(root, big));
    expect((await bigDiagnostics).map(asLint)).toEqual(lint.map(lintShape));
    void c.connection.sendNotification('textDocument/didOpen', {
      textDocument: { uri: `file://${outside}/templates/power/x.txt`, languageId: 'plaintext', version: 1, text: 'nonsense\n' },
    });
    c.open('README.md');
    c.open('notes.txt', 'anything');
    void c.connection.sendNotification('textDocument/didChange', {
      textDocument: { uri: c.uri('templates/power/never.txt'), version: 2 },
      contentChanges: [{ text: 'x' }],
    });
    void c.connection.sendNotification('textDocument/didOpen', {
      textDocument: { uri: 'untitled:Untitled-1', languageId: 'markdown', version: 1, text: '---\n' },
    });
    const after = c.published('templates/power/readme.txt');
    c.open('templates/power/readme.txt');
    expect(await after).toEqual([]);
    expect(c.last('README.md')).toBeUndefined();
    expect(c.last('notes.txt')).toBeUndefined();
    expect(c.last('templates/power/never.txt')).toBeUndefined();
    const hover = await c.request('textDocument/hover', { textDocument: { uri: c.uri('README.md') }, position: { line: 0, character: 0 } });
    expect(hover).toBeNull();
    expect(
      await c.request('textDocument/codeAction', {
        textDocument: { uri: c.uri('nope.md') },
        range: { start: { line: 0, character: 0 }, end: { line: 0, character: 0 } },
        context: { diagnostics: [] },
      }),
    ).toEqual([]);
    expect(c.stderr()).toBe('');
    expect(await c.stop()).toBe(0);
  });

  it('invalid UTF-8 on disk beside an open buffer: lint’s findings for both', async () => {
    const root = tempRoot('docgate-lsp-utf8-', { 'processes/a.md': '---\nname: A\n---\n# A\n\nSteps.\n' }, made);
    writeFileSync(
      join(root, 'processes/bad.md'),
      Buffer.from([0x2d, 0x2d, 0x2d, 0x0a, 0x6e, 0x61, 0x6d, 0x65, 0x3a, 0x20, 0xff, 0xfe, 0x0a, 0x2d, 0x2d, 0x2d, 0x0a]),
    );
    const expected = lintJson(root);
    expect(expected.get('processes/bad.md')!.map((d) => d.rule)).toEqual(['file-encoding']);
    const c = await start(root);
    const a = c.published('processes/a.md');
    c.open('processes/a.md');
    expect(await a).toEqual([]);
    expect(await c.stop()).toBe(0);
  });

  it('requests after shutdown are refused as the protocol asks (InvalidRequest), and exit ends the server with 0', async () => {
    const root = fixture('rules', 'process-duplicate-name');
    const c = await start(root);
    await c.connection.sendRequest('shutdown');
    await expect(
      c.request('textDocument/hover', { textDocument: { uri: c.uri('processes/code-review.md') }, position: { line: 0, character: 0 } }),
    ).rejects.toMatchObject({
      code: -32600,
    });
    const exited = new Promise<number | null>((resolve) => c.child.once('exit', resolve));
    void c.connection.sendNotification('exit');
    expect(await exited).toBe(0);
  });
});
