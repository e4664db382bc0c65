import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { kindLanguageRules } from '../src/kinds/custom/kind.js';
import type { Example } from '../src/engine/rule.js';
import { lintRoot } from '../src/lint/root.js';
import { fixture, runCli, tempRoot, writeFiles } from './helpers.js';

/**
 * The kind language (docs/formats.md, "Kinds of your own"): every key of `kinds.<name>`, each in a fixture
 * root of its own under test/fixtures/kind-language/, linted by the CLI as a child process; the exact
 * diagnostics of every new rule (id, message, line, column) and what the json report holds.
 */
const made: string[] = [];
afterAll(() => {
  for (const r of made) rmSync(r, { recursive: true, force: true });
});

interface Diagnostic {
  line: number;
  column: number;
  rule: string;
  message: string;
  severity?: string;
  fix?: unknown;
}
interface Row {
  id: string;
  path: string;
  kind: string;
  diagnostics: Diagnostic[];
}
interface Report {
  results: Row[];
  warnings?: Row[];
  filesChecked: number;
}

function json(root: string, ...args: string[]): { code: number | null; report: Report; stderr: string } {
  const out = runCli(['lint', '--root', root, '--format', 'json', ...args]);
  return { code: out.code, report: JSON.parse(out.stdout) as Report, stderr: out.stderr };
}

/** Every diagnostic of the run as `path line:column rule message` (a warning marked), in report order. */
function lines(report: Report): string[] {
  return [...report.results, ...(report.warnings ?? [])]
    .sort((a, b) => (a.path < b.path ? -1 : 1))
    .flatMap((r) => r.diagnostics.map((d) => `${r.path} ${d.line}:${d.column} ${d.rule}${d.severity === 'warning' ? ' (warning)' : ''} ${d.message}`));
}

const root = (key: string): string => fixture('kind-language', key);

/** A copy of a fixture root, to change. */
function copyOf(key: string): string {
  const r = mkdtempSync(join(tmpdir(), `docgate-kl-${key}-`));
  made.push(r);
  cpSync(root(key), r, { recursive: true });
  return r;
}

/** Rewrites the configuration of a root. */
function editConfig(r: string, edit: (text: string) => string): void {
  const file = join(r, 'docgate.config.yaml');
  writeFileSync(file, edit(readFileSync(file, 'utf8')));
}

describe('id: stem (compound suffix), folder, {field}, with duplicates compared after NFKC', () => {
  it('names documents by the suffix-stripped stem, the folder, the field; a document without a usable id is in no duplicate', () => {
    const { code, report } = json(root('id'));
    expect(code).toBe(1);
    expect(lines(report)).toEqual([
      'a/CSharpExpert.agent.md 1:1 agent-duplicate-id Unexpected duplicate id `CSharpExpert`, expected ids unique across agent documents (also in b/CSharpExpert.agent.md)',
      'b/CSharpExpert.agent.md 1:1 agent-duplicate-id Unexpected duplicate id `CSharpExpert`, expected ids unique across agent documents (also in a/CSharpExpert.agent.md)',
      // uniqueIgnoreCase: `PDF` and `pdf` are one id.
      'notes/a.md 2:7 note-duplicate-id Unexpected duplicate id `PDF`, expected ids unique across note documents (also in notes/b.md)',
      'notes/b.md 2:7 note-duplicate-id Unexpected duplicate id `pdf`, expected ids unique across note documents (also in notes/a.md)',
      // `ﬁle` (a ligature) is `file` after NFKC.
      'skills/file/SKILL.md 2:7 skill-duplicate-id Unexpected duplicate id `file`, expected ids unique across skill documents (also in skills/pdf/SKILL.md)',
      // Two skills without a usable name: each the schema's finding, neither a duplicate.
      'skills/none-a/SKILL.md 1:1 missing-key Unexpected missing key `name`, expected a `name` entry',
      'skills/none-b/SKILL.md 2:7 wrong-type Unexpected list for `name`, expected a string (the skill name, as its folder)',
      'skills/pdf/SKILL.md 2:7 skill-duplicate-id Unexpected duplicate id `ﬁle`, expected ids unique across skill documents (also in skills/file/SKILL.md)',
      'topics/x/one/README.md 1:1 topic-duplicate-id Unexpected duplicate id `one`, expected ids unique across topic documents (also in topics/y/one/README.md)',
      'topics/y/one/README.md 1:1 topic-duplicate-id Unexpected duplicate id `one`, expected ids unique across topic documents (also in topics/x/one/README.md)',
    ]);
    const ids = Object.fromEntries(report.results.map((r) => [r.path, r.id]));
    expect(ids['a/CSharpExpert.agent.md']).toBe('CSharpExpert');
    expect(ids['topics/x/one/README.md']).toBe('one');
    expect(ids['notes/a.md']).toBe('PDF');
  });
});

