import { spawnSync } from 'node:child_process';
import { cpSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { REPO, fixture, runCli, tempRoot } from './helpers.js';
import type { CliResult } from './helpers.js';

/**
 * Presets (docs/formats.md, "Presets"): the configurations docgate ships in presets/, layered beneath a
 * root's docgate.config.yaml. Each preset has a fixture repository under test/fixtures/presets/<preset>/
 * with valid and invalid files per key and rule; the diagnostics are asserted exactly, through the CLI.
 */

const made: string[] = [];
afterAll(() => {
  for (const d of made) rmSync(d, { recursive: true, force: true });
});

const PRESETS = ['agent-skills', 'agents-md', 'claude-code', 'copilot', 'cursor'];
const KNOWN = PRESETS.map((p) => `\`${p}\``).join(', ');

interface Row {
  path: string;
  kind: string;
  error: string;
}

/** `lint --format json` of a root: the exit code, each failing file's and each warned file's `error` text by path. */
function lintJson(
  root: string,
  cli: (args: string[]) => CliResult = (args) => runCli(args),
): {
  code: number | null;
  stderr: string;
  results: [string, string][];
  warnings: [string, string][];
} {
  const r = cli(['lint', '--root', root, '--format', 'json']);
  const out = JSON.parse(r.stdout) as { results: Row[]; warnings: Row[] };
  return {
    code: r.code,
    stderr: r.stderr,
    results: out.results.map((x) => [x.path, x.error]),
    warnings: out.warnings.map((x) => [x.path, x.error]),
  };
}

/** A copy of a fixture repository in a temporary folder (to change its configuration or add files). */
function copyOf(preset: string): string {
  const dir = mkdtempSync(join(tmpdir(), `docgate-preset-${preset}-`));
  made.push(dir);
  cpSync(fixture('presets', preset), dir, { recursive: true });
  return dir;
}

/**
 * A copy of the built package with `presets` added to its presets/ folder (a preset is package data: a
 * test cannot add one to docgate's own folder), and a CLI that runs that copy.
 */
function packageWith(presets: Record<string, string>): (args: string[], cwd?: string) => CliResult {
  const dir = mkdtempSync(join(tmpdir(), 'docgate-package-'));
  made.push(dir);
  for (const entry of ['package.json', 'bin', 'dist', 'schemas', 'presets']) cpSync(join(REPO, entry), join(dir, entry), { recursive: true });
  symlinkSync(join(REPO, 'node_modules'), join(dir, 'node_modules'), 'dir');
  for (const [name, text] of Object.entries(presets)) writeFileSync(join(dir, 'presets', `${name}.yaml`), text);
  const bin = join(dir, 'bin', 'docgate.js');
  return (args, cwd) => {
    const env = { ...process.env };
    delete env.DOCGATE_ROOT;
    const r = spawnSync(process.execPath, [bin, ...args], { cwd: cwd ?? dir, env, encoding: 'utf8' });
    return { code: r.status, stdout: r.stdout, stderr: r.stderr };
  };
}

describe('the presets key', () => {
  it('refuses a preset docgate does not ship (exit 2), at the name, listing the known names', () => {
    const root = tempRoot('docgate-preset-', { 'docgate.config.yaml': 'presets:\n  - agents-md\n  - agent-skill\n' }, made);
    expect(runCli(['lint', '--root', root])).toEqual({
      code: 2,
      stdout: '',
      stderr: `docgate: docgate.config.yaml:3:5 Unexpected preset \`agent-skill\`, expected one of: ${KNOWN}\n`,
    });
  });

  it('refuses a preset list that is no list of names, and names the preset of a kind used without it', () => {
    const root = tempRoot('docgate-preset-', { 'docgate.config.yaml': 'presets: [1]\n' }, made);
    expect(runCli(['lint', '--root', root])).toEqual({
      code: 2,
      stdout: '',
      stderr: `docgate: docgate.config.yaml:1:11 Unexpected \`presets.0\` value \`1\`, expected one of: ${KNOWN} (the name of a preset docgate ships)\n`,
    });
    writeFileSync(join(root, 'docgate.config.yaml'), 'kinds:\n  skill:\n    include: ["lib/*/SKILL.md"]\n');
    expect(runCli(['lint', '--root', root])).toEqual({
      code: 2,
      stdout: '',
      stderr:
        'docgate: docgate.config.yaml:2:3 Unexpected kind `skill`, expected one of: `template`, `framework`, `process`, `sysrs`, or a kind of your own with `include` and `frontmatter` (`skill` is a kind of the preset `agent-skills`: list it in `presets`)\n',
    });
  });

  it('refuses two presets that define the same kind, at the name of the second (also when it comes through another preset)', () => {
    const skill = 'kinds:\n  skill:\n    include: ["lib/*/SKILL.md"]\n    frontmatter: skill.schema.json\n';
    const cli = packageWith({ 'my-skills': skill, 'more-skills': skill });
    const root = tempRoot('docgate-preset-', { 'docgate.config.yaml': 'presets: [my-skills, more-skills]\n' }, made);
    expect(cli(['lint', '--root', root])).toEqual({
      code: 2,
      stdout: '',
      stderr: 'docgate: docgate.config.yaml:1:22 presets `my-skills` and `more-skills` both define kind `skill`\n',
    });
    // agent-skills comes in through claude-code: the name in the root's file is claude-code's.
    writeFileSync(join(root, 'docgate.config.yaml'), 'presets: [my-skills, claude-code]\n');
    expect(cli(['lint', '--root', root])).toEqual({
      code: 2,
      stdout: '',
      stderr: 'docgate: docgate.config.yaml:1:22 presets `my-skills` and `agent-skills` both define kind `skill`\n',
    });
  });

  it("concatenates every layer's ignores, and takes a preset a root lists twice (or through another preset) once", () => {
    const cli = packageWith({ vendored: 'ignores: ["vendor/**"]\n' });
    const bad = '---\nname: x\n---\n\n# X\n';
    const files = { 'vendor/skills/x/SKILL.md': bad, 'gen/skills/x/SKILL.md': bad, 'skills/x/SKILL.md': bad };
    const root = tempRoot(
      'docgate-preset-',
      { 'docgate.config.yaml': 'presets: [vendored, agent-skills, claude-code, agent-skills]\nignores: ["gen/**"]\n', ...files },
      made,
    );
    const r = lintJson(root, (args) => cli(args));
    expect([r.code, r.results.map(([p]) => p)]).toEqual([1, ['skills/x/SKILL.md']]);
    const printed = JSON.parse(cli(['lint', '--print-config', 'vendor/skills/x/SKILL.md'], root).stdout) as { ignored: boolean; presets: string[] };
    expect([printed.ignored, printed.presets]).toEqual([true, ['vendored', 'agent-skills', 'claude-code']]);
  });
});

describe('a preset is a configuration a user could write', () => {
  for (const preset of PRESETS) {
    it(`presets/${preset}.yaml as a root's own docgate.config.yaml lints its fixture byte for byte as \`presets: [${preset}]\``, () => {
      const dir = copyOf(preset);
      const viaPreset = ['json', 'stylish'].map((f) => runCli(['lint', '--root', dir, '--format', f]));
      writeFileSync(join(dir, 'docgate.config.yaml'), readFileSync(join(REPO, 'presets', `${preset}.yaml`), 'utf8'));
      const asOwn = ['json', 'stylish'].map((f) => runCli(['lint', '--root', dir, '--format', f]));
      expect(asOwn).toEqual(viaPreset);
      // The comparison is of something: every fixture has findings.
      expect(viaPreset[0]!.code).toBe(1);
      expect(JSON.parse(viaPreset[0]!.stdout).results.length).toBeGreaterThan(0);
    });
  }
});

const NAME_RULE =
  "expected a value matching the `pattern` of the schema: a name of 1–64 lowercase letters (of any script, as the reference validator reads them), digits and single hyphens inside, equal to its folder's name: clients list, load and invoke the skill by it [invalid-value]";
const DESCRIPTION_RULE =
  'expected at most 1024 characters (a text of 1–1024 characters saying what the skill does and when to use it: an agent reads it to decide whether to load the skill)';
const LINK = 'which names no file or folder, expected a path to a file or folder inside the root, relative to the document [link-target]';

describe('agent-skills: the specification alone', () => {
  it('passes valid skills (names in other scripts, `---` inside a value, links that resolve) and reports every other file exactly', () => {
    const r = lintJson(fixture('presets', 'agent-skills'));
    expect([r.code, r.stderr]).toEqual([1, '']);
    expect(r.results).toEqual([
      [
        '.claude/skills/pdf/SKILL.md',
        '2:7 Unexpected duplicate id `pdf`, expected ids unique across skill documents (also in skills/pdf/SKILL.md) [skill-duplicate-id]',
      ],
      // A UTF-8 BOM: skills-ref fails it too ("must start with YAML frontmatter"); docgate says why, and --fix removes it.
      ['skills/bom/SKILL.md', '1:1 Unexpected byte order mark (BOM), expected UTF-8 without a BOM [file-bom]'],
      ['skills/broken-link/SKILL.md', `8:26 Unexpected link to \`references/missing.md\`, ${LINK}`],
      [
        'skills/compat/SKILL.md',
        `4:16 Unexpected \`compatibility\` value \`${'y'.repeat(57)}...\`, expected at most 500 characters: a text of 1–500 characters naming what the skill needs from its environment (products, system packages, network access); clients may show it [invalid-value]`,
      ],
      ['skills/empty-body/SKILL.md', '5:1 Unexpected empty body, expected markdown content after the frontmatter [skill-body-required]'],
      [
        'skills/extra-key/SKILL.md',
        '4:1 Unexpected key `argument-hint`, expected one of: `name`, `description`, `license`, `compatibility`, `metadata`, `allowed-tools` [unknown-key]',
      ],
      // A flow list: strictyaml (skills-ref) cannot parse it; YAML reads it, and the specification wants a string.
      [
        'skills/flow-list/SKILL.md',
        '4:16 Unexpected list for `allowed-tools`, expected a string: experimental: the tools the skill may use without asking, space-separated (e.g. `Bash(git:*) Read`); support varies by client [wrong-type]',
      ],
      ['skills/long-description/SKILL.md', `3:14 Unexpected \`description\` value \`${'x'.repeat(57)}...\`, ${DESCRIPTION_RULE} [invalid-value]`],
      ['skills/metadata-number/SKILL.md', '5:12 Unexpected number for `metadata.version`, expected a string [wrong-type]'],
      ['skills/my_skill/SKILL.md', `2:7 Unexpected \`name\` value \`my_skill\`, ${NAME_RULE}`],
      ['skills/no-description/SKILL.md', '1:1 Unexpected missing key `description`, expected a `description` entry [missing-key]'],
      // No frontmatter at all: both required keys are missing, at the start of the file.
      [
        'skills/no-frontmatter/SKILL.md',
        '1:1 Unexpected missing key `description`, expected a `description` entry [missing-key]\n1:1 Unexpected missing key `name`, expected a `name` entry [missing-key]',
      ],
      [
        'skills/pdf-tools/SKILL.md',
        '2:7 Unexpected name `pdf-tool` differs from its folder `pdf-tools`, expected equal to the folder name (after NFKC) [skill-path-match]',
      ],
      [
        'skills/pdf/SKILL.md',
        '2:7 Unexpected duplicate id `pdf`, expected ids unique across skill documents (also in .claude/skills/pdf/SKILL.md) [skill-duplicate-id]',
      ],
      [
        'skills/tools-list/SKILL.md',
        '5:3 Unexpected list for `allowed-tools`, expected a string: experimental: the tools the skill may use without asking, space-separated (e.g. `Bash(git:*) Read`); support varies by client [wrong-type]',
      ],
      ['skills/НАВЫК/SKILL.md', `2:7 Unexpected \`name\` value \`НАВЫК\`, ${NAME_RULE}`],
    ]);
    expect(r.warnings).toEqual([['skills/long-body/SKILL.md', '505:1 warning Unexpected body of 502 lines, expected at most 500 lines [skill-body-lines]']]);
  });

  it('names a failing skill without a valid `name` by its folder, never by `SKILL`', () => {
    const out = JSON.parse(runCli(['lint', '--root', fixture('presets', 'agent-skills'), '--format', 'json']).stdout) as {
      results: { id: string; path: string }[];
    };
    const ids = Object.fromEntries(out.results.map((r) => [r.path, r.id]));
    expect(ids).toMatchObject({
      'skills/my_skill/SKILL.md': 'my_skill',
      'skills/no-frontmatter/SKILL.md': 'no-frontmatter',
      'skills/bom/SKILL.md': 'bom',
      'skills/НАВЫК/SKILL.md': 'НАВЫК',
      // A valid name is the id, even where it differs from the folder.
      'skills/pdf-tools/SKILL.md': 'pdf-tool',
    });
    expect(Object.values(ids)).not.toContain('SKILL');
  });

  it('reads a folder name written in NFD as the same name (after NFKC), either way round', () => {
    const nfd = 'cafe\u0301';
    const nfc = 'caf\u00e9';
    const skill = (name: string) => `---\nname: ${name}\ndescription: Coffee.\n---\n\n# Coffee\n`;
    const root = tempRoot(
      'docgate-preset-nfd-',
      { 'docgate.config.yaml': 'presets: [agent-skills]\n', [`skills/${nfd}/SKILL.md`]: skill(nfc), [`.agents/skills/${nfc}-2/SKILL.md`]: skill(`${nfd}-2`) },
      made,
    );
    expect(lintJson(root)).toEqual({ code: 0, stderr: '', results: [], warnings: [] });
    // Two skills whose names differ only in normalization are the same skill.
    writeFileSync(join(root, '.agents', 'skills', `${nfc}-2`, 'SKILL.md'), skill(nfd));
    const dup = (other: string) => `Unexpected duplicate id \`${nfd}\`, expected ids unique across skill documents (also in ${other}) [skill-duplicate-id]`;
    expect(lintJson(root).results).toEqual([
      [
        `.agents/skills/${nfc}-2/SKILL.md`,
        `2:7 ${dup(`skills/${nfd}/SKILL.md`)}\n2:7 Unexpected name \`${nfd}\` differs from its folder \`${nfc}-2\`, expected equal to the folder name (after NFKC) [skill-path-match]`,
      ],
      [`skills/${nfd}/SKILL.md`, `2:7 ${dup(`.agents/skills/${nfc}-2/SKILL.md`).replace(`\`${nfd}\``, `\`${nfc}\``)}`],
    ]);
  });
});

describe('claude-code: Claude Code skills, subagents and commands', () => {
  it("accepts Claude Code's keys in SKILL.md, checks its subagents and commands, and reports every other file exactly", () => {
    const r = lintJson(fixture('presets', 'claude-code'));
    expect([r.code, r.stderr, r.warnings]).toEqual([1, '', []]);
    const skillKeys =
      '`name`, `description`, `license`, `compatibility`, `metadata`, `allowed-tools`, `when_to_use`, `argument-hint`, `arguments`, `disable-model-invocation`, `user-invocable`, `disallowed-tools`, `model`, `effort`, `context`, `agent`, `background`, `hooks`, `shell`, `paths`';
    const commandKeys =
      '`description`, `when_to_use`, `argument-hint`, `arguments`, `disable-model-invocation`, `user-invocable`, `allowed-tools`, `disallowed-tools`, `model`, `effort`, `context`, `agent`, `background`, `hooks`, `shell`, `metadata`, `license`, `compatibility`';
    const dup = (other: string) =>
      `2:7 Unexpected duplicate id \`code-reviewer\`, expected ids unique across claude-agent documents (also in ${other}) [claude-agent-duplicate-id]`;
    expect(r.results).toEqual([
      [
        '.claude/agents/bad-color.md',
        '4:8 Unexpected `color` value `magenta`, expected one of: `red`, `blue`, `green`, `yellow`, `purple`, `orange`, `pink`, `cyan` (the color Claude Code shows it in) [invalid-value]\n' +
          '5:11 Unexpected `maxTurns` value `0`, expected at least 1 (a whole number of at least 1: the most agentic turns the subagent may take) [invalid-value]',
      ],
      [
        '.claude/agents/bad-mode.md',
        '4:17 Unexpected `permissionMode` value `yolo`, expected one of: `default`, `acceptEdits`, `auto`, `dontAsk`, `bypassPermissions`, `plan`, `manual`: the permission mode it runs in (ignored for plugin agents) [invalid-value]',
      ],
      ['.claude/agents/code-reviewer.md', dup('.claude/agents/copy.md')],
      [
        '.claude/agents/colon.md',
        "2:7 Unexpected `name` value `team:reviewer`, expected a value matching `^[a-z0-9]+(?:-[a-z0-9]+)*$`: a name of lowercase letters, digits and single hyphens: the subagent's identity (its file name does not matter); Claude Code silently skips a file whose name starts with `-` or holds `:` [invalid-value]",
      ],
      ['.claude/agents/copy.md', dup('.claude/agents/code-reviewer.md')],
      ['.claude/agents/no-description.md', '1:1 Unexpected missing key `description`, expected a `description` entry [missing-key]'],
      ['.claude/commands/named.md', `2:1 Unexpected key \`name\`, expected one of: ${commandKeys} [unknown-key]`],
      [
        '.claude/skills/bad-effort/SKILL.md',
        '4:9 Unexpected `effort` value `extreme`, expected one of: `low`, `medium`, `high`, `xhigh`, `max` (the reasoning effort Claude Code uses while it runs) [invalid-value]',
      ],
      [
        '.claude/skills/bad-shell/SKILL.md',
        '4:8 Unexpected `shell` value `zsh`, expected one of: `bash`, `powershell` (the shell Claude Code runs its `!`command`` blocks in; default bash) [invalid-value]',
      ],
      ['.claude/skills/typo-key/SKILL.md', `4:1 Unexpected key \`when-to-use\`, expected one of: ${skillKeys} [unknown-key]`],
    ]);
  });
});

describe('copilot: VS Code and Copilot skills, prompts, instructions and agents', () => {
  it('checks each kind by its keys, warns a chat mode as a custom agent, and reports every other file exactly', () => {
    const r = lintJson(fixture('presets', 'copilot'));
    expect([r.code, r.stderr]).toEqual([1, '']);
    const agentKeys =
      '`description`, `name`, `argument-hint`, `tools`, `agents`, `model`, `user-invocable`, `disable-model-invocation`, `infer`, `target`, `mcp-servers`, `metadata`, `handoffs`, `hooks`, `reasoningEffort`, `github`, `advancedOptions`';
    expect(r.results).toEqual([
      // Relative to the file's folder: .github/CONTRIBUTING.md, which is not there.
      ['.github/copilot-instructions.md', `3:58 Unexpected link to \`CONTRIBUTING.md\`, ${LINK}`],
      [
        '.github/instructions/exclude.instructions.md',
        '3:15 Unexpected `excludeAgent` value `reviewer`, expected one of `code-review`, `cloud-agent`, `coding-agent` or a list: `code-review` or `cloud-agent` (`coding-agent` in older documentation), or (VS Code) a list of them: the Copilot agent that does not read these instructions [invalid-value]',
      ],
      [
        '.github/instructions/list.instructions.md',
        '2:10 Unexpected list for `applyTo`, expected a string: a string of comma-separated globs of the files whose use makes Copilot apply the instructions (without it VS Code only lists them for the model); VS Code refuses a list [wrong-type]',
      ],
      [
        '.github/prompts/tools-string.prompt.md',
        '3:8 Unexpected string for `tools`, expected a list: the tools and tool sets available while it runs (`<server>/*`: every tool of an MCP server); VS Code requires a list [wrong-type]',
      ],
      // VS Code reads booleans only (Claude Code would read `yes`: see the dialects test).
      [
        '.github/skills/yes-bool/SKILL.md',
        '4:17 Unexpected string for `user-invocable`, expected a boolean (false: VS Code and the Copilot CLI hide it from the `/` menu; default true) [wrong-type]',
      ],
      [
        'agents/bad-target.agent.md',
        '3:9 Unexpected `target` value `cursor`, expected one of: `vscode`, `github-copilot`: where the agent is offered: `vscode` or `github-copilot` (unset: both) [invalid-value]\n5:5 Unexpected missing key `prompt`, expected a `prompt` entry [missing-key]',
      ],
      ['agents/no-description.agent.md', '1:1 Unexpected missing key `description`, expected a `description` entry [missing-key]'],
      [
        'agents/opencode.agent.md',
        `3:1 Unexpected key \`mode\`, expected one of: ${agentKeys} [unknown-key]\n4:1 Unexpected key \`hidden\`, expected one of: ${agentKeys} [unknown-key]`,
      ],
    ]);
    expect(r.warnings).toEqual([
      [
        '.github/chatmodes/planner.chatmode.md',
        '1:1 warning Unexpected deprecated file name `planner.chatmode.md`, expected chat modes are custom agents now: rename to `planner.agent.md` [copilot-agent-deprecated-path]',
      ],
    ]);
  });
});

describe('cursor: project rules', () => {
  it('reads an unquoted `globs: **/*.ts` as Cursor does (a warning with a fix), and checks the three keys', () => {
    const r = lintJson(fixture('presets', 'cursor'));
    expect([r.code, r.stderr]).toEqual([1, '']);
    expect(r.results).toEqual([
      ['.cursor/rules/extra.mdc', '3:1 Unexpected key `trigger`, expected one of: `description`, `globs`, `alwaysApply` [unknown-key]'],
      [
        '.cursor/rules/string-bool.mdc',
        '3:14 Unexpected string for `alwaysApply`, expected a boolean: true: Cursor includes the rule in every request (its globs are then ignored); a string `"true"` is not true [wrong-type]',
      ],
    ]);
    expect(r.warnings).toEqual([
      [
        '.cursor/rules/unquoted.mdc',
        "3:8 warning Unexpected unquoted value `**/*.test.ts`, which YAML reads as an alias, expected it quoted ('**/*.test.ts') so YAML reads the string the client reads [unquoted-value]",
      ],
    ]);
  });
});

describe('agents-md: AGENTS.md, CLAUDE.md, GEMINI.md', () => {
  it('checks links and images in the body and warns past 32 KiB; the same name in many folders is no duplicate', () => {
    const r = lintJson(fixture('presets', 'agents-md'));
    expect([r.code, r.stderr]).toEqual([1, '']);
    expect(r.results).toEqual([
      ['AGENTS.md', `5:71 Unexpected link to \`docs/api.md#auth\`, ${LINK}`],
      ['packages/api/AGENTS.md', `3:46 Unexpected image \`../../docs/missing.png\`, ${LINK}`],
    ]);
    expect(r.warnings).toEqual([['CLAUDE.md', '459:1 warning Unexpected body of 35,832 bytes, expected at most 32,768 bytes [agents-md-body-bytes]']]);
  });
});

describe('layers: a root over its presets', () => {
  const brokenLink = '---\nname: a\ndescription: Links a missing file.\n---\n\n# A\n\nSee [x](missing.md).\n';
  const longBody = `---\nname: b\ndescription: Long.\n---\n\n${'Line.\n'.repeat(501)}`;

  it("looks a severity up in the root's file first: its `rules` turn off what a preset's kind turned on", () => {
    const files = { 'skills/a/SKILL.md': brokenLink, 'skills/b/SKILL.md': longBody };
    const on = tempRoot('docgate-layers-', { 'docgate.config.yaml': 'presets: [agent-skills]\n', ...files }, made);
    expect(lintJson(on).results).toEqual([['skills/a/SKILL.md', `8:9 Unexpected link to \`missing.md\`, ${LINK}`]]);
    const off = tempRoot('docgate-layers-', { 'docgate.config.yaml': 'presets: [agent-skills]\nrules:\n  link-target: off\n', ...files }, made);
    expect(lintJson(off)).toEqual({
      code: 0,
      stderr: '',
      results: [],
      warnings: [['skills/b/SKILL.md', '505:1 warning Unexpected body of 502 lines, expected at most 500 lines [skill-body-lines]']],
    });
    // The root's kind rules and overrides come before the preset's too.
    const config = [
      'presets: [agent-skills]',
      'kinds:',
      '  skill:',
      '    rules: { skill-body-lines: error }',
      'overrides:',
      '  - files: ["skills/a/**"]',
      '    rules: { link-target: warn }',
      '',
    ].join('\n');
    const mixed = lintJson(tempRoot('docgate-layers-', { 'docgate.config.yaml': config, ...files }, made));
    expect(mixed.results).toEqual([['skills/b/SKILL.md', '505:1 Unexpected body of 502 lines, expected at most 500 lines [skill-body-lines]']]);
    expect(mixed.warnings).toEqual([['skills/a/SKILL.md', `8:9 warning Unexpected link to \`missing.md\`, ${LINK}`]]);
  });

  it("overrides a preset kind's include without repeating its frontmatter: every other key stays", () => {
    const config = 'presets: [agent-skills]\nkinds:\n  skill:\n    include: ["lib/*/SKILL.md"]\n';
    const root = tempRoot(
      'docgate-layers-',
      {
        'docgate.config.yaml': config,
        'lib/pdf/SKILL.md': '---\nname: pdf-tools\ndescription: PDFs.\n---\n\n# PDF\n',
        'skills/x/SKILL.md': 'no frontmatter\n',
      },
      made,
    );
    expect(lintJson(root).results).toEqual([
      ['lib/pdf/SKILL.md', '2:7 Unexpected name `pdf-tools` differs from its folder `pdf`, expected equal to the folder name (after NFKC) [skill-path-match]'],
    ]);
  });

  it('widens `skill` by every enabled dialect: a key any client reads is accepted, its value valid by any of them', () => {
    const skill =
      '---\nname: s\ndescription: Both clients.\nuser-invocable: yes\nargument-hint: "[x]"\nallowed-tools:\n  - Read\nwhen_to_use: Always.\n---\n\n# S\n';
    const both = tempRoot('docgate-layers-', { 'docgate.config.yaml': 'presets: [claude-code, copilot]\n', '.github/skills/s/SKILL.md': skill }, made);
    // The preset kinds without a file here are each named once on stderr (never in the json).
    const unmatched = [
      'claude-agent` matches no file (include: .claude/agents/**/*.md)',
      'claude-command` matches no file (include: .claude/commands/**/*.md)',
      'copilot-prompt` matches no file (include: **/*.prompt.md, .github/**/*.prompt.md)',
      'copilot-instructions` matches no file (include: **/*.instructions.md, .github/**/*.instructions.md, .github/copilot-instructions.md)',
      'copilot-agent` matches no file (include: **/*.agent.md, .github/**/*.agent.md)',
    ];
    expect(lintJson(both)).toEqual({ code: 0, stderr: unmatched.map((l) => `docgate: kind \`${l}\n`).join(''), results: [], warnings: [] });
    // Copilot alone: `yes` is no boolean to VS Code, and `when_to_use` is Claude Code's.
    writeFileSync(join(both, 'docgate.config.yaml'), 'presets: [copilot]\n');
    expect(lintJson(both).results).toEqual([
      [
        '.github/skills/s/SKILL.md',
        '4:17 Unexpected string for `user-invocable`, expected a boolean (false: VS Code and the Copilot CLI hide it from the `/` menu; default true) [wrong-type]\n8:1 Unexpected key `when_to_use`, expected one of: `name`, `description`, `license`, `compatibility`, `metadata`, `allowed-tools`, `argument-hint`, `user-invocable`, `disable-model-invocation`, `context` [unknown-key]',
      ],
    ]);
  });

  it('--print-config shows the presets in layer order and the kind as the layers merge it', () => {
    const config = 'presets: [claude-code, copilot]\nkinds:\n  skill:\n    rules: { skill-body-lines: off }\n';
    const root = tempRoot('docgate-layers-', { 'docgate.config.yaml': config, 'skills/a/SKILL.md': brokenLink }, made);
    const r = runCli(['lint', '--print-config', 'skills/a/SKILL.md'], { cwd: root });
    expect([r.code, r.stderr]).toEqual([0, '']);
    const printed = JSON.parse(r.stdout) as { kind: string; presets: string[]; ruleFiles: unknown; kindConfig: unknown; rules: Record<string, string> };
    expect([printed.kind, printed.presets]).toEqual(['skill', ['agent-skills', 'claude-code', 'copilot']]);
    expect(printed.ruleFiles).toEqual({
      schema: join(REPO, 'schemas', 'skill.schema.json'),
      dialects: [join(REPO, 'schemas', 'skill.claude-code.schema.json'), join(REPO, 'schemas', 'skill.copilot.schema.json')],
    });
    expect(printed.kindConfig).toEqual({
      include: ['**/skills/*/SKILL.md', '**/.claude/skills/*/SKILL.md', '**/.github/skills/*/SKILL.md', '**/.agents/skills/*/SKILL.md'],
      id: { field: 'name' },
      match: { field: 'name', equals: 'folder' },
      frontmatter: 'skill.schema.json',
      body: { required: true, maxLines: 500 },
      rules: { 'link-target': 'error', 'skill-body-lines': 'off' },
      dialects: ['skill.claude-code.schema.json', 'skill.copilot.schema.json'],
    });
    expect([printed.rules['link-target'], printed.rules['skill-body-lines'], printed.rules['skill-body-required']]).toEqual(['error', 'off', 'error']);
    // Without presets the output is as it was: no `presets`, no `kindConfig`.
    const plain = tempRoot('docgate-layers-', { 'docgate.config.yaml': 'rules: {}\n' }, made);
    expect(Object.keys(JSON.parse(runCli(['lint', '--print-config', 'processes/x.md'], { cwd: plain }).stdout))).toEqual([
      'path',
      'kind',
      'ignored',
      'config',
      'ruleFiles',
      'rules',
    ]);
  });
});
