#!/usr/bin/env node
// Writes docs/rules.md from the rule registry (test/rules-doc.test.ts fails when the file is stale).
import { writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { rulesOf } from '../dist/kinds/index.js';
import { rulesMarkdown } from '../dist/report/rules-doc.js';

const repo = join(dirname(fileURLToPath(import.meta.url)), '..');
writeFileSync(join(repo, 'docs', 'rules.md'), rulesMarkdown(rulesOf().values()));
console.log('wrote docs/rules.md');
