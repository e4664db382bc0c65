import { quote } from '../../model/position.js';
import { evaluatedKeys } from '../../parse/schema-refs.js';
import { defineRule } from '../../engine/rule.js';
import { errorsOf, expectation, followOf, keyNameErrorsOf, lookupOf, reportView } from './ajv-error.js';
import type { SchemaNode } from './ajv-error.js';
import { phrase } from './words.js';
import { replaceWritten } from './fix-words.js';

export const KEYWORDS = new Set(['additionalProperties', 'unevaluatedProperties']);

/** `one of: `a`, `b``, with `or a key matching `p`` for each name pattern; `no key` when nothing is allowed. */
function allowedWords(names: readonly string[], patterns: readonly string[]): string {
  const matching = patterns.map((p) => `a key matching \`${p}\``);
  if (names.length === 0) return matching.length > 0 ? matching.join(' or ') : 'no key';
  return `one of: ${names.map((k) => `\`${k}\``).join(', ')}${matching.map((m) => `, or ${m}`).join('')}`;
}

function keysOf(o: unknown): string[] {
  return typeof o === 'object' && o !== null ? Object.keys(o) : [];
}

/** The mapping at `path` of the data checked. */
function mappingAt(data: unknown, path: readonly string[]): unknown {
  let o = data;
  for (const p of path) o = typeof o === 'object' && o !== null ? (o as Record<string, unknown>)[p] : undefined;
  return o;
}

/**
 * The key a key in the wrong letter case stands for (`Framework` for `framework`): the one allowed name
 * equal to it but for case, when the mapping holds neither that name already nor another key that
 * would be recased to it (`Name` and `NAME`: which one to keep is the author's choice, not a fix's).
 */
function recased(key: string, names: readonly string[], mapping: unknown): string | null {
  const lower = key.toLowerCase();
  const same = names.filter((n) => n !== key && n.toLowerCase() === lower);
  if (same.length !== 1) return null;
  const keys = keysOf(mapping);
  if (keys.includes(same[0]!) || keys.some((k) => k !== key && k.toLowerCase() === lower)) return null;
  return same[0]!;
}

export const unknownKey = defineRule({
  id: 'unknown-key',
  description: 'Only the keys the schema defines are allowed',
  fixable: true,
  examples: {
    ok: [{ path: 'processes/deploy.md', text: '---\nname: Deploy\ndescription: Ship it\n---\n\n# Deploy\n' }],
    notOk: [
      {
        path: 'processes/deploy.md',
        text: '---\nname: Deploy\nowner: ops\n---\n\n# Deploy\n',
        expected: ['3:1 Unexpected key `owner`, expected one of: `name`, `description`'],
      },
      {
        path: 'templates/power/readme.txt',
        text: 'Framework: POWER\npurpose: Generate README.md.\n',
        expected: [
          '1:1 Unexpected key `Framework`, expected one of: `framework`, `purpose`, `output`, `work`, `examples`, `requirements`, `save_as`, `store_as`',
        ],
        output: 'framework: POWER\npurpose: Generate README.md.\n',
      },
    ],
  },
  schema(check, report) {
    for (const e of errorsOf(check, KEYWORDS)) {
      const params = e.error.params as { additionalProperty?: string; unevaluatedProperty?: string };
      const key = params.additionalProperty ?? params.unevaluatedProperty ?? '';
      // additionalProperties sees its own schema's names; unevaluatedProperties those of every
      // subschema applied to the mapping (what it `$ref`s, its `allOf`, its branches).
      const allowed =
        e.error.keyword === 'additionalProperties'
          ? { names: keysOf(e.parent?.properties), patterns: keysOf(e.parent?.['patternProperties']) }
          : evaluatedKeys(e.parent ?? {}, check.schema, lookupOf(check));
      // The usual slip when extending a schema: its `additionalProperties` refuses the keys it `$ref`s.
      const slip = e.error.keyword === 'additionalProperties' && (e.parent?.['$ref'] !== undefined || e.parent?.['allOf'] !== undefined);
      const hint = slip ? ' (`additionalProperties` sees only the `properties` beside it; `unevaluatedProperties` also sees those of a `$ref` or `allOf`)' : '';
      const at = check.locator.key([...e.path, key]);
      const name = recased(key, allowed.names, mappingAt(check.data, e.path));
      reportView(
        report,
        e,
        at,
        `key ${quote(key)}`,
        `${allowedWords(allowed.names, allowed.patterns)}${hint}`,
        name === null ? undefined : replaceWritten(check.text, at, key, name),
      );
    }
    // `propertyNames`: the key's name breaks what its subschema asks of names.
    for (const e of keyNameErrorsOf(check)) {
      const key = e.error.propertyName!;
      // The names' constraint in words (not their description, which follows it).
      const names: SchemaNode | undefined = e.parent && { ...e.parent, type: undefined, description: undefined };
      const wanted = e.error.keyword === 'false schema' ? 'no key' : expectation(e.parent, phrase(names, 'a key', followOf(check)));
      reportView(report, e, check.locator.key([...e.path, key]), `key ${quote(key)}`, wanted);
    }
  },
});
