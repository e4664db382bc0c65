import { linearPattern } from '../../parse/linear-regexp.js';
import { quote } from '../../model/position.js';
import { defineRule } from '../../engine/rule.js';
import { errorsOf, expectation, followOf, reportView, valueWords } from './ajv-error.js';
import type { ErrorView } from './ajv-error.js';
import { isEmpty } from './empty-value.js';
import { replaceWritten } from './fix-words.js';
import { UUID, UUID_ANY_CASE } from '../../model/uuid.js';
import type { SchemaCheck } from '../../parse/frontmatter-doc.js';
import type { Pos } from '../../model/position.js';
import { and, constWords, demandWords, limitWords, phrase } from './words.js';
import type { Follow } from './words.js';

/** Keywords about a value itself: its length, pattern, format, range. */
const VALUE = ['minLength', 'maxLength', 'pattern', 'format', 'minimum', 'maximum', 'exclusiveMinimum', 'exclusiveMaximum', 'multipleOf'];
/** Keywords about how many items or keys a list or mapping has (`items`/`unevaluatedItems`: beyond `prefixItems`). */
const COUNT = ['minItems', 'maxItems', 'minProperties', 'maxProperties', 'items', 'unevaluatedItems'];
export const KEYWORDS = new Set([...VALUE, ...COUNT, 'enum', 'const', 'uniqueItems', 'contains', 'anyOf', 'oneOf', 'not']);

function count(n: number, word: string): string {
  return `${n} ${n === 1 ? word : `${word}s`}`;
}

/** `` `tags` with 3 items ``, `` `links` with 1 key ``. */
function sizeWords(e: ErrorView): string {
  const subject = e.path.length > 0 ? e.field : 'content';
  return Array.isArray(e.value) ? `${subject} with ${count(e.value.length, 'item')}` : `${subject} with ${count(Object.keys(e.value ?? {}).length, 'key')}`;
}

/** `at least 2 items that are `x``: what `contains` (with `minContains`/`maxContains`) asks. */
function containsWords(params: { minContains?: number; maxContains?: number }, items: unknown, follow: Follow): string {
  const min = params.minContains ?? 1;
  const max = params.maxContains;
  const [howMany, n] =
    max === undefined
      ? [`at least ${count(min, 'item')}`, min]
      : min === max
        ? [`exactly ${count(max, 'item')}`, max]
        : min === 0
          ? [`at most ${count(max, 'item')}`, max]
          : [`${min} to ${max} items`, max];
  const one = n === 1;
  return `${howMany} that ${one ? 'is' : 'are'} ${phrase(items, 'a value', follow)}`;
}

/**
 * The fix of an uppercase UUID that a pattern refuses: the same UUID in lowercase (RFC 9562 compares
 * UUIDs case-insensitively), when the pattern accepts that.
 */
function lowercaseUuid(
  check: SchemaCheck,
  e: ErrorView,
  at: Pos,
): { fix: { line: number; column: number; endLine: number; endColumn: number; text: string } } | undefined {
  const value = e.value;
  if (e.error.keyword !== 'pattern' || typeof value !== 'string' || !UUID_ANY_CASE.test(value) || UUID.test(value)) return undefined;
  const lower = value.toLowerCase();
  // The pattern may come from a root's own schema: it runs on the linear-time engine, as ajv ran it
  // (docs/reliability.md, "Unbounded work from content and rule data").
  try {
    if (!linearPattern(String(e.error.schema)).test(lower)) return undefined;
  } catch {
    return undefined;
  }
  return replaceWritten(check.text, at, value, lower);
}

