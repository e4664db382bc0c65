#!/usr/bin/env node
// Build step: precompiles docgate's own JSON Schemas into standalone ajv validators (CommonJS — ajv's
// standalone output still calls `require`), so that start-up never loads or runs the ajv compiler for
// them. The runtime uses a precompiled validator only when the schema text is the same; any other
// schema (a root's override) is compiled at run time. Options must match src/core/schemas.ts.
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Ajv2020 } from 'ajv/dist/2020.js';
import standalone from 'ajv/dist/standalone/index.js';

const repo = join(dirname(fileURLToPath(import.meta.url)), '..');
const out = join(repo, 'dist', 'validators');
// The schema files the kinds of the registry read (tsc has compiled it into dist/ by now), the
// configuration's, and the one every outline file is checked against when rules are loaded.
const { BUILTIN_KINDS } = await import('../dist/kinds/index.js');
const { OUTLINE_SCHEMA_FILE } = await import('../dist/core/schemas.js');
const files = [...BUILTIN_KINDS.flatMap((k) => (k.ruleFiles.schema ? [k.ruleFiles.schema] : [])), 'docgate.config.schema.json', OUTLINE_SCHEMA_FILE];
const standaloneCode = standalone.default ?? standalone;

mkdirSync(out, { recursive: true });
const manifest = [];
for (const file of files) {
  const text = readFileSync(join(repo, 'schemas', file), 'utf8');
  const ajv = new Ajv2020({ allErrors: true, strict: true, verbose: true, allowUnionTypes: true, code: { source: true, esm: false } });
  const validate = ajv.compile(JSON.parse(text));
  const name = file.replace(/\.json$/, '.cjs');
  writeFileSync(join(out, name), standaloneCode(ajv, validate));
  manifest.push({ module: name, schema: text });
}
writeFileSync(join(out, 'manifest.json'), `${JSON.stringify(manifest, null, 2)}\n`);
console.log(`precompiled ${files.length} schema validators into dist/validators`);

// docgate's own outline files are checked against the outline schema here, once: the texts that pass
// are listed, and loading rules checks only an outline whose text is not among them (a root's own).
const outlineSchema = new Ajv2020({ allErrors: true, strict: true, verbose: true, allowUnionTypes: true }).compile(JSON.parse(readFileSync(join(repo, 'schemas', OUTLINE_SCHEMA_FILE), 'utf8')));
const outlines = [...new Set(BUILTIN_KINDS.flatMap((k) => (k.ruleFiles.outline ? [k.ruleFiles.outline] : [])))].map((file) => {
  const text = readFileSync(join(repo, 'schemas', file), 'utf8');
  if (!outlineSchema(JSON.parse(text))) throw new Error(`schemas/${file} does not pass ${OUTLINE_SCHEMA_FILE}: ${JSON.stringify(outlineSchema.errors)}`);
  return text;
});
writeFileSync(join(out, 'outlines.json'), `${JSON.stringify(outlines)}\n`);
