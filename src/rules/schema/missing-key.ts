import { defineRule } from '../../engine/rule.js';
import { errorsOf, reportView } from './ajv-error.js';
import { entryWords } from './words.js';

export const KEYWORDS = new Set(['required', 'dependentRequired']);

export const missingKey = defineRule({
  id: 'missing-key',
  description: 'A required key must be present',
  examples: {
    ok: [{ path: 'docs/sysrs/order-intake.md', text: '---\nid: 3f2b8c1e-5d4a-4e2f-9b6c-1a2b3c4d5e6f\n---\n' }],
    notOk: [
      {
        path: 'docs/sysrs/order-intake.md',
        text: '---\nstatus: draft\n---\n',
        expected: ['1:1 Unexpected missing key `id`, expected an `id` entry'],
      },
    ],
  },
  schema(check, report) {
    for (const e of errorsOf(check, KEYWORDS)) {
      const key = (e.error.params as { missingProperty: string }).missingProperty;
      // The key's name, not its description: what a value should be says nothing of a key that is not there.
      const wanted = entryWords(key);
      if (e.error.keyword === 'required') reportView(report, e, check.locator.value(e.path), `missing key \`${key}\``, wanted);
      else {
        // dependentRequired: at the key that needs the missing one.
        const by = (e.error.params as { property: string }).property;
        reportView(report, e, check.locator.key([...e.path, by]), `missing key \`${key}\` beside \`${by}\``, wanted);
      }
    }
  },
});