export const invalidValue = defineRule({
  id: 'invalid-value',
  description: 'A value must meet what the schema asks of it: length, pattern, format, range, allowed values, items, alternatives',
  fixable: true,
  examples: {
    ok: [
      {
        path: 'docs/sysrs/order-intake.md',
        text: '---\nid: 7d1f3c2a-9b8e-4f6d-a5c4-3b2a1f0e9d8c\nstatus: review\n---\n',
        shown: 'a SysRS with status `review`',
      },
    ],
    notOk: [
      {
        path: 'docs/sysrs/order-intake.md',
        text: '---\nid: 7d1f3c2a-9b8e-4f6d-a5c4-3b2a1f0e9d8c\nstatus: drafty\n---\n',
        expected: ['3:9 Unexpected `status` value `drafty`, expected one of: `draft`, `review`, `approved`, `active`, `retired`'],
      },
      {
        path: 'docs/sysrs/order-intake.md',
        text: '---\nid: 7D1F3C2A-9B8E-4F6D-A5C4-3B2A1F0E9D8C\nstatus: review\n---\n',
        expected: [
          '2:5 Unexpected `id` value `7D1F3C2A-9B8E-4F6D-A5C4-3B2A1F0E9D8C`, expected a value matching the `pattern` of the schema (a lowercase canonical UUID such as `3f2b8c1e-5d4a-4e2f-9b6c-1a2b3c4d5e6f`)',
        ],
        output: '---\nid: 7d1f3c2a-9b8e-4f6d-a5c4-3b2a1f0e9d8c\nstatus: review\n---\n',
      },
      {
        path: 'processes/deploy.md',
        text: '---\nname: Deploy\ndescription: Ships the web app to production, then tells the team\n---\n\n# Deploy\n',
        others: {
          'schemas/process-frontmatter.schema.json':
            '{\n  "$ref": "https://docgate.dev/schemas/process-frontmatter.schema.json",\n  "properties": { "description": { "maxLength": 40 } },\n  "unevaluatedProperties": false\n}\n',
        },
        expected: [
          '3:14 Unexpected `description` value `Ships the web app to production, then tells the team`, expected at most 40 characters (a one-line description)',
        ],
      },
    ],
  },
  schema(check, report) {
    const follow = followOf(check);
    const words = (schema: unknown) => phrase(schema, 'a value', follow);
    for (const e of errorsOf(check, KEYWORDS)) {
      const at = check.locator.value(e.path);
      const say = (found: string, expected: string) => reportView(report, e, at, found, expected, lowercaseUuid(check, e, at));
      const keyword = e.error.keyword;
      const parent = e.parent ?? {};
      if (VALUE.includes(keyword)) {
        if (keyword !== 'minLength' || !isEmpty(e.value)) say(valueWords(e), demandWords(keyword, e.error.schema, e.about));
      } else if (COUNT.includes(keyword)) {
        // `items: false` and `unevaluatedItems: false` allow no item past the ones the schema names.
        const words =
          keyword === 'items' || keyword === 'unevaluatedItems'
            ? limitWords('maxItems', (e.error.params as { limit: number }).limit)
            : limitWords(keyword, e.error.schema);
        if (!isEmpty(e.value) || keyword.startsWith('max')) say(sizeWords(e), expectation(e.about, words!.bare));
      } else if (keyword === 'enum') {
        const allowed = ((e.error.params as { allowedValues: unknown[] }).allowedValues ?? []).filter((v) => v !== null && v !== '').map(constWords);
        say(valueWords(e), expectation(e.about, `one of: ${allowed.join(', ')}`));
      } else if (keyword === 'const') {
        say(valueWords(e), expectation(e.about, constWords((e.error.params as { allowedValue: unknown }).allowedValue)));
      } else if (keyword === 'uniqueItems') {
        // At the repeated item (ajv's `i` is the later of the two).
        const i = String((e.error.params as { i: number }).i);
        reportView(
          report,
          e,
          check.locator.value([...e.path, i]),
          `duplicate item ${quote((e.value as unknown[])[Number(i)])} in ${e.field}`,
          expectation(e.about, 'each item once'),
        );
      } else if (keyword === 'contains') {
        say(valueWords(e), expectation(e.about, containsWords(e.error.params as { minContains?: number; maxContains?: number }, parent['contains'], follow)));
      } else if (keyword === 'not') {
        say(valueWords(e), expectation(e.about, `anything but ${words(parent['not'])}`));
      } else {
        // anyOf, oneOf: one message for the value, built from the branches.
        const branches = Array.isArray(parent[keyword]) ? (parent[keyword] as unknown[]) : [];
        const passing = (e.error.params as { passingSchemas?: number[] | null }).passingSchemas;
        if (keyword === 'oneOf' && Array.isArray(passing)) {
          const matched = passing.map((b) => words(branches[b]));
          say(`${valueWords(e)} matching ${matched.length === 2 ? 'both ' : ''}${and(matched)}`, expectation(e.about, 'only one of them'));
        } else say(valueWords(e), expectation(e.about, branches.map(words).join(' or ')));
      }
    }
  },
});