describe('match: path agreement after NFKC', () => {
  it('reports a field that differs from its folder or stem at the field value, naming both', () => {
    const { report } = json(root('match'));
    expect(lines(report)).toEqual([
      'prompts/review.prompt.md 2:7 prompt-path-match Unexpected name `reviews` differs from its file stem `review`, expected equal to the file stem (after NFKC)',
      'skills/pdf/SKILL.md 2:7 skill-path-match Unexpected name `pdf-tools` differs from its folder `pdf`, expected equal to the folder name (after NFKC)',
    ]);
    expect(report.filesChecked).toBe(4);
  });

  it('a folder named in NFD equals the name typed in NFC; names in another script are names', () => {
    const nfd = 'café'.normalize('NFD');
    const r = tempRoot(
      'docgate-kl-nfd-',
      {
        'docgate.config.yaml': readFileSync(join(root('match'), 'docgate.config.yaml'), 'utf8'),
        'schemas/skill.schema.json': readFileSync(join(root('match'), 'schemas/skill.schema.json'), 'utf8'),
        [`skills/${nfd}/SKILL.md`]: '---\nname: café\ndescription: NFC name, NFD folder.\n---\n\nBody.\n',
        'skills/мой-навык/SKILL.md': '---\nname: мой-навык\ndescription: Cyrillic.\n---\n\nBody.\n',
        'skills/other/SKILL.md': '---\nname: 技能\ndescription: Han, not its folder.\n---\n\nBody.\n',
      },
      made,
    );
    expect(lines(json(r).report)).toEqual([
      'skills/other/SKILL.md 2:7 skill-path-match Unexpected name `技能` differs from its folder `other`, expected equal to the folder name (after NFKC)',
    ]);
  });
});

describe('body: required, maxLines, maxBytes', () => {
  it('reports an empty body (error), too many lines at the first line past the limit, too many bytes at the line of the first byte past it (warnings)', () => {
    const { code, report } = json(root('body'));
    expect(code).toBe(1);
    expect(lines(report)).toEqual([
      'skills/empty/SKILL.md 5:1 skill-body-required Unexpected empty body, expected markdown content after the frontmatter',
      'skills/long/SKILL.md 9:1 skill-body-lines (warning) Unexpected body of 5 lines, expected at most 4 lines',
      'skills/wide/SKILL.md 7:1 skill-body-bytes (warning) Unexpected body of 55 bytes, expected at most 40 bytes',
    ]);
    // Warnings only: the document passes, listed among the warnings of the json report.
    expect(report.warnings?.map((r) => r.path)).toEqual(['skills/long/SKILL.md', 'skills/wide/SKILL.md']);
  });
});

describe('frontmatter: none, and frontmatterOptional', () => {
  it('a body-only kind splits a frontmatter block off without checking it; an optional one checks only a block that is there', () => {
    const { report } = json(root('frontmatter-none'));
    expect(lines(report)).toEqual([
      'commands/checked.md 2:1 unknown-key Unexpected key `owner`, expected one of: `description`',
      // Its frontmatter block is not body: the body is empty.
      'docs/AGENTS.md 4:1 agents-md-body-required Unexpected empty body, expected markdown content after the frontmatter',
    ]);
    expect(report.filesChecked).toBe(4);
  });
});

describe('dialects: a widened schema', () => {
  it("accepts a dialect's key and a value valid under any definition; what no schema allows keeps its position and message", () => {
    const { report } = json(root('dialects'));
    expect(lines(report)).toEqual([
      'skills/b/SKILL.md 3:14 invalid-value Unexpected `description` value `7`, expected what the skill does or lines of the description',
      'skills/b/SKILL.md 4:8 wrong-type Unexpected number for `model`, expected a string (the model to use)',
      'skills/b/SKILL.md 5:1 unknown-key Unexpected key `owner`, expected one of: `name`, `description`, `model`',
    ]);
  });

  it('without the dialect, the same skills fail on its keys (the widening is what accepts them)', () => {
    const r = copyOf('dialects');
    editConfig(r, (c) => c.replace(/ {4}dialects:.*\n/, ''));
    expect(lines(json(r).report).filter((l) => l.startsWith('skills/a/'))).toEqual([
      'skills/a/SKILL.md 3:14 wrong-type Unexpected list for `description`, expected a string (what the skill does)',
      'skills/a/SKILL.md 4:1 unknown-key Unexpected key `model`, expected one of: `name`, `description`',
    ]);
  });
});

