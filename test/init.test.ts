import { cpSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { fixture, runCli, treeHash } from './helpers.js';

const made: string[] = [];
afterAll(() => {
  for (const d of made) rmSync(d, { recursive: true, force: true });
});

/** A fresh copy of the repository holding every format (test/fixtures/init/every-format). */
function everyFormat(): string {
  const dir = mkdtempSync(join(tmpdir(), 'docgate-init-'));
  made.push(dir);
  cpSync(fixture('init', 'every-format'), dir, { recursive: true });
  return dir;
}

const CONFIG = `# docgate configuration, written by \`docgate init\` (every key: docs/configuration.md).
# Presets are the formats docgate knows (docs/formats.md, "Presets"); move a kind with
# \`kinds.<name>.include\`, change a severity with \`rules\` or \`kinds.<name>.rules\`.
presets: [agent-skills, agents-md, claude-code, copilot, cursor]
`;

const FOUND = (root: string) => `docgate init: looked at ${root}
       1 process
       1 skill
       1 agents-md
       1 claude-agent
       1 claude-command
       1 copilot-prompt
       2 copilot-instructions
       1 copilot-agent
       1 cursor-rule
  preset agent-skills: 1 skill
  preset agents-md: 1 agents-md
  preset claude-code: 1 claude-agent, 1 claude-command
  preset copilot: 1 copilot-prompt, 2 copilot-instructions, 1 copilot-agent
  preset cursor: 1 cursor-rule
`;

const FIRST_LINT = `1 problem (0 errors, 1 warning) in 1 file (10 files checked)
       1 unquoted-value
`;

describe('docgate init', () => {
  it('names every format with its count, writes the presets that fit, and prints the first lint by rule', () => {
    const root = everyFormat();
    const r = runCli(['init', '--root', root]);
    expect(r.stderr).toBe('');
    expect(r.stdout).toBe(`${FOUND(root)}\nwrote docgate.config.yaml:\n\n${CONFIG}\nfirst lint (see every problem with \`docgate lint\`):\n${FIRST_LINT}`);
    expect(r.code).toBe(0);
    expect(readFileSync(join(root, 'docgate.config.yaml'), 'utf8')).toBe(CONFIG);
    // The first lint is the lint: the same files, the same finding (Cursor's unquoted glob).
    const lint = runCli(['lint', '--root', root, '--format', 'json']);
    const report = JSON.parse(lint.stdout) as {
      filesChecked: number;
      warnings: { path: string; diagnostics: { rule: string; line: number; column: number }[] }[];
    };
    expect(report.filesChecked).toBe(10);
    expect(report.warnings.map((w) => [w.path, w.diagnostics.map((d) => `${d.rule}:${d.line}:${d.column}`)])).toEqual([
      ['.cursor/rules/style.mdc', ['unquoted-value:3:8']],
    ]);
  });

  it('--dry-run prints the configuration and the lint with it, and writes nothing', () => {
    const root = everyFormat();
    const before = treeHash(root);
    const r = runCli(['init', '--root', root, '--dry-run']);
    expect(r.stdout).toBe(`${FOUND(root)}\nwould write docgate.config.yaml (--dry-run: nothing written):\n\n${CONFIG}\nfirst lint with it:\n${FIRST_LINT}`);
    expect(r.code).toBe(0);
    expect(treeHash(root)).toBe(before);
    expect(existsSync(join(root, 'docgate.config.yaml'))).toBe(false);
  });

  it('never writes over a configuration the root has', () => {
    const root = everyFormat();
    writeFileSync(join(root, 'docgate.config.json'), '{"rules": {}}\n');
    const before = treeHash(root);
    const r = runCli(['init', '--root', root]);
    expect(r.code).toBe(2);
    expect(r.stdout).toBe('');
    expect(r.stderr).toBe(
      'docgate: docgate.config.json exists at the root: docgate init writes a configuration only where there is none (edit it instead: docs/configuration.md)\n',
    );
    expect(treeHash(root)).toBe(before);
  });

  it('on a repository with no known format, says so and enables no preset', () => {
    const root = mkdtempSync(join(tmpdir(), 'docgate-init-empty-'));
    made.push(root);
    writeFileSync(join(root, 'README.md'), '# Nothing here\n');
    const r = runCli(['init', '--root', root]);
    expect(r.stdout).toContain(`docgate init: looked at ${root}\n  found no document of any kind docgate knows\n`);
    expect(readFileSync(join(root, 'docgate.config.yaml'), 'utf8')).toContain('# No format of a preset was found: the built-in kinds apply.\n');
    expect(r.stdout).toContain('0 problems in 0 files (0 files checked)\n');
    expect(r.code).toBe(0);
  });

  it('chooses a client preset from the folder its skills sit in', () => {
    const root = mkdtempSync(join(tmpdir(), 'docgate-init-claude-'));
    made.push(root);
    cpSync(fixture('init', 'every-format', 'skills'), join(root, '.claude', 'skills'), { recursive: true });
    const r = runCli(['init', '--root', root, '--dry-run']);
    expect(r.stdout).toContain('  preset agent-skills: 1 skill\n  preset claude-code: 1 skill under .claude/\n');
    expect(r.stdout).toContain('presets: [agent-skills, claude-code]\n');
    expect(r.code).toBe(0);
  });

  it('refuses an unknown flag with exit 2', () => {
    const r = runCli(['init', '--force']);
    expect(r.code).toBe(2);
    expect(r.stderr).toBe("docgate: unknown option '--force' (see docgate init --help)\n");
  });
});
