import { defineRule } from '../../engine/rule.js';
import { errorsOf, typeName } from './ajv-error.js';

const KEYWORDS = new Set(['type']);

function wanted(t: unknown): string {
  return (Array.isArray(t) ? t : [t])
    .filter((x) => x !== 'null')
    .map((x) => (x === 'object' ? 'a mapping' : x === 'array' ? 'a list' : `a ${String(x)}`))
    .join(' or ');
}

export const wrongType = defineRule({
  id: 'wrong-type',
  description: 'A value must have the type the schema requires',
  examples: {
    ok: [{ path: 'processes/deploy.md', text: '---\nname: Deploy\n---\n\n# Deploy\n' }],
    notOk: [{ path: 'processes/deploy.md', text: '---\nname: 42\n---\n\n# Deploy\n', expected: ['2:7 Unexpected number for `name`, expected a string'] }],
  },
  schema(check, report) {
    for (const e of errorsOf(check, KEYWORDS)) {
      report(check.locator.value(e.path), `${typeName(e.value)} for ${e.field}`, wanted((e.error.params as { type: unknown }).type));
    }
  },
});
