import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { documentsGlob, rulesOf } from '../src/kinds/index.js';
import { registryConfigSchema } from '../src/project/config-schema.js';
import { rulesMarkdown } from '../src/report/rules-doc.js';
import { REPO } from './helpers.js';

describe('docs/rules.md', () => {
  it('is what the registry generates (run `npm run docs` after changing a rule)', () => {
    expect(readFileSync(join(REPO, 'docs', 'rules.md'), 'utf8')).toBe(rulesMarkdown(rulesOf().values()));
  });

  it('has a section, with its examples, for every rule', () => {
    const doc = readFileSync(join(REPO, 'docs', 'rules.md'), 'utf8');
    for (const { rule } of rulesOf().values()) {
      expect(doc).toContain(`## \`${rule.id}\``);
      for (const ex of rule.examples.notOk) for (const line of ex.expected) expect(doc).toContain(line);
    }
  });
});

describe('the hook glob (package.json lint-staged)', () => {
  it("is the registry's document glob (run `npm run docs` after changing where a kind lives)", () => {
    const pkg = JSON.parse(readFileSync(join(REPO, 'package.json'), 'utf8')) as { 'lint-staged': Record<string, string> };
    expect(Object.keys(pkg['lint-staged'])).toEqual([documentsGlob()]);
  });
});

describe('schemas/docgate.config.schema.json', () => {
  it('is what the registry generates (run `npm run docs` after adding a rule or a kind)', () => {
    expect(JSON.parse(readFileSync(join(REPO, 'schemas', 'docgate.config.schema.json'), 'utf8'))).toEqual(registryConfigSchema());
  });
});
