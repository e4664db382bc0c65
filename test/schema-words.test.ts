import { beforeAll, describe, expect, it } from 'vitest';
import { fixture, runCli } from './helpers.js';

/**
 * The words of schema messages (docs/messages.md): where the broken subschema has a `description`, the
 * message names the constraint first and the description after it in parentheses; a missing key reads
 * "expected a `name` entry" whatever its description. One root, test/fixtures/schema-words/: a process
 * schema of its own with a described property per keyword family, and the Agent Skills preset. Each
 * file's diagnostics are asserted exactly through the CLI's json report.
 */

interface Diagnostic {
  line: number;
  column: number;
  rule: string;
  message: string;
}

const ROOT = fixture('schema-words');
let byPath: Map<string, Diagnostic[]>;

beforeAll(() => {
  const r = runCli(['lint', '--root', ROOT, '--format', 'json']);
  expect(r.code).toBe(1);
  const report = JSON.parse(r.stdout) as { results: { path: string; diagnostics: Diagnostic[] }[] };
  byPath = new Map(report.results.map((x) => [x.path, x.diagnostics.map(({ line, column, rule, message }) => ({ line, column, rule, message }))]));
});

/** The diagnostics of `path`, as [line, column, rule, message]. */
function of(path: string): [number, number, string, string][] {
  return (byPath.get(path) ?? []).map((d) => [d.line, d.column, d.rule, d.message]);
}

describe('the constraint first, the description after', () => {
  it('maxLength: at most N characters, then the description', () => {
    expect(of('processes/too-long.md')).toEqual([
      [3, 14, 'invalid-value', 'Unexpected `description` value `Ships the web app to production`, expected at most 20 characters (a one-line description)'],
    ]);
  });

  it('pattern and format: the pattern or format, then the description', () => {
    expect(of('processes/bad-owner.md')).toEqual([
      [2, 8, 'invalid-value', "Unexpected `owner` value `ops`, expected a value matching `^@[a-z]+$` (the owning team's handle)"],
    ]);
    expect(of('processes/due.md')).toEqual([[3, 6, 'invalid-value', 'Unexpected `due` value `tomorrow`, expected a value in `date` format (the due date)']]);
  });

  it('minimum, maximum, exclusiveMinimum: the bound, then the description', () => {
    expect(of('processes/range.md')).toEqual([
      [3, 11, 'invalid-value', 'Unexpected `priority` value `9`, expected at most 5 (the priority)'],
      [4, 9, 'invalid-value', 'Unexpected `weight` value `0`, expected more than 0 (the weight)'],
    ]);
  });

  it('maxItems and uniqueItems: the count or each item once, then the description', () => {
    expect(of('processes/many-tags.md')).toEqual([[3, 7, 'invalid-value', 'Unexpected `tags` with 3 items, expected at most 2 items (the tags)']]);
    expect(of('processes/twice.md')).toEqual([[3, 8, 'invalid-value', 'Unexpected duplicate item `a` in `tags`, expected each item once (the tags)']]);
  });

  it('enum and const: the allowed values, then the description', () => {
    expect(of('processes/choice.md')).toEqual([
      [3, 9, 'invalid-value', 'Unexpected `status` value `doing`, expected one of: `draft`, `done` (the stage it is at)'],
      [4, 7, 'invalid-value', 'Unexpected `kind` value `doc`, expected `process` (the document kind)'],
    ]);
  });

  it('type: the type, then the description', () => {
    expect(of('processes/typed.md')).toEqual([[3, 11, 'wrong-type', 'Unexpected string for `priority`, expected an integer (the priority)']]);
  });

  it('a blank value and anyOf: a value, or the branches, then the description', () => {
    expect(of('processes/blank-name.md')).toEqual([
      [3, 7, 'empty-value', 'Unexpected empty `name`, expected a value (the process name)'],
      [4, 12, 'invalid-value', 'Unexpected `reviewers` value `42`, expected a string matching `^@` or a list (who reviews it: a handle or a list of them)'],
    ]);
  });
});

describe('a bundled key tightened by `$ref`', () => {
  it('maxLength 20 on the bundled `description`: the limit, then the bundled description', () => {
    const r = runCli(['lint', '--root', fixture('schema-words-ref'), '--format', 'json']);
    const report = JSON.parse(r.stdout) as { results: { path: string; diagnostics: Diagnostic[] }[] };
    expect([r.code, report.results.map((x) => [x.path, x.diagnostics.map((d) => [d.line, d.column, d.rule, d.message])])]).toEqual([
      1,
      [
        [
          'processes/deploy.md',
          [
            [
              3,
              14,
              'invalid-value',
              'Unexpected `description` value `Ships the web app to production`, expected at most 20 characters (a one-line description)',
            ],
          ],
        ],
      ],
    ]);
  });
});

describe('a missing key names the key, not its description', () => {
  it('required: expected an `owner` entry (the article goes by the first letter)', () => {
    expect(of('processes/no-owner.md')).toEqual([[1, 1, 'missing-key', 'Unexpected missing key `owner`, expected an `owner` entry']]);
  });
});

describe('a preset kind: Agent Skills', () => {
  it('description maxLength 1024: the limit, then what the description is for', () => {
    expect(of('skills/too-long/SKILL.md')).toEqual([
      [
        3,
        14,
        'invalid-value',
        'Unexpected `description` value `Reads a long report. Reads a long report. Reads a long re...`, expected at most 1024 characters (a text of 1–1024 characters saying what the skill does and when to use it: an agent reads it to decide whether to load the skill)',
      ],
    ]);
  });

  it('name pattern: a pattern longer than 60 characters is named, not shown, before the description', () => {
    expect(of('skills/bad_name/SKILL.md')).toEqual([
      [
        2,
        7,
        'invalid-value',
        "Unexpected `name` value `bad_name`, expected a value matching the `pattern` of the schema: a name of 1–64 lowercase letters (of any script, as the reference validator reads them), digits and single hyphens inside, equal to its folder's name: clients list, load and invoke the skill by it",
      ],
    ]);
  });

  it('a missing name: expected a `name` entry', () => {
    expect(of('skills/no-name/SKILL.md')).toEqual([[1, 1, 'missing-key', 'Unexpected missing key `name`, expected a `name` entry']]);
  });
});
