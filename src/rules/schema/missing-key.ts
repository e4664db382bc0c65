import { defineRule } from '../../engine/rule.js';
import { errorsOf, expectation, node } from './ajv-error.js';

const KEYWORDS = new Set(['required']);

export const missingKey = defineRule({
  id: 'missing-key',
  description: 'A required key must be present',
  examples: {
    ok: [{ path: 'templates/power/readme.txt', text: 'framework: POWER\n', shown: 'a template with all eight fields' }],
    notOk: [
      {
        path: 'docs/sysrs/order-intake.md',
        text: '---\nstatus: draft\n---\n',
        expected: ['1:1 Unexpected missing key `id`, expected a lowercase canonical UUID such as `7d1f3c2a-9b8e-4f6d-a5c4-3b2a1f0e9d8c`'],
      },
    ],
  },
  schema(check, report) {
    for (const e of errorsOf(check, KEYWORDS)) {
      const key = (e.error.params as { missingProperty: string }).missingProperty;
      report(check.locator.value(e.path), `missing key \`${key}\``, expectation(node(e.parent?.properties?.[key]), `a \`${key}\` entry`));
    }
  },
});
