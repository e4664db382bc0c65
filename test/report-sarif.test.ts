import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { Ajv } from 'ajv';
import addFormatsModule from 'ajv-formats';
import { describe, expect, it } from 'vitest';
import type { LintRun } from '../src/lint/run.js';
import { formatDiagnostic } from '../src/model/result.js';
import type { Diagnostic, ParseFailureResult } from '../src/model/types.js';
import { RULE_DESCRIPTIONS, describeRule } from '../src/report/rule-descriptions.js';
import { RULES_DOC_URL, repositoryWebUrl } from '../src/io/version.js';
import { SARIF_SCHEMA_URI, pathToUri, ruleHelpUri, sarif } from '../src/report/sarif.js';
import type { SarifLog } from '../src/report/sarif.js';
import { REPO, fixture, lintRoot, runCli } from './helpers.js';

/*
 * The official OASIS SARIF 2.1.0 schema (draft-07, `$id` …/oasis-tcs/sarif-spec/…/sarif-schema-2.1.0.json),
 * as shipped in an npm package (Datadog's SARIF upload plugin validates uploads with it). Its package
 * exports do not list the file, so it is found next to the package's package.json.
 */
const require = createRequire(import.meta.url);
const SCHEMA_PATH = join(dirname(require.resolve('@datadog/datadog-ci-plugin-sarif/package.json')), 'dist', 'json-schema', 'sarif-schema-2.1.0.json');
const schema = JSON.parse(readFileSync(SCHEMA_PATH, 'utf8')) as { $schema: string; $id: string; title: string };

// Draft-07 is ajv's default draft. ajv-formats is CommonJS: under NodeNext its default import is the
// module object, whose `default` is the plugin.
type AddFormats = (ajv: Ajv) => Ajv;
const addFormats = (addFormatsModule as unknown as { default?: AddFormats }).default ?? (addFormatsModule as unknown as AddFormats);
const ajv = new Ajv({ allErrors: true, strict: false });
addFormats(ajv);
const validateSarif = ajv.compile(schema);

function expectValid(log: unknown): void {
  const ok = validateSarif(log);
  expect(validateSarif.errors ?? []).toEqual([]);
  expect(ok).toBe(true);
}

const CTX = { version: '9.8.7' };

function failure(path: string, kind: ParseFailureResult['kind'], diagnostics: Diagnostic[]): ParseFailureResult {
  return { id: path, path, kind, error: diagnostics.map(formatDiagnostic).join('\n'), diagnostics };
}

const SYNTHETIC: LintRun = {
  root: '/tmp/synthetic',
  results: [
    failure('docs/sysrs/a,b:c d#e?.md', 'sysrs', [
      { line: 2, column: 1, rule: 'yaml-syntax', message: 'Unexpected %, expected: a, b\nand more' },
      { line: 9, column: 3, endLine: 9, endColumn: 41, rule: 'sysrs-list-uuid', message: 'Unexpected ID `x`, expected a UUID' },
    ]),
    failure('processes/x.md', 'process', [{ line: 1, column: 1, rule: 'brand-new-rule', message: 'Unexpected thing, expected another' }]),
  ],
  filesChecked: 3,
  problemCount: 3,
  checked: [
    { path: 'docs/sysrs/a,b:c d#e?.md', kind: 'sysrs' },
    { path: 'processes/ok.md', kind: 'process' },
    { path: 'processes/x.md', kind: 'process' },
  ],
};

