import { defineRule } from '../../engine/rule.js';
import { errorsOf, expectation, reportView } from './ajv-error.js';
import { limitWords } from './words.js';

/**
 * A blank string, an empty list or an empty mapping where `minLength`, `minItems` or `minProperties`
 * asks for content (a value that has some, but too little, is an invalid value).
 */
export function isEmpty(value: unknown): boolean {
  if (typeof value === 'string') return value.trim() === '';
  if (Array.isArray(value)) return value.length === 0;
  return typeof value === 'object' && value !== null && Object.keys(value).length === 0;
}

export const KEYWORDS = new Set(['minLength', 'minItems', 'minProperties']);

export const emptyValue = defineRule({
  id: 'empty-value',
  description: 'A required value must not be empty',
  examples: {
    ok: [{ path: 'templates/power/readme.txt', text: 'framework: POWER\nwork: Read the code.\n' }],
    notOk: [
      {
        path: 'templates/power/readme.txt',
        text: 'framework: POWER\npurpose: Generate README.md.\noutput: README.md with a header.\nwork:\nexamples:\n- README\nrequirements: Short.\nsave_as: README.md\nstore_as: readme_summary\n',
        expected: ['4:1 Unexpected empty `work`, expected a value (the analysis steps)'],
      },
    ],
  },
  schema(check, report) {
    for (const e of errorsOf(check, KEYWORDS)) {
      if (!isEmpty(e.value)) continue;
      // A blank string asks for "a value"; an empty list or mapping for as many items or keys as it needs.
      const wanted = e.error.keyword === 'minLength' ? 'a value' : limitWords(e.error.keyword, e.error.schema)!.bare;
      reportView(report, e, check.locator.value(e.path), `empty ${e.path.length > 0 ? e.field : 'content'}`, expectation(e.about, wanted));
    }
  },
});
