import { defineRule } from '../../engine/rule.js';
import { errorsOf, expectation, reportView, typeName } from './ajv-error.js';
import { typeWords } from './words.js';

export const KEYWORDS = new Set(['type']);

export const wrongType = defineRule({
  id: 'wrong-type',
  description: 'A value must have the type the schema requires',
  examples: {
    ok: [{ path: 'processes/deploy.md', text: '---\nname: Deploy\n---\n\n# Deploy\n' }],
    notOk: [
      {
        path: 'processes/deploy.md',
        text: '---\nname: 42\n---\n\n# Deploy\n',
        expected: ['2:7 Unexpected number for `name`, expected a string: a non-empty process name (when absent it is derived from the file name)'],
      },
    ],
  },
  schema(check, report) {
    for (const e of errorsOf(check, KEYWORDS)) {
      reportView(
        report,
        e,
        check.locator.value(e.path),
        `${typeName(e.value)} for ${e.field}`,
        expectation(e.about, typeWords((e.error.params as { type: unknown }).type) ?? 'another type'),
      );
    }
  },
});
