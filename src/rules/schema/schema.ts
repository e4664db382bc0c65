import { defineRule } from '../../engine/rule.js';
import { errorsOf, expectation, reportView, valueWords } from './ajv-error.js';
import { KEYWORDS as EMPTY } from './empty-value.js';
import { KEYWORDS as INVALID } from './invalid-value.js';
import { KEYWORDS as MISSING } from './missing-key.js';
import { KEYWORDS as UNKNOWN } from './unknown-key.js';
import { KEYWORDS as TYPE } from './wrong-type.js';

/** Keywords the other schema rules report. */
const HANDLED = new Set([...MISSING, ...UNKNOWN, ...TYPE, ...EMPTY, ...INVALID]);

export const schemaRule = defineRule({
  id: 'schema',
  description: 'Data must match its JSON Schema',
  examples: {
    ok: [{ path: 'processes/deploy.md', text: '---\nname: Deploy\n---\n\n# Deploy\n' }],
    notOk: [
      {
        path: 'processes/deploy.md',
        text: '---\nname: Deploy\nlegacy: yes\n---\n\n# Deploy\n',
        others: { 'schemas/process-frontmatter.schema.json': '{"type":"object","properties":{"name":{"type":"string"},"legacy":false}}' },
        expected: ['3:9 Unexpected `legacy` value `yes`, expected no value (the schema is `false`)'],
      },
    ],
  },
  schema(check, report) {
    for (const e of errorsOf(check, (k) => !HANDLED.has(k))) {
      const at = check.locator.value(e.path);
      // `"key": false`: the schema allows no value there.
      if (e.error.keyword === 'false schema') reportView(report, e, at, valueWords(e), 'no value (the schema is `false`)');
      else reportView(report, e, at, valueWords(e), expectation(e.about, `a value meeting \`${e.error.keyword}\` of the schema`));
    }
  },
});
