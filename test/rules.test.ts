import { describe, expect, it } from 'vitest';
import { fixture, lintRoot } from './helpers.js';

/**
 * One failing fixture per rule (test/fixtures/rules/<case>/ is a root of its own), each asserting the
 * complete list of diagnostics of the file: rule id, message, and exact line:column on disk.
 */
interface Case {
  name: string;
  file: string;
  expected: { line: number; column: number; rule: string; message: string }[];
}

const ORDER = 'framework, purpose, output, work, examples, requirements, save_as, store_as';
const KEYS = '`framework`, `purpose`, `output`, `work`, `examples`, `requirements`, `save_as`, `store_as`';
const ID = '7d1f3c2a-9b8e-4f6d-a5c4-3b2a1f0e9d8c';

const cases: Case[] = [
  {
    name: 'template-field-order',
    file: 'templates/power/readme.txt',
    expected: [
      {
        line: 3,
        column: 1,
        rule: 'template-field-order',
        message: `Unexpected field \`purpose\` after \`output\`, expected the order ${ORDER}`,
        // SPEC §11: the fields that move, in the schema's order.
        fix: {
          line: 2,
          column: 1,
          endLine: 3,
          endColumn: 61,
          text: 'purpose: Generate README.md as the discovery entry document.\noutput: Markdown with the required header and footer.',
        },
      },
    ],
  },
  {
    name: 'template-empty-field',
    file: 'templates/power/readme.txt',
    expected: [{ line: 4, column: 1, rule: 'empty-value', message: 'Unexpected empty `work`, expected a value (the analysis steps)' }],
  },
  {
    name: 'template-examples-bullet',
    file: 'templates/power/readme.txt',
    expected: [
      {
        line: 6,
        column: 1,
        rule: 'template-examples-bullet',
        message: 'Unexpected example line `README with installation steps`, expected a bullet `- <example>`',
      },
    ],
  },
  {
    name: 'template-framework',
    file: 'templates/power/readme.txt',
    expected: [{ line: 1, column: 12, rule: 'invalid-value', message: 'Unexpected `framework` value `COSTAR`, expected `POWER` (the framework name `POWER`)' }],
  },
  {
    name: 'template-purpose-period',
    file: 'templates/power/readme.txt',
    expected: [
      {
        line: 2,
        column: 10,
        rule: 'invalid-value',
        message:
          'Unexpected `purpose` value `Generate README.md as the discovery entry document`, expected a value matching `^[^.!?]*(?:[.!?]+[^\\s.!?][^.!?]*)*[.!?]*[^\\s.]\\.$` (one sentence ending with a period)',
      },
    ],
  },
  {
    name: 'template-bom',
    file: 'templates/power/readme.txt',
    expected: [
      {
        line: 1,
        column: 1,
        rule: 'file-bom',
        message: 'Unexpected byte order mark (BOM), expected UTF-8 without a BOM',
        fix: { line: 1, column: 1, endLine: 1, endColumn: 2, text: '' },
      },
    ],
  },
  {
    name: 'template-size',
    file: 'templates/power/readme.txt',
    expected: [{ line: 1, column: 1, rule: 'file-size', message: 'Unexpected file size 51,200 bytes, expected less than 51,200 bytes' }],
  },
  {
    name: 'template-name-hyphen',
    file: 'templates/power/read-me.txt',
    expected: [
      {
        line: 1,
        column: 1,
        rule: 'file-name',
        message: 'Unexpected file name `read-me.txt`, expected lowercase letters and digits only, such as `readme.txt`',
      },
    ],
  },
  {
    name: 'template-name-capital',
    file: 'templates/power/Readme.txt',
    expected: [
      { line: 1, column: 1, rule: 'file-name', message: 'Unexpected file name `Readme.txt`, expected lowercase letters and digits only, such as `readme.txt`' },
    ],
  },
  {
    name: 'template-unknown-key',
    file: 'templates/power/readme.txt',
    expected: [{ line: 11, column: 1, rule: 'unknown-key', message: `Unexpected key \`author\`, expected one of: ${KEYS}` }],
  },
  {
    name: 'template-repeated-key',
    file: 'templates/power/readme.txt',
    expected: [{ line: 8, column: 1, rule: 'duplicate-key', message: 'Unexpected duplicate field `work` (first on line 4), expected each field once' }],
  },
  {
    name: 'template-dangling-placeholder',
    file: 'templates/power/readme.txt',
    expected: [
      {
        line: 8,
        column: 85,
        rule: 'template-placeholder',
        message: 'Unexpected placeholder `{{setup_summary}}` that no template stores, expected the `store_as` of another template',
      },
    ],
  },
  {
    name: 'template-cycle',
    file: 'templates/power/alpha.txt',
    expected: [
      {
        line: 8,
        column: 80,
        rule: 'template-placeholder-cycle',
        message: 'Unexpected placeholder cycle alpha → beta → alpha, expected templates to reference each other without a cycle',
      },
    ],
  },
  {
    name: 'template-duplicate-store-as',
    file: 'templates/power/api.txt',
    expected: [
      {
        line: 10,
        column: 11,
        rule: 'template-duplicate-store-as',
        message: 'Unexpected duplicate store_as `readme_summary`, expected it unique (also in templates/power/readme.txt)',
      },
    ],
  },
  {
    name: 'framework-heading',
    file: 'frameworks/COSTAR.md',
    expected: [{ line: 1, column: 1, rule: 'framework-heading', message: 'Unexpected first line `COSTAR is a prompt framework.`, expected a `# ` heading' }],
  },
  {
    name: 'process-unknown-key',
    file: 'processes/code-review.md',
    expected: [{ line: 3, column: 1, rule: 'unknown-key', message: 'Unexpected key `owner`, expected one of: `name`, `description`' }],
  },
  {
    name: 'process-name-type',
    file: 'processes/code-review.md',
    expected: [
      {
        line: 2,
        column: 7,
        rule: 'wrong-type',
        message: 'Unexpected number for `name`, expected a string: a non-empty process name (when absent it is derived from the file name)',
      },
    ],
  },
  {
    name: 'process-empty-body',
    file: 'processes/code-review.md',
    expected: [{ line: 5, column: 1, rule: 'process-empty-body', message: 'Unexpected empty body, expected markdown content after the frontmatter' }],
  },
  {
    name: 'process-duplicate-name',
    file: 'processes/peer-review.md',
    expected: [
      {
        line: 2,
        column: 7,
        rule: 'process-duplicate-name',
        message: 'Unexpected duplicate process name `code REVIEW`, expected names unique ignoring case (also in processes/code-review.md)',
      },
    ],
  },
  {
    name: 'process-malformed-yaml',
    file: 'processes/code-review.md',
    expected: [
      {
        line: 3,
        column: 28,
        rule: 'yaml-syntax',
        message: 'Unexpected YAML syntax: Flow sequence in block collection must be sufficiently indented and end with a ]',
      },
    ],
  },
  {
    name: 'process-unterminated',
    file: 'processes/code-review.md',
    expected: [
      { line: 1, column: 1, rule: 'frontmatter-unterminated', message: 'Unexpected frontmatter without a closing `---` line, expected `---` after the YAML' },
    ],
  },
  {
    name: 'sysrs-status',
    file: 'docs/sysrs/fixture.md',
    expected: [
      {
        line: 4,
        column: 9,
        rule: 'invalid-value',
        message: 'Unexpected `status` value `drafty`, expected one of: `draft`, `review`, `approved`, `active`, `retired`',
      },
    ],
  },
  {
    name: 'sysrs-type',
    file: 'docs/sysrs/fixture.md',
    expected: [{ line: 3, column: 7, rule: 'invalid-value', message: 'Unexpected `type` value `spec`, expected `sysrs`' }],
  },
  {
    name: 'sysrs-unquoted-timestamp',
    file: 'docs/sysrs/fixture.md',
    expected: [
      {
        line: 5,
        column: 10,
        rule: 'yaml-unquoted-timestamp',
        message:
          "Unexpected unquoted timestamp `2025-11-02 07:34:29.518Z`, expected it quoted ('2025-11-02 07:34:29.518Z') so every YAML reader keeps it a string",
        fix: { line: 5, column: 10, endLine: 5, endColumn: 34, text: "'2025-11-02 07:34:29.518Z'" },
      },
    ],
  },
  {
    name: 'sysrs-version',
    file: 'docs/sysrs/fixture.md',
    expected: [
      {
        line: 6,
        column: 10,
        rule: 'invalid-value',
        message:
          'Unexpected `version` value `2.0.0`, expected a value matching the `pattern` of the schema (a semantic version with major version 1, such as `1.2.0`)',
      },
    ],
  },
  {
    name: 'sysrs-id',
    file: 'docs/sysrs/fixture.md',
    expected: [
      {
        line: 2,
        column: 5,
        rule: 'invalid-value',
        message:
          'Unexpected `id` value `REQ-0001`, expected a value matching the `pattern` of the schema (a lowercase canonical UUID such as `3f2b8c1e-5d4a-4e2f-9b6c-1a2b3c4d5e6f`)',
      },
    ],
  },
  {
    name: 'sysrs-duplicate-id',
    file: 'docs/sysrs/second.md',
    expected: [
      {
        line: 2,
        column: 5,
        rule: 'sysrs-duplicate-id',
        message: `Unexpected duplicate id \`${ID}\`, expected ids unique across documents (also in docs/sysrs/first.md)`,
      },
    ],
  },
  {
    name: 'sysrs-malformed-yaml',
    file: 'docs/sysrs/fixture.md',
    expected: [
      { line: 4, column: 9, rule: 'yaml-syntax', message: 'Unexpected YAML syntax: Implicit keys need to be on a single line' },
      { line: 4, column: 9, rule: 'yaml-syntax', message: 'Unexpected YAML syntax: Nested mappings are not allowed in compact mappings' },
    ],
  },
  {
    name: 'sysrs-unterminated',
    file: 'docs/sysrs/fixture.md',
    expected: [
      { line: 1, column: 1, rule: 'frontmatter-unterminated', message: 'Unexpected frontmatter without a closing `---` line, expected `---` after the YAML' },
    ],
  },
];

