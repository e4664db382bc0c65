import { spawnSync } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, readFileSync, realpathSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { REPO, runCli } from './helpers.js';
import { startMcp, structuredOf } from './fixtures/mcp/harness.js';

/**
 * SPEC §8 "Rule files are extended, not copied": a root schema `$ref`s a bundled schema by its `$id`,
 * adds its own keys, and keeps every bundled property and check; the referenced part is read from the
 * docgate that runs, so upgrading docgate updates it.
 */
const tmp = realpathSync(mkdtempSync(join(tmpdir(), 'docgate-schema-extend-')));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));
let n = 0;

function newRoot(files: Record<string, string>): string {
  const root = join(tmp, `root${n++}`);
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(dirname(join(root, path)), { recursive: true });
    writeFileSync(join(root, path), text);
  }
  return root;
}

/** The example of docs/power-and-processes.md (the first test checks it is): process frontmatter gains `owner`, in 8 lines. */
const OWNER_SCHEMA = `{
  "$schema": "https://json-schema.org/draft/2020-12/schema",
  "$ref": "https://docgate.dev/schemas/process-frontmatter.schema.json",
  "properties": {
    "owner": { "type": "string", "description": "the team that owns the process" }
  },
  "unevaluatedProperties": false
}
`;

/** Runs another docgate's bin as a user would (runCli runs this repository's). */
function spawnCli(bin: string, args: string[]): { code: number | null; stdout: string; stderr: string } {
  const env = { ...process.env };
  delete env.DOCGATE_ROOT;
  const r = spawnSync(process.execPath, [bin, ...args], { cwd: tmp, env, encoding: 'utf8' });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

const processFile = (frontmatter: string, title = 'P') => `---\n${frontmatter}---\n\n# ${title}\n\nSteps.\n`;

describe('a root schema extends a bundled one by `$ref` to its `$id`', () => {
  it('adds `owner` to processes in at most 10 lines; unknown keys are still refused, naming every allowed key; the bundled checks still apply', () => {
    expect(OWNER_SCHEMA.split('\n').length - 1).toBeLessThanOrEqual(10);
    // docs/power-and-processes.md shows this very schema.
    expect(/## Extending a schema[\s\S]*?```json\n([\s\S]*?)```/.exec(readFileSync(join(REPO, 'docs', 'power-and-processes.md'), 'utf8'))?.[1]).toBe(
      OWNER_SCHEMA,
    );
    const root = newRoot({
      'schemas/process-frontmatter.schema.json': OWNER_SCHEMA,
      'processes/owned.md': processFile('name: Owned\nowner: platform-team\ndescription: Has an owner\n'),
      'processes/typo.md': processFile('name: Typo\nownr: platform-team\n'),
      'processes/blank.md': processFile("name: '  '\nowner: web\n"),
      'processes/number.md': processFile('owner: 42\n'),
    });
    const run = runCli(['lint', '--root', root]);
    expect(run.stdout).toBe(
      [
        'processes/blank.md',
        '  2:7 Unexpected `name` value `  `, expected a value matching `\\S`: a non-empty process name (when absent it is derived from the file name) [invalid-value]',
        '',
        'processes/number.md',
        '  2:8 Unexpected number for `owner`, expected a string (the team that owns the process) [wrong-type]',
        '',
        'processes/typo.md',
        '  3:1 Unexpected key `ownr`, expected one of: `name`, `description`, `owner` [unknown-key]',
        '',
        '3 problems in 3 files (4 files checked)',
        '',
      ].join('\n'),
    );
    expect(run.stderr).toBe('');
    expect(run.code).toBe(1);
  });

  it('keeps the defaults of the bundled part: an extended SysRS schema still gives `status: draft` and `version: 1.0.0`', async () => {
    const alpha = readFileSync(join(REPO, 'test', 'fixtures', 'mcp', 'content', 'docs', 'sysrs', 'alpha.md'), 'utf8');
    const id = '11111111-1111-4111-8111-111111111111';
    const root = newRoot({
      'schemas/sysrs-frontmatter.schema.json': OWNER_SCHEMA.replace('process-frontmatter', 'sysrs-frontmatter').replace('the process', 'the specification'),
      'docs/sysrs/alpha.md': alpha.replace(/^---\n[\s\S]*?\n---\n/, `---\nid: ${id}\nowner: platform-team\n---\n`),
    });
    expect(runCli(['lint', '--root', root])).toEqual({ code: 0, stdout: '0 problems in 0 files (1 file checked)\n', stderr: '' });
    const s = await startMcp(root);
    try {
      const doc = structuredOf<{ result: { frontmatter: Record<string, unknown> } }>(await s.call('get_sysrs', { id }));
      expect(doc.result.frontmatter).toEqual({ id, owner: 'platform-team', type: 'sysrs', status: 'draft', version: '1.0.0' });
    } finally {
      await s.close();
    }
  });

  it('keeps the field order of the bundled template schema, the added field last', () => {
    const root = newRoot({
      'schemas/power-template.schema.json': OWNER_SCHEMA.replace('process-frontmatter', 'power-template').replace('the process', 'the template'),
      'templates/power/readme.txt':
        'framework: POWER\noutput: README.md with a header.\npurpose: Generate README.md.\nwork: Read the code.\nexamples:\n- README\nrequirements: Short.\nsave_as: README.md\nstore_as: readme_summary\nowner: docs-team\n',
    });
    const run = runCli(['lint', '--root', root]);
    expect(run.stdout).toBe(
      'templates/power/readme.txt\n  3:1 Unexpected field `purpose` after `output`, expected the order framework, purpose, output, work, examples, requirements, save_as, store_as, owner [template-field-order] (fixable)\n\n1 problem in 1 file (1 file checked)\n  1 error and 0 warnings potentially fixable with the `--fix` option.\n',
    );
    expect(run.code).toBe(1);
  });

  it('`additionalProperties: false` beside the `$ref` refuses the referenced keys, and the message says what to use instead', () => {
    const root = newRoot({
      'schemas/process-frontmatter.schema.json': OWNER_SCHEMA.replace('unevaluatedProperties', 'additionalProperties'),
      'processes/p.md': processFile('name: P\nowner: ops\n'),
    });
    expect(runCli(['lint', '--root', root])).toEqual({
      code: 1,
      stdout:
        'processes/p.md\n  2:1 Unexpected key `name`, expected one of: `owner` (`additionalProperties` sees only the `properties` beside it; `unevaluatedProperties` also sees those of a `$ref` or `allOf`) [unknown-key]\n\n1 problem in 1 file (1 file checked)\n',
      stderr: '',
    });
  });

  it('a branch that `$ref`s a bundled property is described by it, in one message', () => {
    const root = newRoot({
      'schemas/process-frontmatter.schema.json': OWNER_SCHEMA.replace(
        '"owner": { "type": "string", "description": "the team that owns the process" }',
        '"owner": { "anyOf": [{ "$ref": "https://docgate.dev/schemas/process-frontmatter.schema.json#/properties/name" }, { "type": "array" }] }',
      ),
      'processes/p.md': processFile('name: P\nowner: 42\n'),
    });
    expect(runCli(['lint', '--root', root])).toEqual({
      code: 1,
      stdout:
        'processes/p.md\n  3:8 Unexpected `owner` value `42`, expected a non-empty process name (when absent it is derived from the file name) or a list [invalid-value]\n\n1 problem in 1 file (1 file checked)\n',
      stderr: '',
    });
  });

  it('reads the referenced part from the docgate that runs: an upgraded docgate with a new bundled key accepts it', () => {
    // A copy of the installed package whose bundled process schema has gained `audience` (an upgrade).
    const install = join(tmp, 'upgraded-docgate');
    for (const entry of ['package.json', 'bin', 'dist', 'schemas']) cpSync(join(REPO, entry), join(install, entry), { recursive: true });
    symlinkSync(join(REPO, 'node_modules'), join(install, 'node_modules'), 'dir');
    const bundled = join(install, 'schemas', 'process-frontmatter.schema.json');
    const schema = JSON.parse(readFileSync(bundled, 'utf8')) as { properties: Record<string, unknown> };
    schema.properties['audience'] = { type: 'string', description: 'who reads the process' };
    writeFileSync(bundled, JSON.stringify(schema, null, 2));
    const root = newRoot({
      'schemas/process-frontmatter.schema.json': OWNER_SCHEMA,
      'processes/p.md': processFile('name: P\nowner: ops\naudience: developers\n'),
    });
    expect(runCli(['lint', '--root', root])).toEqual({
      code: 1,
      stdout:
        'processes/p.md\n  4:1 Unexpected key `audience`, expected one of: `name`, `description`, `owner` [unknown-key]\n\n1 problem in 1 file (1 file checked)\n',
      stderr: '',
    });
    const copy = spawnCli(join(install, 'bin', 'docgate.js'), ['lint', '--root', root]);
    expect(copy).toEqual({ code: 0, stdout: '0 problems in 0 files (1 file checked)\n', stderr: '' });
    // The same version with another bundled schema: a cache written by one is not replayed by the other.
    const cache = ['--cache', '--cache-location', join(tmp, 'upgrade-cache.json')];
    expect(runCli(['lint', '--root', root, ...cache]).code).toBe(1);
    expect(spawnCli(join(install, 'bin', 'docgate.js'), ['lint', '--root', root, ...cache])).toEqual({
      code: 0,
      stdout: '0 problems in 0 files (1 file checked)\n',
      stderr: '',
    });
    expect(runCli(['lint', '--root', root, ...cache]).code).toBe(1);
  });

  it('a root file that reuses the bundled `$id` (a whole copy, as before) still overrides the bundled schema', () => {
    const bundled = JSON.parse(readFileSync(join(REPO, 'schemas', 'process-frontmatter.schema.json'), 'utf8')) as {
      $id: string;
      properties: Record<string, unknown>;
    };
    bundled.properties['owner'] = { type: 'string' };
    const root = newRoot({
      'schemas/process-frontmatter.schema.json': JSON.stringify(bundled, null, 2),
      'processes/p.md': processFile('name: P\nowner: ops\n'),
      'processes/q.md': processFile('name: Q\nteam: ops\n'),
    });
    expect(runCli(['lint', '--root', root])).toEqual({
      code: 1,
      stdout:
        'processes/q.md\n  3:1 Unexpected key `team`, expected one of: `name`, `description`, `owner` [unknown-key]\n\n1 problem in 1 file (2 files checked)\n',
      stderr: '',
    });
  });

  it('a root file that reuses the bundled `$id` and `$ref`s it refers to itself: a configuration error, not a crash', () => {
    const root = newRoot({
      'schemas/process-frontmatter.schema.json': OWNER_SCHEMA.replace(
        '"$ref"',
        '"$id": "https://docgate.dev/schemas/process-frontmatter.schema.json",\n  "$ref"',
      ),
      'processes/p.md': processFile('name: P\nowner: ops\n'),
    });
    expect(runCli(['lint', '--root', root])).toEqual({
      code: 2,
      stdout: '',
      stderr:
        'docgate: schemas/process-frontmatter.schema.json:4:11 schema does not compile: `$ref` https://docgate.dev/schemas/process-frontmatter.schema.json at #/$ref leads back to #, without going into the data: it would never end (a schema that reuses a bundled `$id` replaces it; remove the `$id` to extend it)\n',
    });
  });

  it('a schema file that holds no schema (`null`, a list, a number) is a configuration error, not an internal one', () => {
    for (const [text, what] of [
      ['null', 'null'],
      ['[]', 'a list'],
      ['5', 'a number'],
    ]) {
      const root = newRoot({ 'schemas/process-frontmatter.schema.json': `${text}\n`, 'processes/p.md': processFile('name: P\n') });
      expect(runCli(['lint', '--root', root])).toEqual({
        code: 2,
        stdout: '',
        stderr: `docgate: schemas/process-frontmatter.schema.json:1:1 schema does not compile: unexpected ${what}, expected a JSON object (or \`true\`/\`false\`)\n`,
      });
    }
  });

  it('a `$ref` to an `$id` docgate does not have names it', () => {
    const root = newRoot({
      'schemas/process-frontmatter.schema.json': OWNER_SCHEMA.replace('process-frontmatter.schema.json', 'proces-frontmatter.schema.json'),
      'processes/p.md': processFile('name: P\n'),
    });
    expect(runCli(['lint', '--root', root])).toEqual({
      code: 2,
      stdout: '',
      stderr:
        "docgate: schemas/process-frontmatter.schema.json:3:11 schema does not compile: can't resolve reference https://docgate.dev/schemas/proces-frontmatter.schema.json from id #\n",
    });
  });
});

describe('bundled schemas keep their precompiled validators', () => {
  const spy = join(REPO, 'test', 'fixtures', 'schema', 'load-spy.cjs');
  // A cache folder of its own, empty: the machine's first run, with no validator kept (test/schema-cache.test.ts).
  const env = { NODE_OPTIONS: `--require ${spy}`, XDG_CACHE_HOME: mkdtempSync(join(tmpdir(), 'docgate-extend-cache-')) };

  it('a one-file lint of bundled content never loads the ajv compiler; a root schema that extends one does', () => {
    expect(runCli(['lint', 'processes/code-review.md'], { env })).toEqual({
      code: 0,
      stdout: '0 problems in 0 files (1 file checked)\n',
      stderr: 'ajv compiler loaded: false\n',
    });
    const root = newRoot({ 'schemas/process-frontmatter.schema.json': OWNER_SCHEMA, 'processes/p.md': processFile('name: P\nowner: ops\n') });
    expect(runCli(['lint', '--root', root, join(root, 'processes', 'p.md')], { env })).toEqual({
      code: 0,
      stdout: '0 problems in 0 files (1 file checked)\n',
      stderr: 'ajv compiler loaded: true\n',
    });
  });
});
