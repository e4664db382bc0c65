import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { Ajv } from 'ajv';
import addFormatsModule from 'ajv-formats';
import { XMLParser } from 'fast-xml-parser';
import { afterAll, describe, expect, it } from 'vitest';
import { startMcp, resultOf, structuredOf } from './fixtures/mcp/harness.js';
import { runCli } from './helpers.js';

/**
 * Severities (SPEC §8): rules off, warn or error from the configuration's `rules` and `overrides`, and how
 * each format shows a warning. Every case runs the CLI as a child process on a root of its own.
 */
const roots: string[] = [];
afterAll(() => {
  for (const r of roots) rmSync(r, { recursive: true, force: true });
});

function root(files: Record<string, string>): string {
  const r = mkdtempSync(join(tmpdir(), 'docgate-severity-'));
  roots.push(r);
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(dirname(join(r, path)), { recursive: true });
    writeFileSync(join(r, path), text);
  }
  return r;
}

const OWNER = '---\nname: Deploy\nowner: ops\n---\n\n# Deploy\n';
const UNKNOWN = '3:1 Unexpected key `owner`, expected one of: `name`, `description`';

describe('rules off, warn, error', () => {
  it('off: the rule is not reported', () => {
    const r = root({ 'docgate.config.yaml': 'rules:\n  unknown-key: off\n', 'processes/deploy.md': OWNER });
    const out = runCli(['lint', '--root', r]);
    expect(out.code).toBe(0);
    expect(out.stdout).toBe('0 problems in 0 files (1 file checked)\n');
  });

  it('warn: the json report lists the document under warnings, with the counts; exit 0', () => {
    const r = root({ 'docgate.config.yaml': 'rules:\n  unknown-key: warn\n', 'processes/deploy.md': OWNER });
    const out = runCli(['lint', '--root', r, '--format', 'json']);
    expect(out.code).toBe(0);
    expect(JSON.parse(out.stdout)).toEqual({
      results: [],
      warnings: [
        {
          id: 'deploy',
          path: 'processes/deploy.md',
          kind: 'process',
          error: `3:1 warning ${UNKNOWN.slice(4)} [unknown-key]`,
          diagnostics: [{ line: 3, column: 1, rule: 'unknown-key', message: UNKNOWN.slice(4), severity: 'warning' }],
        },
      ],
      filesChecked: 1,
      problemCount: 1,
      errorCount: 0,
      warningCount: 1,
    });
  });

  it('warn: stylish prints the warning line and the summary with counts', () => {
    const r = root({ 'docgate.config.yaml': 'rules:\n  unknown-key: warn\n', 'processes/deploy.md': OWNER, 'processes/empty.md': '---\nname: Empty\n---\n' });
    const out = runCli(['lint', '--root', r]);
    expect(out.code).toBe(1);
    expect(out.stdout).toBe(
      [
        'processes/deploy.md',
        `  3:1 warning ${UNKNOWN.slice(4)} [unknown-key]`,
        '',
        'processes/empty.md',
        '  4:1 Unexpected empty body, expected markdown content after the frontmatter [process-empty-body]',
        '',
        '2 problems (1 error, 1 warning) in 2 files (2 files checked)',
        '',
      ].join('\n'),
    );
  });

  it('overrides apply in order, later blocks winning', () => {
    const config = [
      'rules:',
      '  unknown-key: warn',
      'overrides:',
      '  - files: ["processes/legacy-*.md"]',
      '    rules: { unknown-key: off }',
      '  - files: ["processes/legacy-strict.md"]',
      '    rules: { unknown-key: error }',
      '',
    ].join('\n');
    const owned = (name: string) => OWNER.replace('Deploy', name);
    const r = root({
      'docgate.config.yaml': config,
      'processes/deploy.md': owned('Deploy'),
      'processes/legacy-a.md': owned('Legacy A'),
      'processes/legacy-strict.md': owned('Strict'),
    });
    const report = JSON.parse(runCli(['lint', '--root', r, '--format', 'json']).stdout) as { results: { path: string }[]; warnings: { path: string }[] };
    expect(report.results.map((x) => x.path)).toEqual(['processes/legacy-strict.md']);
    expect(report.warnings.map((x) => x.path)).toEqual(['processes/deploy.md']);
  });

  it('a rule across files is set per document too', () => {
    const dup = (name: string) => `---\nname: ${name}\n---\n\n# x\n`;
    const config = 'overrides:\n  - files: ["processes/b.md"]\n    rules: { process-duplicate-name: warn }\n';
    const r = root({ 'docgate.config.yaml': config, 'processes/a.md': dup('Same'), 'processes/b.md': dup('same') });
    const report = JSON.parse(runCli(['lint', '--root', r, '--format', 'json']).stdout) as { results: { path: string }[]; warnings: { path: string }[] };
    expect(report.results.map((x) => x.path)).toEqual(['processes/a.md']);
    expect(report.warnings.map((x) => x.path)).toEqual(['processes/b.md']);
  });
});

