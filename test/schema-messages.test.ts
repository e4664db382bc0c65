import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { lintRoot as lint } from '../src/lint/root.js';

/**
 * Every JSON Schema keyword a team may add to a rule file gives one "Unexpected X, expected Y" message
 * built from the schema, at the value (or at the key, where the key is what is wrong). Each case is a
 * root whose `schemas/process-frontmatter.schema.json` is the team's schema, and one process whose
 * frontmatter breaks it; the assertion is the process's whole `error` text.
 */
const roots: string[] = [];
afterAll(() => {
  for (const r of roots) rmSync(r, { recursive: true, force: true });
});

type Schema = Record<string, unknown>;

/** The `error` of processes/p.md (frontmatter lines from line 2 on) under a process schema with these properties. */
function errorOf(properties: Schema, frontmatter: string, extra: Schema = {}): string {
  const root = mkdtempSync(join(tmpdir(), 'docgate-schema-messages-'));
  roots.push(root);
  const schema = { $schema: 'https://json-schema.org/draft/2020-12/schema', type: 'object', properties, additionalProperties: false, ...extra };
  const files: Record<string, string> = {
    'schemas/process-frontmatter.schema.json': JSON.stringify(schema, null, 2),
    'processes/p.md': `---\n${frontmatter}---\n\n# P\n\nSteps.\n`,
  };
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(dirname(join(root, path)), { recursive: true });
    writeFileSync(join(root, path), text);
  }
  const run = lint({ root, paths: [] });
  return run.results.find((r) => r.path === 'processes/p.md')?.error ?? '';
}

describe('string keywords', () => {
  it('maxLength: at most N characters (the issue\'s "expected it to must NOT have more than 20 characters")', () => {
    expect(errorOf({ summary: { type: 'string', maxLength: 20 } }, 'summary: This summary is far too long\n')).toBe(
      '2:10 Unexpected `summary` value `This summary is far too long`, expected at most 20 characters [invalid-value]',
    );
  });

  it("maxLength: the schema's description wins", () => {
    expect(
      errorOf({ summary: { type: 'string', maxLength: 20, description: 'a summary of at most 20 characters' } }, 'summary: This summary is far too long\n'),
    ).toBe(
      '2:10 Unexpected `summary` value `This summary is far too long`, expected at most 20 characters (a summary of at most 20 characters) [invalid-value]',
    );
  });

  it('minLength: at least N characters; a blank value is an empty value', () => {
    expect(errorOf({ code: { type: 'string', minLength: 3 } }, 'code: ab\n')).toBe(
      '2:7 Unexpected `code` value `ab`, expected at least 3 characters [invalid-value]',
    );
    expect(errorOf({ code: { type: 'string', minLength: 3, description: 'a code of three letters or more' } }, "code: '  '\n")).toBe(
      '2:7 Unexpected empty `code`, expected a value (a code of three letters or more) [empty-value]',
    );
  });

  it('pattern: a value matching the pattern', () => {
    expect(errorOf({ ticket: { type: 'string', pattern: '^[A-Z]+-[0-9]+$' } }, 'ticket: abc\n')).toBe(
      '2:9 Unexpected `ticket` value `abc`, expected a value matching `^[A-Z]+-[0-9]+$` [invalid-value]',
    );
  });

  it('format: a value in that format', () => {
    expect(errorOf({ contact: { type: 'string', format: 'email' } }, 'contact: ops at example\n')).toBe(
      '2:10 Unexpected `contact` value `ops at example`, expected a value in `email` format [invalid-value]',
    );
  });
});