describe('lenient and unquoted-value', () => {
  it('reads `globs: **/*.ts` as the string the client reads, with a warning; a quoted value is fine', () => {
    const { code, report } = json(root('lenient'));
    expect(code).toBe(0);
    expect(lines(report)).toEqual([
      ".cursor/rules/many.mdc 2:8 unquoted-value (warning) Unexpected unquoted value `*.ts, *.tsx`, which YAML cannot read, expected it quoted ('*.ts, *.tsx') so YAML reads the string the client reads",
      ".cursor/rules/ts.mdc 3:8 unquoted-value (warning) Unexpected unquoted value `**/*.ts`, which YAML reads as an alias, expected it quoted ('**/*.ts') so YAML reads the string the client reads",
    ]);
    const fix = report.warnings!.find((r) => r.path === '.cursor/rules/ts.mdc')!.diagnostics[0]!.fix;
    expect(fix).toEqual({ line: 3, column: 8, endLine: 3, endColumn: 15, text: "'**/*.ts'" });
  });

  it('without `lenient` the same file is a YAML error (what the key changes)', () => {
    const r = copyOf('lenient');
    editConfig(r, (c) => c.replace(/ {4}lenient:.*\n/, ''));
    const found = lines(json(r).report).filter((l) => l.startsWith('.cursor/rules/ts.mdc'));
    expect(found.length).toBeGreaterThan(0);
    expect(found.every((l) => !l.includes('unquoted-value'))).toBe(true);
  });

  it('`--fix` quotes the values; the files then lint clean', () => {
    const r = copyOf('lenient');
    const out = runCli(['lint', '--root', r, '--fix']);
    expect(out.code).toBe(0);
    expect(readFileSync(join(r, '.cursor/rules/ts.mdc'), 'utf8')).toBe(
      "---\ndescription: TypeScript\nglobs: '**/*.ts'\nalwaysApply: false\n---\n\nUse strict types.\n",
    );
    expect(readFileSync(join(r, '.cursor/rules/many.mdc'), 'utf8')).toBe("---\nglobs: '*.ts, *.tsx'\n---\n\nBoth.\n");
    expect(lines(json(r).report)).toEqual([]);
  });
});

describe('deprecatedInclude', () => {
  it('a deprecated file is a document of the kind, with a warning that names its new name', () => {
    const { report } = json(root('deprecated'));
    expect(lines(report)).toEqual([
      'chatmodes/plan.chatmode.md 1:1 copilot-agent-deprecated-path (warning) Unexpected deprecated file name `plan.chatmode.md`, expected a custom agent: rename it to `plan.agent.md` (chat modes are custom agents now)',
    ]);
    expect(report.filesChecked).toBe(2);
    expect(report.warnings![0]!.kind).toBe('copilot-agent');
  });
});

describe('rules of a kind: overrides > kinds.<k>.rules > rules > default', () => {
  it("the kind's setting beats the top-level one, an override beats the kind's", () => {
    const { report } = json(root('rules'));
    expect(lines(report)).toEqual([
      // rules: off, kinds.skill.rules: error → error; link-target: error at the top, off for the kind → off.
      'skills/loud/SKILL.md 2:1 skill-body-lines Unexpected body of 2 lines, expected at most 1 line',
      // The override's warn beats the kind's error.
      'skills/quiet/SKILL.md 2:1 skill-body-lines (warning) Unexpected body of 2 lines, expected at most 1 line',
    ]);
  });
});