describe('warnings in the CI formats', () => {
  const r = root({ 'docgate.config.yaml': 'rules:\n  unknown-key: warn\n', 'processes/deploy.md': OWNER });

  it('SARIF: level "warning", valid against the SARIF 2.1.0 schema', () => {
    const require = createRequire(import.meta.url);
    const schemaPath = join(dirname(require.resolve('@datadog/datadog-ci-plugin-sarif/package.json')), 'dist', 'json-schema', 'sarif-schema-2.1.0.json');
    type AddFormats = (a: Ajv) => Ajv;
    const addFormats = (addFormatsModule as unknown as { default?: AddFormats }).default ?? (addFormatsModule as unknown as AddFormats);
    const ajv = new Ajv({ allErrors: true, strict: false });
    addFormats(ajv);
    const validate = ajv.compile(JSON.parse(readFileSync(schemaPath, 'utf8')) as object);
    const log = JSON.parse(runCli(['lint', '--root', r, '--format', 'sarif']).stdout) as { runs: { results: { level: string; ruleId: string }[] }[] };
    expect(validate(log), JSON.stringify(validate.errors)).toBe(true);
    expect(log.runs[0]!.results.map((x) => [x.ruleId, x.level])).toEqual([['unknown-key', 'warning']]);
  });

  it('github: a ::warning command', () => {
    const out = runCli(['lint', '--root', r, '--format', 'github']);
    expect(out.code).toBe(0);
    expect(out.stdout.split('\n')[0]).toBe(`::warning file=processes/deploy.md,line=3,col=1,title=unknown-key::3:1 warning ${UNKNOWN.slice(4)} [unknown-key]`);
  });

  it('JUnit: the testcase passes, its warning lines in <system-out>', () => {
    const xml = runCli(['lint', '--root', r, '--format', 'junit']).stdout;
    const doc = new XMLParser({ ignoreAttributes: false }).parse(xml) as {
      testsuites: { '@_failures': string; testsuite: { '@_failures': string; testcase: { failure?: unknown; 'system-out': string } } };
    };
    expect(doc.testsuites['@_failures']).toBe('0');
    expect(doc.testsuites.testsuite.testcase.failure).toBeUndefined();
    expect(doc.testsuites.testsuite.testcase['system-out']).toBe(`3:1 warning ${UNKNOWN.slice(4)} [unknown-key]`);
  });
});

describe('MCP: a document with warnings only is served, with them', () => {
  it('get_process answers the document and adds `warnings`', async () => {
    const r = root({ 'docgate.config.yaml': 'rules:\n  unknown-key: warn\n', 'processes/deploy.md': OWNER });
    const s = await startMcp(r);
    try {
      const answer = resultOf<Record<string, unknown>>(await s.call('get_process', { name: 'deploy' }));
      expect(answer).toEqual({
        name: 'Deploy',
        slug: 'deploy',
        description: '',
        content: '# Deploy\n',
        warnings: `3:1 warning ${UNKNOWN.slice(4)} [unknown-key]`,
      });
      const listed = structuredOf<{ processes: { slug: string }[]; error_count: number }>(await s.call('list_processes', {}));
      expect(listed.processes.map((p) => p.slug)).toEqual(['deploy']);
      expect(listed.error_count).toBe(0);
    } finally {
      await s.close();
    }
  });
});