describe('sarif format', () => {
  it('uses the official SARIF 2.1.0 schema from the npm package (draft-07)', () => {
    expect(schema.$schema).toBe('http://json-schema.org/draft-07/schema#');
    expect(schema.$id).toMatch(/sarif-schema-2\.1\.0\.json$/);
    expect(schema.title).toBe('Static Analysis Results Format (SARIF) Version 2.1.0 JSON Schema');
    // The validator is not vacuous: a wrong level and a missing message are refused.
    const log = JSON.parse(sarif(SYNTHETIC, CTX)) as SarifLog;
    const bad = structuredClone(log) as unknown as { runs: { results: Record<string, unknown>[] }[] };
    bad.runs[0]!.results[0]!.level = 'fatal';
    delete bad.runs[0]!.results[1]!.message;
    expect(validateSarif(bad)).toBe(false);
    expect((validateSarif.errors ?? []).length).toBeGreaterThan(0);
  });

  it('validates against the schema on the fixture root with failures of every kind', () => {
    const run = lintRoot(fixture('ci-root'));
    expect(new Set(run.results.map((r) => r.kind))).toEqual(new Set(['template', 'framework', 'process', 'sysrs']));
    const text = sarif(run, CTX);
    expect(text.startsWith('{\n  "$schema": ')).toBe(true);
    expect(text.endsWith('}\n')).toBe(true);
    const log = JSON.parse(text) as SarifLog;
    expectValid(log);
    expect(log.runs[0]!.results).toHaveLength(run.problemCount);
  });

  it('validates a clean run and a run with odd paths, end positions and an unknown rule', () => {
    expectValid(JSON.parse(sarif({ root: '/x', results: [], filesChecked: 2, problemCount: 0, checked: [] }, CTX)));
    expectValid(JSON.parse(sarif(SYNTHETIC, CTX)));
  });

  it('has one run for the docgate driver, with version, columnKind and the rules that fired', () => {
    const log = JSON.parse(sarif(SYNTHETIC, CTX)) as SarifLog;
    expect(log.$schema).toBe(SARIF_SCHEMA_URI);
    expect(log.version).toBe('2.1.0');
    expect(log.runs).toHaveLength(1);
    const run = log.runs[0]!;
    expect(run.tool.driver.name).toBe('docgate');
    expect(run.tool.driver.version).toBe('9.8.7');
    expect(run.columnKind).toBe('utf16CodeUnits');
    expect(run.tool.driver.rules.map((r) => r.id)).toEqual(['brand-new-rule', 'sysrs-list-uuid', 'yaml-syntax']);
    expect(run.tool.driver.rules.map((r) => r.shortDescription.text)).toEqual([
      'docgate rule brand-new-rule',
      RULE_DESCRIPTIONS['sysrs-list-uuid'],
      RULE_DESCRIPTIONS['yaml-syntax'],
    ]);
  });

  it('writes one result per diagnostic: ruleId, ruleIndex, level, message, uri relative to the root, region', () => {
    const log = JSON.parse(sarif(SYNTHETIC, CTX)) as SarifLog;
    const run = log.runs[0]!;
    const diags = SYNTHETIC.results.flatMap((r) => r.diagnostics.map((d) => ({ path: r.path, d })));
    expect(run.results).toHaveLength(diags.length);
    run.results.forEach((res, i) => {
      const { path, d } = diags[i]!;
      expect(res.ruleId).toBe(d.rule);
      expect(run.tool.driver.rules[res.ruleIndex]!.id).toBe(d.rule);
      expect(res.level).toBe('error');
      expect(res.message.text).toBe(formatDiagnostic(d));
      const loc = res.locations[0]!.physicalLocation;
      expect(loc.artifactLocation.uriBaseId).toBe('%SRCROOT%');
      expect(decodeURIComponent(loc.artifactLocation.uri)).toBe(path);
      expect(run.artifacts[loc.artifactLocation.index!]!.location.uri).toBe(loc.artifactLocation.uri);
      const region: Record<string, number> = { startLine: d.line, startColumn: d.column };
      if (d.endLine !== undefined) region.endLine = d.endLine;
      if (d.endColumn !== undefined) region.endColumn = d.endColumn;
      expect(loc.region).toEqual(region);
    });
    expect(run.results[0]!.locations[0]!.physicalLocation.artifactLocation.uri).toBe('docs/sysrs/a%2Cb%3Ac%20d%23e%3F.md');
  });

  it('keeps ordinary paths as they are in the uri', () => {
    expect(pathToUri('docs/sysrs/de/docgate-core.md')).toBe('docs/sysrs/de/docgate-core.md');
    const run = lintRoot(fixture('ci-root'));
    const uris = new Set((JSON.parse(sarif(run, CTX)) as SarifLog).runs[0]!.results.map((r) => r.locations[0]!.physicalLocation.artifactLocation.uri));
    expect(uris).toEqual(new Set(run.results.map((r) => r.path)));
  });

  it('describes every rule that fires on the fixture root with its own text, not the generic one', () => {
    const log = JSON.parse(sarif(lintRoot(fixture('ci-root')), CTX)) as SarifLog;
    const rules = log.runs[0]!.tool.driver.rules;
    expect(rules.length).toBeGreaterThanOrEqual(8);
    for (const r of rules) {
      expect(RULE_DESCRIPTIONS[r.id], r.id).toBeDefined();
      expect(r.shortDescription.text).toBe(describeRule(r.id));
    }
  });
});

