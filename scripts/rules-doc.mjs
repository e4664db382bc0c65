#!/usr/bin/env node
// Writes what is generated from the registry: docs/rules.md, schemas/docgate.config.schema.json and the
// document glob of package.json's lint-staged section (test/rules-doc.test.ts fails when one is stale).
import { readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { documentsGlob, rulesOf } from '../dist/kinds/index.js';
import { registryConfigSchema } from '../dist/project/config-schema.js';
import { rulesMarkdown } from '../dist/report/rules-doc.js';

const repo = join(dirname(fileURLToPath(import.meta.url)), '..');
writeFileSync(join(repo, 'docs', 'rules.md'), rulesMarkdown(rulesOf().values()));
writeFileSync(join(repo, 'schemas', 'docgate.config.schema.json'), `${JSON.stringify(registryConfigSchema(), null, 2)}\n`);
const pkgFile = join(repo, 'package.json');
const pkg = JSON.parse(readFileSync(pkgFile, 'utf8'));
const [command] = Object.values(pkg['lint-staged']);
pkg['lint-staged'] = { [documentsGlob()]: command };
writeFileSync(pkgFile, `${JSON.stringify(pkg, null, 2)}\n`);
console.log('wrote docs/rules.md, schemas/docgate.config.schema.json and the lint-staged glob of package.json');
