import { defineRule } from '../../engine/rule.js';
import { errorsOf, expectation } from './ajv-error.js';

/** A blank string where `minLength` asks for text (a non-blank one that is too short is an invalid value). */
export function isBlank(value: unknown): boolean {
  return typeof value === 'string' && value.trim() === '';
}

const KEYWORDS = new Set(['minLength']);

export const emptyValue = defineRule({
  id: 'empty-value',
  description: 'A required value must not be empty',
  examples: {
    ok: [{ path: 'templates/power/readme.txt', text: 'framework: POWER\nwork: Read the code.\n' }],
    notOk: [
      {
        path: 'templates/power/readme.txt',
        text: 'framework: POWER\npurpose: Generate README.md.\noutput: README.md with a header.\nwork:\nexamples:\n- README\nrequirements: Short.\nsave_as: README.md\nstore_as: readme_summary\n',
        expected: ['4:1 Unexpected empty `work`, expected the analysis steps'],
      },
    ],
  },
  schema(check, report) {
    for (const e of errorsOf(check, KEYWORDS)) {
      if (isBlank(e.value)) report(check.locator.value(e.path), `empty ${e.field}`, expectation(e.parent, 'a value'));
    }
  },
});