describe('link-target', () => {
  it('reports relative links and images that name nothing or climb out of the root; URLs, anchors, autolinks and code are not paths', () => {
    const { report } = json(root('link-target'));
    const message = (what: string) => `${what}, expected a path to a file or folder inside the root, relative to the document`;
    expect(lines(report)).toEqual([
      `skills/pdf/SKILL.md 1:104 link-target ${message('Unexpected link to `my%20file.md`, which names no file or folder')}`,
      `skills/pdf/SKILL.md 3:10 link-target ${message('Unexpected image `images/chart.png`, which names no file or folder')}`,
      `skills/pdf/SKILL.md 11:8 link-target ${message('Unexpected link to `../../../outside.md`, which climbs out of the root')}`,
      `skills/pdf/SKILL.md 13:31 link-target ${message('Unexpected link to `gone.md?x=1`, which names no file or folder')}`,
    ]);
    // Off by default: the kind without the setting (other/page.md) has a broken link and no finding.
    expect(report.filesChecked).toBe(2);
  });

  it('is off unless configured: the same root without the setting has no finding', () => {
    const r = copyOf('link-target');
    editConfig(r, (c) => c.replace(/ {4}rules:.*\n/, ''));
    expect(lines(json(r).report)).toEqual([]);
    // The top-level `rules` turns it on for every kind.
    editConfig(r, (c) => `rules: {link-target: warn}\n${c}`);
    const on = lines(json(r).report);
    expect(on).toContain(
      'other/page.md 1:11 link-target (warning) Unexpected link to `nothing.md`, which names no file or folder, expected a path to a file or folder inside the root, relative to the document',
    );
    expect(on).toHaveLength(5);
  });
});

describe('link-target under a cache', () => {
  it('sees a linked file created or deleted since the cached run (the document itself unchanged)', () => {
    const r = copyOf('link-target');
    const gone = (rep: Report) => lines(rep).filter((l) => l.includes('`gone.md?x=1`'));
    expect(gone(json(r, '--cache').report)).toHaveLength(1);
    writeFiles(r, { 'skills/pdf/gone.md': '# Here now\n' });
    expect(gone(json(r, '--cache').report)).toEqual([]);
    rmSync(join(r, 'skills/pdf/gone.md'));
    expect(gone(json(r, '--cache').report)).toHaveLength(1);
  });
});

describe('a configured include that matches no file', () => {
  it('is one line on stderr per run, never in the json report', () => {
    const out = runCli(['lint', '--root', root('empty-include'), '--format', 'json']);
    expect(out.stderr).toBe(
      'docgate: kind `skill` matches no file (include: skill/*/SKILL.md)\ndocgate: kind `process` matches no file (include: procs/*.md)\n',
    );
    expect(JSON.parse(out.stdout)).toEqual({ results: [], warnings: [], filesChecked: 0, problemCount: 0, errorCount: 0, warningCount: 0 });
  });

  it('is said once even when --fix lints twice, and not for a run over named paths', () => {
    const r = copyOf('empty-include');
    writeFiles(r, { '.cursor/rules/ts.mdc': '---\nglobs: **/*.ts\n---\n\nx\n' });
    editConfig(r, (c) => `${c}  cursor-rule:\n    include: [".cursor/rules/*.mdc"]\n    frontmatter: none\n`);
    const fixed = runCli(['lint', '--root', r, '--fix']);
    expect(fixed.stderr.match(/matches no file/g)).toHaveLength(2);
    expect(runCli(['lint', '--root', r, '.cursor/rules/ts.mdc'], { cwd: r }).stderr).toBe('');
  });
});

