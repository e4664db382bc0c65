import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { runCli } from './helpers.js';

/**
 * Inline directives (SPEC §8) in each place they can be written: markdown bodies, YAML frontmatter and
 * POWER templates; a reason after ` -- `; file-level rules never disabled; an unused directive reported.
 */
const roots: string[] = [];
afterAll(() => {
  for (const r of roots) rmSync(r, { recursive: true, force: true });
});

function lint(files: Record<string, string>): { code: number | null; out: string } {
  const r = mkdtempSync(join(tmpdir(), 'docgate-directives-'));
  roots.push(r);
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(dirname(join(r, path)), { recursive: true });
    writeFileSync(join(r, path), text);
  }
  const res = runCli(['lint', '--root', r]);
  return { code: res.code, out: res.stdout };
}

const TEMPLATE = [
  'framework: POWER',
  'purpose: Generate README.md.',
  'output: README.md with a header.',
  'work: Read the code.',
  'examples:',
  '- README',
  'requirements: Short.',
  'save_as: README.md',
  'store_as: readme_summary',
  '',
].join('\n');

const SYSRS = (body: string) => `---\nid: 3f2b8c1e-5d4a-4e2f-9b6c-1a2b3c4d5e6f\n---\n\n# System Requirements Specification: Intake\n\n${body}`;

describe('inline directives', () => {
  it('YAML frontmatter: a trailing `# docgate-disable-line rule`', () => {
    const r = lint({ 'processes/deploy.md': '---\nname: Deploy\nowner: ops # docgate-disable-line unknown-key -- the portal reads it\n---\n\n# Deploy\n' });
    expect(r).toEqual({ code: 0, out: '0 problems in 0 files (1 file checked)\n' });
  });

  it('YAML frontmatter: a line `# docgate-disable-next-line rule`', () => {
    const r = lint({ 'processes/deploy.md': '---\nname: Deploy\n# docgate-disable-next-line unknown-key\nowner: ops\n---\n\n# Deploy\n' });
    expect(r).toEqual({ code: 0, out: '0 problems in 0 files (1 file checked)\n' });
  });

  it('a directive suppresses only the rules it names, on its line', () => {
    const r = lint({ 'processes/deploy.md': '---\nname: Deploy\n# docgate-disable-next-line wrong-type\nowner: ops\n---\n\n# Deploy\n' });
    expect(r.code).toBe(1);
    expect(r.out.split('\n').slice(1, 3)).toEqual([
      '  3:1 warning Unexpected directive `docgate-disable-next-line wrong-type` that suppresses nothing, expected it removed or a directive where a rule reports [unused-disable-directive]',
      '  4:1 Unexpected key `owner`, expected one of: `name`, `description` [unknown-key]',
    ]);
  });

  it('POWER templates: a line `# docgate-disable-next-line rule`', () => {
    const r = lint({
      'templates/power/readme.txt': TEMPLATE.replace(
        'purpose: Generate README.md.',
        '# docgate-disable-next-line invalid-value -- a house style\npurpose: Generate README.md',
      ),
    });
    expect(r).toEqual({ code: 0, out: '0 problems in 0 files (1 file checked)\n' });
  });

  it('markdown bodies: `<!-- docgate-disable-next-line a, b -->`', () => {
    const body = '## System Purpose\n\nTake orders.\n\n<!-- docgate-disable-next-line sysrs-unknown-heading, sysrs-heading-order -->\n## Extra\n\nMore.\n';
    const r = lint({ 'docs/sysrs/intake.md': SYSRS(body) });
    expect(r.out).not.toContain('sysrs-unknown-heading');
    expect(r.out).not.toContain('unused-disable-directive');
  });

  it('markdown bodies: `<!-- docgate-disable rule -->` … `<!-- docgate-enable rule -->`, and without rules: every rule', () => {
    const body = [
      '<!-- docgate-disable sysrs-unknown-heading -->',
      '## Extra One',
      '',
      '## Extra Two',
      '<!-- docgate-enable sysrs-unknown-heading -->',
      '',
      '## Extra Three',
      '',
      '<!-- docgate-disable -->',
      '## Extra Four',
      '',
    ].join('\n');
    const r = lint({ 'docs/sysrs/intake.md': SYSRS(body) });
    const unknown = r.out.split('\n').filter((l) => l.includes('[sysrs-unknown-heading]'));
    expect(unknown).toEqual(['  13:1 Unexpected heading `## Extra Three`, expected a section heading of the SysRS outline [sysrs-unknown-heading]']);
  });

  it('a directive inside fenced code is content, not a directive', () => {
    const r = lint({ 'processes/deploy.md': '# Deploy\n\n```html\n<!-- docgate-disable-next-line process-empty-body -->\n```\n' });
    expect(r).toEqual({ code: 0, out: '0 problems in 0 files (1 file checked)\n' });
  });

  it('a file-level rule is never disabled inline', () => {
    const r = lint({ 'processes/deploy.md': '<!-- docgate-disable -->\n# Deploy\n\u0000\n' });
    expect(r.code).toBe(1);
    expect(r.out).toContain('[file-nul]');
  });

  it('an unused directive is a warning at the directive; it can be made an error', () => {
    const files = { 'processes/deploy.md': '# Deploy\n\n<!-- docgate-disable-next-line process-empty-body -->\nText.\n' };
    const warned = lint(files);
    expect(warned).toEqual({
      code: 0,
      out: 'processes/deploy.md\n  3:1 warning Unexpected directive `docgate-disable-next-line process-empty-body` that suppresses nothing, expected it removed or a directive where a rule reports [unused-disable-directive]\n\n1 problem (0 errors, 1 warning) in 1 file (1 file checked)\n',
    });
    const strict = lint({ ...files, 'docgate.config.yaml': 'rules:\n  unused-disable-directive: error\n' });
    expect(strict.code).toBe(1);
    expect(strict.out).toContain('  3:1 Unexpected directive `docgate-disable-next-line process-empty-body`');
  });

  it('a rule across files is suppressed by a directive in the file it reports on', () => {
    const r = lint({
      'processes/a.md': '---\nname: Same\n---\n\n# A\n',
      'processes/b.md': '---\nname: same # docgate-disable-line process-duplicate-name -- renamed next sprint\n---\n\n# B\n',
    });
    expect(r.out).toBe(
      'processes/a.md\n  2:7 Unexpected duplicate process name `Same`, expected names unique ignoring case (also in processes/b.md) [process-duplicate-name]\n\n1 problem in 1 file (2 files checked)\n',
    );
  });
});
