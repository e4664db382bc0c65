import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { configMarkdown } from '../src/report/config-doc.js';
import { REPO } from './helpers.js';

const schema = () => JSON.parse(readFileSync(join(REPO, 'schemas', 'docgate.config.schema.json'), 'utf8')) as Record<string, unknown>;
const doc = () => readFileSync(join(REPO, 'docs', 'configuration.md'), 'utf8');

describe('docs/configuration.md', () => {
  it('is what schemas/docgate.config.schema.json generates (run `npm run docs` after changing the configuration schema)', () => {
    expect(doc()).toBe(configMarkdown(schema()));
  });

  it('has a row, with its description, for every key of the schema', () => {
    const text = doc();
    const kinds = (schema().properties as Record<string, { properties: Record<string, { description: string; properties: Record<string, unknown> }> }>).kinds;
    for (const [name, kind] of Object.entries(kinds.properties)) {
      expect(text).toContain(`| \`kinds.${name}\` | mapping | no | ${kind.description} |`);
      for (const key of Object.keys(kind.properties)) expect(text).toContain(`| \`kinds.${name}.${key}\` |`);
    }
    for (const key of ['ignores', 'schemas', 'rules', 'rules.<rule id>', 'overrides', 'overrides[].files', 'overrides[].rules', 'kinds.<name>.outline'])
      expect(text).toContain(`| \`${key}\` |`);
  });

  it('lists every rule id the configuration accepts, and the severities', () => {
    const text = doc();
    const ids = (((schema().properties as Record<string, any>).rules.propertyNames.anyOf as { enum?: string[] }[])[0]!.enum ?? []) as string[];
    expect(ids.length).toBeGreaterThan(40);
    for (const id of ids) expect(text).toContain(`- [\`${id}\`](rules.md#${id})`);
    expect(text).toContain('one of `off`, `warn`, `error`');
  });
});