describe('one failing fixture per rule', () => {
  it.each(cases)('$name', ({ name, file, expected }) => {
    const run = lintRoot(fixture('rules', name));
    const result = run.results.find((r) => r.path === file);
    expect(result, `${file} should fail`).toBeDefined();
    expect(result!.diagnostics).toEqual(expected);
  });

  it('passes the valid SysRS fixture the frontmatter cases are made from', () => {
    const run = lintRoot(fixture('rules', 'sysrs-valid'));
    expect(run.filesChecked).toBe(1);
    expect(run.results).toEqual([]);
  });

  it('reports a placeholder cycle on every template in it', () => {
    const run = lintRoot(fixture('rules', 'template-cycle'));
    expect(run.results.map((r) => [r.path, r.diagnostics.map((d) => d.rule)])).toEqual([
      ['templates/power/alpha.txt', ['template-placeholder-cycle']],
      ['templates/power/beta.txt', ['template-placeholder-cycle']],
    ]);
  });

  it('gives each failure the id SPEC §1 defines for its kind', () => {
    expect(lintRoot(fixture('rules', 'template-bom')).results[0]!.id).toBe('readme');
    expect(lintRoot(fixture('rules', 'framework-heading')).results[0]!.id).toBe('COSTAR.md');
    expect(lintRoot(fixture('rules', 'process-unknown-key')).results[0]!.id).toBe('code-review');
    expect(lintRoot(fixture('rules', 'sysrs-status')).results[0]!.id).toBe(ID);
    // An id that is not a UUID cannot identify the document: the file stem does.
    expect(lintRoot(fixture('rules', 'sysrs-id')).results[0]!.id).toBe('fixture');
  });
});
