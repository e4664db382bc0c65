import type { SchemaCheck } from '../../parse/frontmatter-doc.js';
import { propertiesOf } from '../../parse/schema-refs.js';
import type { SchemaNode as RefNode } from '../../parse/schema-refs.js';
import { defineRule } from '../../engine/rule.js';
import { errorsOf, expectation, lookupOf, node, reportView } from './ajv-error.js';
import type { ErrorView, SchemaNode } from './ajv-error.js';

export const KEYWORDS = new Set(['required', 'dependentRequired']);

/**
 * The subschema of key `key` of the mapping an error is about: in the schema that requires it, else
 * (a `required` of a `then`, a key defined by what a schema `$ref`s) in the properties that apply to
 * that mapping from the top.
 */
function keySchema(check: SchemaCheck, e: ErrorView, key: string): SchemaNode | undefined {
  const lookup = lookupOf(check);
  const own = e.parent ? propertiesOf(e.parent, check.schema, lookup)[key] : undefined;
  if (own !== undefined) return node(own as SchemaNode | boolean);
  let at: RefNode | undefined = check.schema;
  for (const seg of e.path) at = at === undefined ? undefined : propertiesOf(at, check.schema, lookup)[seg];
  return at === undefined ? undefined : node(propertiesOf(at, check.schema, lookup)[key] as SchemaNode | boolean);
}

export const missingKey = defineRule({
  id: 'missing-key',
  description: 'A required key must be present',
  examples: {
    ok: [{ path: 'docs/sysrs/order-intake.md', text: '---\nid: 3f2b8c1e-5d4a-4e2f-9b6c-1a2b3c4d5e6f\n---\n' }],
    notOk: [
      {
        path: 'docs/sysrs/order-intake.md',
        text: '---\nstatus: draft\n---\n',
        expected: ['1:1 Unexpected missing key `id`, expected a lowercase canonical UUID such as `3f2b8c1e-5d4a-4e2f-9b6c-1a2b3c4d5e6f`'],
      },
    ],
  },
  schema(check, report) {
    for (const e of errorsOf(check, KEYWORDS)) {
      const key = (e.error.params as { missingProperty: string }).missingProperty;
      const wanted = expectation(keySchema(check, e, key), `a \`${key}\` entry`);
      if (e.error.keyword === 'required') reportView(report, e, check.locator.value(e.path), `missing key \`${key}\``, wanted);
      else {
        // dependentRequired: at the key that needs the missing one.
        const by = (e.error.params as { property: string }).property;
        reportView(report, e, check.locator.key([...e.path, by]), `missing key \`${key}\` beside \`${by}\``, wanted);
      }
    }
  },
});
