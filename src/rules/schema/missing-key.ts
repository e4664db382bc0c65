import { defineRule } from '../../engine/rule.js';
import { errorsOf, expectation, node } from './ajv-error.js';

const KEYWORDS = new Set(['required']);

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
      report(check.locator.value(e.path), `missing key \`${key}\``, expectation(node(e.parent?.properties?.[key]), `a \`${key}\` entry`));
    }
  },
});