describe('bad input: a finding with a position or a configuration error, never a crash', () => {
  const files = {
    'docgate.config.yaml':
      'kinds:\n  skill:\n    include: ["skills/*/SKILL.md"]\n    id: {field: name}\n    frontmatter: skill.schema.json\n    match: {field: name, equals: folder}\n    body: {required: true}\n',
    'schemas/skill.schema.json': readFileSync(join(fixture('kind-language', 'match'), 'schemas/skill.schema.json'), 'utf8'),
  };

  it('SKILL.md without frontmatter, with a BOM, with `---` inside a value, with an unclosed flow list', () => {
    const r = tempRoot(
      'docgate-kl-bad-',
      {
        ...files,
        'skills/nofm/SKILL.md': '# No frontmatter\n',
        'skills/dash/SKILL.md': '---\nname: dash\ndescription: |\n  a\n---\n  b\n---\n\nBody.\n',
        'skills/flow/SKILL.md': '---\nname: flow\ndescription: [a, b\n---\n\nBody.\n',
        'skills/bom/SKILL.md': '',
      },
      made,
    );
    writeFileSync(
      join(r, 'skills/bom/SKILL.md'),
      Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from('---\nname: bom\ndescription: x\n---\n\nBody.\n')]),
    );
    const { code, report } = json(r);
    expect(code).toBe(1);
    expect(lines(report)).toEqual([
      'skills/bom/SKILL.md 1:1 file-bom Unexpected byte order mark (BOM), expected UTF-8 without a BOM',
      'skills/flow/SKILL.md 3:19 yaml-syntax Unexpected YAML syntax: Flow sequence in block collection must be sufficiently indented and end with a ]',
      'skills/nofm/SKILL.md 1:1 missing-key Unexpected missing key `description`, expected a `description` entry',
      'skills/nofm/SKILL.md 1:1 missing-key Unexpected missing key `name`, expected a `name` entry',
    ]);
  });

  it('configuration values of the new keys that are not valid: exit 2, each at its position', () => {
    const r = tempRoot(
      'docgate-kl-config-',
      {
        ...files,
        'docgate.config.yaml':
          'kinds:\n  skill:\n    include: ["skills/*/SKILL.md"]\n    id: {field: ""}\n    frontmatter: skill.schema.json\n    body: {maxLines: 0}\n    match: {field: name, equals: parent}\n    rules: {no-such-rule: error}\n    deprecatedInclude: {globs: ["../x/*.md"], message: m}\n',
      },
      made,
    );
    const out = runCli(['lint', '--root', r]);
    expect(out.code).toBe(2);
    expect(out.stderr).toBe(
      'docgate: docgate.config.yaml:4:9 Unexpected `kinds.skill.id` value `{"field":""}`, expected one of `stem`, `folder`, `frontmatter` or a mapping with key `field`: `stem` (the file name without the suffix its include glob names, else without its extension), `folder` (the name of its folder), `frontmatter` (its `id` field) or `{field: NAME}` (that frontmatter field)\n' +
        'docgate.config.yaml:6:22 Unexpected `kinds.skill.body.maxLines` value `0`, expected at least 1 (the most lines a body may have)\n' +
        'docgate.config.yaml:7:34 Unexpected `kinds.skill.match.equals` value `parent`, expected one of: `folder`, `stem`\n' +
        'docgate.config.yaml:8:13 Unexpected rule id `no-such-rule`, expected a rule id of docgate (see docs/rules.md) or of a configured kind\n',
    );
    // The schema passes, the registry check refuses: a rule id of no kind of this root, a glob out of the root.
    writeFileSync(
      join(r, 'docgate.config.yaml'),
      'kinds:\n  skill:\n    include: ["skills/*/SKILL.md"]\n    frontmatter: skill.schema.json\n    rules: {adr-body-lines: error}\n    deprecatedInclude: {globs: ["../x/*.md"], message: m}\n',
    );
    const second = runCli(['lint', '--root', r]);
    expect(second.code).toBe(2);
    expect(second.stderr).toBe(
      'docgate: docgate.config.yaml:6:33 Unexpected glob `../x/*.md` (it climbs out of the root with `..`), expected a root-relative glob such as `processes/*.md`\n' +
        'docgate.config.yaml:5:13 Unexpected rule id `adr-body-lines`, expected a rule id of docgate (see docs/rules.md) or of a configured kind\n',
    );
  });
});

/** The examples of the kind language's rules, run as test/rule-examples.test.ts runs the registry's. */
describe('examples of the rules of kinds of your own', () => {
  const exampleRoots: string[] = [];
  afterAll(() => {
    for (const r of exampleRoots) rmSync(r, { recursive: true, force: true });
  });
  const run = (ruleId: string, ex: Example): string[] => {
    const r = tempRoot('docgate-kl-example-', { ...(ex.others ?? {}), [ex.path]: ex.text as string }, exampleRoots);
    const outcome = lintRoot({ root: r, paths: [] });
    const result = [...outcome.results, ...outcome.warnings].find((x) => x.path === ex.path);
    return (result?.diagnostics ?? []).filter((d) => d.rule === ruleId).map((d) => `${d.line}:${d.column} ${d.message}`);
  };
  for (const { rule } of kindLanguageRules()) {
    it(`${rule.id}: ok examples give nothing, not-ok examples exactly their lines`, () => {
      expect(rule.examples.ok.length).toBeGreaterThan(0);
      expect(rule.examples.notOk.length).toBeGreaterThan(0);
      for (const ex of rule.examples.ok) expect(run(rule.id, ex)).toEqual([]);
      for (const ex of rule.examples.notOk) expect(run(rule.id, ex)).toEqual(ex.expected);
      for (const ex of rule.examples.notOk)
        if (ex.output !== undefined) expect(run(rule.id, { path: ex.path, text: ex.output, ...(ex.others ? { others: ex.others } : {}) })).toEqual([]);
    });
  }
});
