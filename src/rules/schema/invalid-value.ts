import { quote } from '../../core/position.js';
import { defineRule } from '../../engine/rule.js';
import { errorsOf, expectation } from './ajv-error.js';
import { isBlank } from './empty-value.js';

const KEYWORDS = new Set(['minLength', 'enum', 'const', 'pattern', 'format']);

export const invalidValue = defineRule({
  id: 'invalid-value',
  description: 'A value must match the pattern, format or allowed values of the schema',
  examples: {
    ok: [{ path: 'docs/sysrs/order-intake.md', text: '---\nid: 7d1f3c2a-9b8e-4f6d-a5c4-3b2a1f0e9d8c\nstatus: review\n---\n', shown: 'a SysRS with status `review`' }],
    notOk: [
      {
        path: 'docs/sysrs/order-intake.md',
        text: '---\nid: 7d1f3c2a-9b8e-4f6d-a5c4-3b2a1f0e9d8c\nstatus: drafty\n---\n',
        expected: ['3:9 Unexpected `status` value `drafty`, expected one of: `draft`, `review`, `approved`, `active`, `retired`'],
      },
    ],
  },
  schema(check, report) {
    for (const e of errorsOf(check, KEYWORDS)) {
      const at = check.locator.value(e.path);
      const found = `${e.field} value ${quote(e.value)}`;
      switch (e.error.keyword) {
        case 'minLength':
          if (!isBlank(e.value)) report(at, found, expectation(e.parent, `at least ${String(e.error.params.limit)} characters`));
          break;
        case 'enum': {
          const allowed = ((e.error.params as { allowedValues: unknown[] }).allowedValues ?? []).filter((v) => v !== null && v !== '').map((v) => `\`${String(v)}\``);
          report(at, found, `one of: ${allowed.join(', ')}`);
          break;
        }
        case 'const':
          report(at, found, `\`${String((e.error.params as { allowedValue: unknown }).allowedValue)}\``);
          break;
        default:
          report(at, found, expectation(e.parent, e.error.message ?? 'a valid value'));
      }
    }
  },
});
