import { mkdtempSync, readFileSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { powerTemplate, runCli, writeFiles } from './helpers.js';
import { parseCacheFile, serializeCacheFile } from '../src/store/cache-file.js';

/**
 * `docgate lint --cache <files>` answers a few named files with the results across files kept beside
 * the cache's rows, without decoding the rest of their kinds, while each named file keeps its id and
 * facts. Every answer must be the whole run's: each step runs with the cache (timed, to see which way it
 * went) and without it, and compares exit code and report.
 */
const made: string[] = [];
afterAll(() => {
  for (const dir of made) rmSync(dir, { recursive: true, force: true });
});

function processDoc(name: string, body = 'Step one.\n'): string {
  return `---\nname: ${name}\ndescription: How we do it.\n---\n# ${name}\n\n${body}`;
}

const template = powerTemplate;

const FILES = {
  'processes/deploy.md': processDoc('Deploy'),
  'processes/shipping.md': processDoc('deploy'), // a duplicate name: a result across files
  'processes/release.md': processDoc('Release'),
  'templates/power/readme.txt': template('readme', 'readme_summary'),
  'templates/power/api.txt': template('api', 'api_summary', '{{readme_summary}}'),
};

/** A root holding FILES, every file and folder dated an hour back (no cached row or listing is racy). */
function root(): string {
  const dir = mkdtempSync(join(tmpdir(), 'docgate-cache-kept-'));
  made.push(dir);
  writeFiles(dir, FILES);
  for (const path of [...Object.keys(FILES), ...FOLDERS]) age(dir, path);
  return dir;
}

const FOLDERS = ['processes', 'templates/power'];

function age(dir: string, path: string): void {
  const then = new Date(Date.now() - 3600_000);
  utimesSync(join(dir, path), then, then);
}

/**
 * The run with the cache and without it: the same exit code and report; and whether the cached one
 * answered the named files from kept results (`kept`), or every document (`all`).
 */
function both(dir: string, ...paths: string[]): { code: number | null; stdout: string; kept: boolean; all?: true } {
  const cached = runCli(['lint', ...paths, '--cache'], { cwd: dir, env: { DOCGATE_TIMING: '1' } });
  const whole = runCli(['lint', ...paths], { cwd: dir });
  expect({ code: cached.code, stdout: cached.stdout }).toEqual({ code: whole.code, stdout: whole.stdout });
  expect(cached.stderr).toMatch(/^docgate: timing: /);
  const all = /rules across files kept and/.test(cached.stderr);
  return { code: cached.code, stdout: cached.stdout, kept: /rules across files kept for the named files/.test(cached.stderr), ...(all ? { all } : {}) };
}

const DUPLICATE = '2:7 Unexpected duplicate process name `deploy`, expected names unique ignoring case (also in processes/deploy.md) [process-duplicate-name]';

describe('docgate lint --cache <files>: the results across files kept beside the rows', () => {
  it('answers named files from the kept results, unchanged or edited without a change of facts, as the whole run does', () => {
    const dir = root();
    expect(both(dir).kept).toBe(false); // the whole root: rows and results written
    const unchanged = both(dir, 'processes/shipping.md');
    expect(unchanged.kept).toBe(true);
    expect(unchanged.stdout).toContain(`processes/shipping.md\n  ${DUPLICATE}`);
    // Edited in place, its body only: analyzed again, its facts those of its row.
    writeFiles(dir, { 'processes/shipping.md': processDoc('deploy', 'Step one, edited.\n').replace('description:', 'owner: ops\ndescription:') });
    const edited = both(dir, 'processes/shipping.md');
    expect(edited.kept).toBe(true);
    expect(edited.stdout).toContain('3:1 Unexpected key `owner`');
    expect(edited.stdout).toContain('2 problems in 1 file (1 file checked)');
    // The whole root with nothing changed: every document is its row, the kept results answer.
    const whole = both(dir);
    expect(whole.all).toBe(true);
    expect(whole.stdout).toContain(`processes/deploy.md\n  2:7 Unexpected duplicate process name \`Deploy\``);
    // Files of two kinds at once.
    const two = both(dir, 'processes/shipping.md', 'templates/power/api.txt');
    expect(two.kept).toBe(true);
    expect(two.stdout).toContain('(2 files checked)');
    // The whole root with a file changed (not named before): analyzed, the results computed.
    writeFiles(dir, { 'processes/release.md': processDoc('deploy') });
    const changed = both(dir);
    expect(changed.all).toBeUndefined();
    expect(changed.stdout).toContain('processes/release.md\n  2:7 Unexpected duplicate process name `deploy`');
  });

  it('runs whole when a named file changes its facts, another row is racy, the folder changed, or the kept results do not match the rows', () => {
    const dir = root();
    both(dir);
    // A name changed: the duplicate goes, for shipping.md and for deploy.md.
    writeFiles(dir, { 'processes/shipping.md': processDoc('Shipping') });
    const renamed = both(dir, 'processes/shipping.md');
    expect(renamed.kept).toBe(false);
    expect(renamed.stdout).toBe('0 problems in 0 files (1 file checked)\n');
    // shipping.md was just written: its row is racy (its stat may not show a further edit), so a run that
    // does not name it checks it again, as the whole pipeline does.
    expect(both(dir, 'processes/deploy.md').kept).toBe(false);
    age(dir, 'processes/shipping.md');
    expect(both(dir, 'processes/shipping.md').kept).toBe(true); // settled: no longer racy
    expect(both(dir, 'processes/deploy.md')).toEqual({ code: 0, stdout: '0 problems in 0 files (1 file checked)\n', kept: true });
    // A document added next to it: the folder changed, its listing is not trusted.
    writeFiles(dir, { 'processes/audit.md': processDoc('Deploy') });
    const added = both(dir, 'processes/deploy.md');
    expect(added.kept).toBe(false);
    expect(added.code).toBe(1);
    // A row changed in the cache file by another hand: the kept results no longer match the rows.
    age(dir, 'processes/audit.md');
    age(dir, 'processes');
    both(dir);
    expect(both(dir, 'processes/deploy.md').kept).toBe(true);
    const file = join(dir, '.docgatecache');
    const text = readFileSync(file, 'utf8');
    // The same length, so the header's byte ranges still hold: one name in the process rows, changed.
    const sections = (JSON.parse(text.slice(0, text.indexOf('\n'))) as { sections: Record<string, [number, number]> }).sections;
    const [start, end] = sections['process']!;
    const bytes = Buffer.from(text);
    const rows = bytes.toString('utf8', start, end);
    expect(rows).toContain('"Release"');
    bytes.write(rows.replace('"Release"', '"Releasx"'), start);
    writeFileSync(file, bytes);
    expect(both(dir, 'processes/deploy.md').kept).toBe(false);
  });

  it('takes the named files’ results across files from the kept ones, unread, and ignores kept results that do not decode', () => {
    const dir = root();
    both(dir);
    const file = join(dir, '.docgatecache');
    const plant = (rows: (kept: [string, string[], [string, unknown[]][]]) => void): void => {
      const data = parseCacheFile(readFileSync(file))!;
      const kept = JSON.parse(String(data.results!['process'])) as [string, string[], [string, unknown[]][]];
      rows(kept);
      data.results!['process'] = JSON.stringify(kept);
      writeFileSync(file, serializeCacheFile(data));
    };
    // A diagnostic planted in the kept results (the rows, and so their stamp, unchanged) reaches release.md.
    plant((kept) =>
      kept[2].push([
        'processes/release.md',
        [{ line: 2, column: 7, rule: 'process-duplicate-name', message: 'Unexpected planted result, expected it read from the cache' }],
      ]),
    );
    const planted = runCli(['lint', 'processes/release.md', '--cache'], { cwd: dir, env: { DOCGATE_TIMING: '1' } });
    expect(planted.stderr).toContain('rules across files kept for the named files');
    expect(planted.stdout).toContain('processes/release.md\n  2:7 Unexpected planted result, expected it read from the cache [process-duplicate-name]');
    // A path no process can have: the kept results do not decode, and the run goes the whole way.
    plant((kept) => kept[2].push(['../outside.md', []]));
    const refused = both(dir, 'processes/release.md');
    expect(refused.kept).toBe(false);
    expect(refused.stdout).toBe('0 problems in 0 files (1 file checked)\n');
    // That run computed them again from the rows: the next one takes them.
    expect(both(dir, 'processes/release.md').kept).toBe(true);
  });
});