describe('number keywords', () => {
  it('minimum: at least N', () => {
    expect(errorOf({ priority: { type: 'integer', minimum: 1 } }, 'priority: 0\n')).toBe(
      '2:11 Unexpected `priority` value `0`, expected at least 1 [invalid-value]',
    );
  });

  it('maximum: at most N', () => {
    expect(errorOf({ priority: { type: 'integer', maximum: 5 } }, 'priority: 9\n')).toBe(
      '2:11 Unexpected `priority` value `9`, expected at most 5 [invalid-value]',
    );
  });

  it('exclusiveMinimum: more than N', () => {
    expect(errorOf({ weight: { type: 'number', exclusiveMinimum: 0 } }, 'weight: 0\n')).toBe(
      '2:9 Unexpected `weight` value `0`, expected more than 0 [invalid-value]',
    );
  });

  it('exclusiveMaximum: less than N', () => {
    expect(errorOf({ percent: { type: 'number', exclusiveMaximum: 100 } }, 'percent: 100\n')).toBe(
      '2:10 Unexpected `percent` value `100`, expected less than 100 [invalid-value]',
    );
  });

  it('multipleOf: a multiple of N', () => {
    expect(errorOf({ minutes: { type: 'integer', multipleOf: 15 } }, 'minutes: 20\n')).toBe(
      '2:10 Unexpected `minutes` value `20`, expected a multiple of 15 [invalid-value]',
    );
  });
});

describe('list keywords', () => {
  it('minItems: at least N items; an empty list is an empty value', () => {
    expect(errorOf({ tags: { type: 'array', minItems: 2 } }, 'tags: [ops]\n')).toBe(
      '2:7 Unexpected `tags` with 1 item, expected at least 2 items [invalid-value]',
    );
    expect(errorOf({ tags: { type: 'array', minItems: 1 } }, 'tags: []\n')).toBe('2:7 Unexpected empty `tags`, expected at least 1 item [empty-value]');
  });

  it('maxItems: at most N items', () => {
    expect(errorOf({ tags: { type: 'array', maxItems: 2 } }, 'tags:\n  - a\n  - b\n  - c\n')).toBe(
      '3:3 Unexpected `tags` with 3 items, expected at most 2 items [invalid-value]',
    );
  });

  it('uniqueItems: at the repeated item', () => {
    expect(errorOf({ tags: { type: 'array', uniqueItems: true } }, 'tags: [ops, web, ops]\n')).toBe(
      '2:18 Unexpected duplicate item `ops` in `tags`, expected each item once [invalid-value]',
    );
  });

  it('items: a keyword of `items` at the item; `items: false` past `prefixItems` as a count', () => {
    expect(errorOf({ tags: { type: 'array', items: { type: 'string', maxLength: 3 } } }, 'tags: [ops, security]\n')).toBe(
      '2:13 Unexpected `tags.1` value `security`, expected at most 3 characters [invalid-value]',
    );
    expect(
      errorOf({ pair: { type: 'array', prefixItems: [{ type: 'string' }, { type: 'integer' }], minItems: 2, items: false } }, 'pair: [a, 1, extra]\n'),
    ).toBe('2:7 Unexpected `pair` with 3 items, expected at most 2 items [invalid-value]');
  });

  it('contains: at least N items that match', () => {
    expect(errorOf({ reviewers: { type: 'array', contains: { const: 'security' } } }, 'reviewers: [ann, bob]\n')).toBe(
      '2:12 Unexpected `reviewers` value `["ann","bob"]`, expected at least 1 item that is `security` [invalid-value]',
    );
    expect(errorOf({ reviewers: { type: 'array', contains: { const: 'security' }, minContains: 2 } }, 'reviewers: [security, bob]\n')).toBe(
      '2:12 Unexpected `reviewers` value `["security","bob"]`, expected at least 2 items that are `security` [invalid-value]',
    );
    expect(errorOf({ reviewers: { type: 'array', contains: { const: 'security' }, maxContains: 1 } }, 'reviewers: [security, security]\n')).toBe(
      '2:12 Unexpected `reviewers` value `["security","security"]`, expected exactly 1 item that is `security` [invalid-value]',
    );
  });
});

