import { quote } from '../../core/position.js';
import { defineRule } from '../../engine/rule.js';
import { errorsOf } from './ajv-error.js';

/** Keywords the other schema rules report. */
const HANDLED = new Set(['required', 'additionalProperties', 'type', 'minLength', 'enum', 'const', 'pattern', 'format']);

export const schemaRule = defineRule({
  id: 'schema',
  description: 'Data must match its JSON Schema',
  examples: {
    ok: [{ path: 'processes/deploy.md', text: '---\nname: Deploy\n---\n\n# Deploy\n' }],
    notOk: [
      {
        path: 'processes/deploy.md',
        text: '---\nname: Deploy\n---\n\n# Deploy\n',
        others: { 'schemas/process-frontmatter.schema.json': '{"type":"object","properties":{"name":{"type":"string","maxLength":3}}}' },
        expected: ['2:7 Unexpected `name` value `Deploy`, expected it to must NOT have more than 3 characters'],
      },
    ],
  },
  schema(check, report) {
    for (const e of errorsOf(check, (k) => !HANDLED.has(k))) {
      const at = check.locator.value(e.path);
      // `"key": false`: the schema allows no value there.
      if (e.error.keyword === 'false schema') report(at, `${e.path.length > 0 ? `${e.field} value` : 'content'} ${quote(e.value)}`, 'no value (the schema is `false`)');
      else report(at, `${e.field} value ${quote(e.value)}`, `it to ${e.error.message ?? 'match the schema'}`);
    }
  },
});
