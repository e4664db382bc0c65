#!/usr/bin/env node
// Writes what is generated from the registry: docs/rules.md, schemas/docgate.config.schema.json, then
// docs/configuration.md from that schema, docs/mcp-tools.md from the tool registry, the document glob
// of package.json's lint-staged section and the `files` regex of .pre-commit-hooks.yaml's docgate hook
// (test/rules-doc.test.ts, test/configuration-doc.test.ts, test/mcp-tools-doc.test.ts and
// test/pre-commit-hooks.test.ts fail when one is stale).
import { readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { documentsGlob, rulesOf } from '../dist/kinds/index.js';
import { registryConfigSchema } from '../dist/project/config-schema.js';
import { rulesMarkdown } from '../dist/report/rules-doc.js';
import { configMarkdown } from '../dist/report/config-doc.js';
import { registryMcpToolsMarkdown } from '../dist/mcp/tools-doc.js';
import { hookFilesRegex } from '../dist/report/hook-files.js';

const repo = join(dirname(fileURLToPath(import.meta.url)), '..');
writeFileSync(join(repo, 'docs', 'rules.md'), rulesMarkdown(rulesOf().values()));
const configSchemaFile = join(repo, 'schemas', 'docgate.config.schema.json');
writeFileSync(configSchemaFile, `${JSON.stringify(registryConfigSchema(), null, 2)}\n`);
writeFileSync(join(repo, 'docs', 'configuration.md'), configMarkdown(JSON.parse(readFileSync(configSchemaFile, 'utf8'))));
writeFileSync(join(repo, 'docs', 'mcp-tools.md'), registryMcpToolsMarkdown());
const pkgFile = join(repo, 'package.json');
const pkg = JSON.parse(readFileSync(pkgFile, 'utf8'));
const [command] = Object.values(pkg['lint-staged']);
pkg['lint-staged'] = { [documentsGlob()]: command };
writeFileSync(pkgFile, `${JSON.stringify(pkg, null, 2)}\n`);
// The one `files:` line of the manifest (the docgate hook's; docgate-staged reads the whole index), single-quoted:
// YAML keeps every backslash of a single-quoted scalar, and the regex holds no quote.
const hooksFile = join(repo, '.pre-commit-hooks.yaml');
const hooks = readFileSync(hooksFile, 'utf8');
if ((hooks.match(/^ {2}files: .*$/gm) ?? []).length !== 1) throw new Error('.pre-commit-hooks.yaml: expected one `files:` line');
writeFileSync(
  hooksFile,
  hooks.replace(/^ {2}files: .*$/m, () => `  files: '${hookFilesRegex()}'`),
);
console.log(
  'wrote docs/rules.md, schemas/docgate.config.schema.json, docs/configuration.md, docs/mcp-tools.md, the lint-staged glob of package.json and the hook files regex of .pre-commit-hooks.yaml',
);