describe('mapping keywords', () => {
  it('minProperties: an empty mapping is an empty value; too few keys an invalid one', () => {
    expect(errorOf({ links: { type: 'object', minProperties: 1 } }, 'links: {}\n')).toBe('2:8 Unexpected empty `links`, expected at least 1 key [empty-value]');
    expect(errorOf({ links: { type: 'object', minProperties: 2 } }, 'links: {home: /}\n')).toBe(
      '2:8 Unexpected `links` with 1 key, expected at least 2 keys [invalid-value]',
    );
  });

  it('maxProperties: at most N keys', () => {
    expect(errorOf({ links: { type: 'object', maxProperties: 1 } }, 'links:\n  home: /\n  docs: /docs\n')).toBe(
      '3:3 Unexpected `links` with 2 keys, expected at most 1 key [invalid-value]',
    );
  });

  it('required: the missing key, with its description', () => {
    expect(
      errorOf({ name: { type: 'string' }, owner: { type: 'string', description: 'the team that owns the process' } }, 'name: P\n', { required: ['owner'] }),
    ).toBe('1:1 Unexpected missing key `owner`, expected an `owner` entry [missing-key]');
  });

  it('additionalProperties false: at the key, naming the keys allowed (and the patterns)', () => {
    expect(errorOf({ name: { type: 'string' } }, 'name: P\nowner: ops\n', { patternProperties: { '^x-': true } })).toBe(
      '3:1 Unexpected key `owner`, expected one of: `name`, or a key matching `^x-` [unknown-key]',
    );
  });

  it('unevaluatedProperties false: at the key, naming the keys of every subschema that applies (theirs first, then its own)', () => {
    expect(
      errorOf({ name: { type: 'string' } }, 'name: P\nowner: ops\nownr: ops\n', {
        additionalProperties: undefined,
        allOf: [{ properties: { owner: { type: 'string' } } }],
        unevaluatedProperties: false,
      }),
    ).toBe('4:1 Unexpected key `ownr`, expected one of: `owner`, `name` [unknown-key]');
  });

  it('propertyNames: at the key, with what a key must be', () => {
    expect(errorOf({ links: { type: 'object', propertyNames: { pattern: '^[a-z]+$' } } }, 'links:\n  home: /\n  Docs: /docs\n')).toBe(
      '4:3 Unexpected key `Docs`, expected a key matching `^[a-z]+$` [unknown-key]',
    );
  });

  it('dependentRequired: at the key that needs the other', () => {
    expect(
      errorOf({ reviewer: { type: 'string' }, approved: { type: 'string', description: 'the date of the approval' } }, 'reviewer: ann\n', {
        dependentRequired: { reviewer: ['approved'] },
      }),
    ).toBe('2:1 Unexpected missing key `approved` beside `reviewer`, expected an `approved` entry [missing-key]');
  });
});

describe('any value', () => {
  it('const: the one value', () => {
    expect(errorOf({ kind: { const: 'process' } }, 'kind: proc\n')).toBe('2:7 Unexpected `kind` value `proc`, expected `process` [invalid-value]');
  });

  it('enum: one of the values', () => {
    expect(errorOf({ level: { enum: ['low', 'high'] } }, 'level: mid\n')).toBe(
      '2:8 Unexpected `level` value `mid`, expected one of: `low`, `high` [invalid-value]',
    );
  });

  it('type: the type wanted, with its article', () => {
    expect(errorOf({ count: { type: 'integer' } }, 'count: many\n')).toBe('2:8 Unexpected string for `count`, expected an integer [wrong-type]');
    expect(errorOf({ done: { type: 'boolean' } }, 'done: 3\n')).toBe('2:7 Unexpected number for `done`, expected a boolean [wrong-type]');
  });

  it('a `false` subschema: no value', () => {
    expect(errorOf({ legacy: false }, 'legacy: yes\n')).toBe('2:9 Unexpected `legacy` value `yes`, expected no value (the schema is `false`) [schema]');
  });
});

