import { quote } from '../../core/position.js';
import { defineRule } from '../../engine/rule.js';
import { errorsOf } from './ajv-error.js';

const KEYWORDS = new Set(['additionalProperties']);

export const unknownKey = defineRule({
  id: 'unknown-key',
  description: 'Only the keys the schema defines are allowed',
  examples: {
    ok: [{ path: 'processes/deploy.md', text: '---\nname: Deploy\ndescription: Ship it\n---\n\n# Deploy\n' }],
    notOk: [{ path: 'processes/deploy.md', text: '---\nname: Deploy\nowner: ops\n---\n\n# Deploy\n', expected: ['3:1 Unexpected key `owner`, expected one of: `name`, `description`'] }],
  },
  schema(check, report) {
    for (const e of errorsOf(check, KEYWORDS)) {
      const key = (e.error.params as { additionalProperty: string }).additionalProperty;
      const allowed = Object.keys(e.parent?.properties ?? {}).map((k) => `\`${k}\``).join(', ');
      report(check.locator.key([...e.path, key]), `key ${quote(key)}`, `one of: ${allowed}`);
    }
  },
});