/** GitHub's anchor of a heading: its text lower-cased, punctuation but `-` and `_` dropped, spaces as `-`. */
function githubAnchor(heading: string): string {
  return heading
    .toLowerCase()
    .replace(/[^\p{L}\p{N}\s_-]/gu, '')
    .replace(/\s/g, '-');
}

describe('sarif helpUri (SPEC §12)', () => {
  const pkg = JSON.parse(readFileSync(join(REPO, 'package.json'), 'utf8')) as { homepage: string; repository: { url: string } };
  const rulesDoc = readFileSync(join(REPO, 'docs', 'rules.md'), 'utf8');
  const anchors = new Set([...rulesDoc.matchAll(/^## (.+)$/gm)].map((m) => githubAnchor(m[1]!)));

  it('derives the rules doc from package.json: the repository it names, docs/rules.md on its default branch', () => {
    expect(repositoryWebUrl(pkg)).toBe(pkg.homepage.replace(/#readme$/, ''));
    expect(pkg.repository.url).toBe(`git+${repositoryWebUrl(pkg)}.git`);
    expect(RULES_DOC_URL).toBe(`${repositoryWebUrl(pkg)}/blob/HEAD/docs/rules.md`);
  });

  it('reads the usual ways package.json names a repository, and nothing else', () => {
    for (const repository of [
      'git+https://github.com/o/r.git',
      'https://github.com/o/r',
      'git+ssh://git@github.com/o/r.git',
      'git@github.com:o/r.git',
      'github:o/r',
      'o/r',
      { url: 'git://github.com/o/r.git' },
    ]) {
      expect(repositoryWebUrl({ repository }), JSON.stringify(repository)).toBe('https://github.com/o/r');
    }
    expect(repositoryWebUrl({ homepage: 'https://gitlab.com/g/p#readme' })).toBe('https://gitlab.com/g/p');
    expect(repositoryWebUrl({ repository: 'file:../elsewhere', homepage: 'https://example.com' })).toBeUndefined();
    expect(repositoryWebUrl({})).toBeUndefined();
  });

  it('links every rule of the registry to its own section of docs/rules.md, by the anchor GitHub gives its heading', () => {
    expect(anchors.size).toBeGreaterThan(30);
    for (const id of Object.keys(RULE_DESCRIPTIONS)) {
      const uri = ruleHelpUri(id, RULES_DOC_URL);
      expect(uri).toBe(`${RULES_DOC_URL}#${id}`);
      expect(anchors.has(id), `docs/rules.md has no section anchored #${id}`).toBe(true);
    }
  });

  it('writes helpUri on the rules that have a section, none on others, and still validates', () => {
    const log = JSON.parse(sarif(SYNTHETIC, { ...CTX, rulesDoc: 'https://example.com/o/r/blob/HEAD/docs/rules.md' })) as SarifLog;
    expectValid(log);
    const rules = log.runs[0]!.tool.driver.rules;
    expect(rules.map((r) => [r.id, r.helpUri])).toEqual([
      ['brand-new-rule', undefined],
      ['sysrs-list-uuid', 'https://example.com/o/r/blob/HEAD/docs/rules.md#sysrs-list-uuid'],
      ['yaml-syntax', 'https://example.com/o/r/blob/HEAD/docs/rules.md#yaml-syntax'],
    ]);
    // The property sits after shortDescription, before defaultConfiguration.
    expect(Object.keys(rules[1]!)).toEqual(['id', 'shortDescription', 'helpUri', 'defaultConfiguration']);
    // Without a rules doc (a format context that names none), no rule has one.
    const bare = JSON.parse(sarif(SYNTHETIC, CTX)) as SarifLog;
    expect(bare.runs[0]!.tool.driver.rules.every((r) => r.helpUri === undefined)).toBe(true);
  });

  it('comes out of `docgate lint --format sarif` with the URL from package.json, and validates', () => {
    const r = runCli(['lint', '--root', fixture('ci-root'), '--format', 'sarif']);
    expect(r.code).toBe(1);
    const log = JSON.parse(r.stdout) as SarifLog;
    expectValid(log);
    const rules = log.runs[0]!.tool.driver.rules;
    expect(rules.length).toBeGreaterThanOrEqual(8);
    for (const rule of rules) {
      expect(rule.helpUri).toBe(`${RULES_DOC_URL}#${rule.id}`);
      expect(new URL(rule.helpUri!).protocol).toBe('https:');
    }
  });
});
