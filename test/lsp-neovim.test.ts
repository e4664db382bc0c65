import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { BIN, fixture, runCli } from './helpers.js';

/**
 * The language server through a real editor: Debian's Neovim (installed by .ci/run), headless, with
 * its built-in client (`vim.lsp.start_client`, no plugins, no configuration) attached to `docgate lsp`.
 * Without nvim the test fails, saying how to install it: it is never skipped.
 */

const made: string[] = [];
afterAll(() => {
  for (const d of made) rmSync(d, { recursive: true, force: true });
});

describe('docgate lsp in Neovim', () => {
  it('Neovim reads docgate’s diagnostics for a broken process, as lint gives them', () => {
    const version = spawnSync('nvim', ['--version'], { encoding: 'utf8' });
    expect(version.error, 'nvim is not installed: apt-get install -y neovim (as .ci/run does)').toBeUndefined();
    expect(version.stdout).toMatch(/^NVIM v0\.(?:[7-9]|\d\d)|^NVIM v[1-9]/);
    const root = fixture('rules', 'process-unknown-key');
    const file = 'processes/code-review.md';
    const lint = JSON.parse(runCli(['lint', '--format', 'json'], { cwd: root }).stdout) as {
      results: { path: string; diagnostics: { line: number; column: number; rule: string; message: string }[] }[];
    };
    const expected = lint.results.find((r) => r.path === file)!.diagnostics;
    expect(expected.length).toBeGreaterThan(0);
    const dir = mkdtempSync(join(tmpdir(), 'docgate-nvim-'));
    made.push(dir);
    const out = join(dir, 'diagnostics.json');
    const env = {
      ...process.env,
      DOCGATE_NVIM_FILE: file,
      DOCGATE_NVIM_OUT: out,
      DOCGATE_NODE: process.execPath,
      DOCGATE_BIN: BIN,
      XDG_STATE_HOME: dir,
      XDG_DATA_HOME: dir,
    };
    delete env.DOCGATE_ROOT;
    const r = spawnSync('nvim', ['--headless', '-u', 'NONE', '-i', 'NONE', '-n', '-c', `luafile ${fixture('lsp', 'neovim', 'diagnostics.lua')}`], {
      cwd: root,
      env,
      encoding: 'utf8',
      timeout: 40_000,
    });
    expect(r.error).toBeUndefined();
    const got = JSON.parse(readFileSync(out, 'utf8')) as {
      waited: boolean;
      diagnostics: { lnum: number; col: number; message: string; source: string; severity: number; code: string }[];
    };
    expect(got.waited).toBe(true);
    const byPlace = (a: { line: number; column: number }, b: { line: number; column: number }) => a.line - b.line || a.column - b.column;
    expect(
      got.diagnostics
        .map((d) => ({ line: d.lnum + 1, column: d.col + 1, rule: d.code, message: d.message, source: d.source, severity: d.severity }))
        .sort(byPlace),
    ).toEqual(expected.map((d) => ({ line: d.line, column: d.column, rule: d.rule, message: d.message, source: 'docgate', severity: 1 })).sort(byPlace));
  }, 60_000);
});
