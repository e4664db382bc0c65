import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { githubStepSummary } from '../src/report/github.js';
import type { SarifLog } from '../src/report/sarif.js';
import { REPO, fixture, lintRoot, runCli } from './helpers.js';

const tmp = mkdtempSync(join(tmpdir(), 'docgate-report-cli-'));
const root = fixture('ci-root');

beforeAll(() => {
  // `npm test` builds first; when this file runs on its own against a missing or older build, build it.
  const built = join(REPO, 'dist', 'report', 'github.js');
  const source = join(REPO, 'src', 'report', 'github.ts');
  if (!existsSync(built) || statSync(built).mtimeMs < statSync(source).mtimeMs) {
    const r = spawnSync(process.execPath, [join(REPO, 'node_modules', 'typescript', 'bin', 'tsc'), '-p', 'tsconfig.json'], { cwd: REPO, encoding: 'utf8' });
    expect(r.status, r.stdout + r.stderr).toBe(0);
  }
});
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

describe('docgate lint --format github --format sarif --output FILE (child process)', () => {
  it('prints the github lines and the summary, writes SARIF to the file, and exits 1', () => {
    const out = join(tmp, 'a', 'x.sarif');
    const r = runCli(['lint', '--root', root, '--format', 'github', '--format', 'sarif', '--output', out]);
    expect(r.stderr).toBe('');
    expect(r.code).toBe(1);
    const run = lintRoot(root);
    const lines = r.stdout.trimEnd().split('\n');
    expect(lines).toHaveLength(run.problemCount + 1);
    expect(lines.slice(0, -1).every((l) => /^::error file=[^,]+,line=\d+,col=\d+,title=[a-z-]+::\d+:\d+ .+ \[[a-z-]+\]$/.test(l))).toBe(true);
    expect(lines).toContain(
      '::error file=frameworks/Notes.md,line=1,col=1,title=framework-heading::1:1 Unexpected first line `Notes without a heading: 50%25 done, see below.`, expected a `# ` heading [framework-heading]',
    );
    expect(lines.at(-1)).toBe(`${run.problemCount} problems in ${run.results.length} files (${run.filesChecked} files checked)`);
    const log = JSON.parse(readFileSync(out, 'utf8')) as SarifLog;
    expect(log.version).toBe('2.1.0');
    expect(log.runs[0]!.tool.driver.name).toBe('docgate');
    expect(log.runs[0]!.results).toHaveLength(run.problemCount);
  });

  it('appends the failure table to $GITHUB_STEP_SUMMARY when the github format is used', () => {
    const summary = join(tmp, 'step-summary.md');
    writeFileSync(summary, '# earlier step\n\n');
    const r = runCli(['lint', '--root', root, '--format', 'github', '--format', 'sarif', '--output', join(tmp, 'y.sarif')], {
      env: { GITHUB_STEP_SUMMARY: summary },
    });
    expect(r.code).toBe(1);
    const text = readFileSync(summary, 'utf8');
    expect(text).toBe(`# earlier step\n\n${githubStepSummary(lintRoot(root))}`);
    expect(text).toContain('| File | Line:Col | Rule | Message |');
    expect(text).toContain('| processes/release.md | 4:1 | unknown-key | Unexpected key \\`owner\\`, expected one of: \\`name\\`, \\`description\\` |');
  });

  it('leaves $GITHUB_STEP_SUMMARY alone without the github format, and exits 0 on a clean root', () => {
    const summary = join(tmp, 'untouched.md');
    writeFileSync(summary, '');
    const r = runCli(['lint', '--root', root, '--format', 'sarif', '--output', join(tmp, 'z.sarif')], { env: { GITHUB_STEP_SUMMARY: summary } });
    expect(r.code).toBe(1);
    // SARIF went to a file, so the terminal got the stylish report.
    expect(r.stdout).toContain('frameworks/Notes.md\n  1:1 Unexpected first line');
    expect(readFileSync(summary, 'utf8')).toBe('');

    const clean = runCli(['lint', '--root', root, '--format', 'github', join(root, 'frameworks', 'POWER.md')], { env: { GITHUB_STEP_SUMMARY: summary } });
    expect(clean.code).toBe(0);
    expect(clean.stdout).toBe('0 problems in 0 files (1 file checked)\n');
    expect(readFileSync(summary, 'utf8')).toBe('## docgate\n\n0 problems in 0 files (1 file checked)\n\n');
  });

  it('writes JUnit XML to a file with --format junit --output', () => {
    const out = join(tmp, 'junit.xml');
    const r = runCli(['lint', '--root', root, '--format', 'junit', '--output', out]);
    expect(r.code).toBe(1);
    const xml = readFileSync(out, 'utf8');
    expect(xml.startsWith('<?xml version="1.0" encoding="UTF-8"?>')).toBe(true);
    expect(xml.match(/<testcase /g)).toHaveLength(lintRoot(root).filesChecked);
  });
});