describe('combinations: one message per value, not a pile', () => {
  it('anyOf: the alternatives, built from each branch', () => {
    expect(
      errorOf(
        {
          owner: {
            anyOf: [
              { type: 'string', pattern: '^@' },
              { type: 'array', minItems: 1 },
            ],
          },
        },
        'owner: 42\n',
      ),
    ).toBe('2:8 Unexpected `owner` value `42`, expected a string matching `^@` or a list with at least 1 item [invalid-value]');
  });

  it('anyOf: a branch that `$ref`s a recursive definition still gives one message', () => {
    const defs = {
      node: { type: 'object', properties: { name: { $ref: '#/$defs/name' }, children: { type: 'array', items: { $ref: '#/$defs/node' } } } },
      name: { type: 'string' },
    };
    expect(
      errorOf({ tree: { anyOf: [{ $ref: '#/$defs/node' }, { type: 'boolean' }] } }, 'tree:\n  name: 1\n  children:\n    - name: 2\n', { $defs: defs }),
    ).toBe('3:3 Unexpected `tree` value `{"name":1,"children":[{"name":2}]}`, expected a mapping or a boolean [invalid-value]');
  });

  it('anyOf: the description wins', () => {
    expect(
      errorOf(
        { owner: { description: 'a handle such as `@ops`, or a list of them', anyOf: [{ type: 'string', pattern: '^@' }, { type: 'array' }] } },
        'owner: ops\n',
      ),
    ).toBe('2:8 Unexpected `owner` value `ops`, expected a string matching `^@` or a list (a handle such as `@ops`, or a list of them) [invalid-value]');
  });

  it('oneOf that no branch matches: the alternatives', () => {
    expect(
      errorOf(
        {
          due: {
            oneOf: [
              { type: 'string', format: 'date' },
              { type: 'integer', minimum: 1 },
            ],
          },
        },
        'due: soon\n',
      ),
    ).toBe('2:6 Unexpected `due` value `soon`, expected a string in `date` format or an integer of at least 1 [invalid-value]');
  });

  it('oneOf that two branches match: which ones', () => {
    expect(
      errorOf(
        {
          code: {
            oneOf: [
              { type: 'string', maxLength: 4 },
              { type: 'string', pattern: '^[A-Z]+$' },
            ],
          },
        },
        'code: AB\n',
      ),
    ).toBe(
      '2:7 Unexpected `code` value `AB` matching both a string of at most 4 characters and a string matching `^[A-Z]+$`, expected only one of them [invalid-value]',
    );
  });

  it('not: anything but what it names', () => {
    expect(errorOf({ status: { type: 'string', not: { const: 'TODO' } } }, 'status: TODO\n')).toBe(
      '2:9 Unexpected `status` value `TODO`, expected anything but `TODO` [invalid-value]',
    );
  });

  it('if/then: the error of `then`, saying when it applies', () => {
    expect(
      errorOf({ status: { enum: ['draft', 'done'] }, reviewer: { type: 'string' } }, 'status: done\n', {
        if: { properties: { status: { const: 'done' } }, required: ['status'] },
        // biome-ignore lint/suspicious/noThenProperty: the JSON Schema keyword `then`
        then: { required: ['reviewer'] },
      }),
    ).toBe('1:1 Unexpected missing key `reviewer`, expected a `reviewer` entry when `status` is `done` [missing-key]');
  });

  it('if/else: the error of `else`, saying when it applies', () => {
    expect(
      errorOf({ status: { enum: ['draft', 'done'] }, due: { type: 'string' } }, 'status: draft\n', {
        if: { properties: { status: { const: 'done' } }, required: ['status'] },
        else: { required: ['due'] },
      }),
    ).toBe('1:1 Unexpected missing key `due`, expected a `due` entry unless `status` is `done` [missing-key]');
  });
});
