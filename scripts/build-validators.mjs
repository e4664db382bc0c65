#!/usr/bin/env node
// Build step: precompiles docgate's own JSON Schemas into standalone ajv validators (CommonJS — ajv's
// standalone output still calls `require`), so that start-up never loads or runs the ajv compiler for
// them. The runtime uses a precompiled validator only when the schema text is the same; any other
// schema (a root's override) is compiled at run time. Options must match src/project/schemas.ts.
import { mkdirSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Ajv2020 } from 'ajv/dist/2020.js';
import standalone from 'ajv/dist/standalone/index.js';

const repo = join(dirname(fileURLToPath(import.meta.url)), '..');
const out = join(repo, 'dist', 'validators');
// The schema files the kinds of the registry read (tsc has compiled it into dist/ by now), the
// configuration's, and the one every outline file is checked against when rules are loaded.
const { BUILTIN_KINDS } = await import('../dist/kinds/index.js');
const { OUTLINE_SCHEMA_FILE } = await import('../dist/project/rule-files.js');
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

// The presets' schemas (presets/*.yaml: each kind's `frontmatter` and `dialects`), and each kind's schema
// widened by every order of every set of the dialects the presets give it (the order of `presets:` in a
// configuration): a lint under presets then loads a module, never ajv nor a kept validator. Compiled with
// the options of a root's own schema (src/project/schemas.ts RUNTIME_AJV_OPTIONS), but with RegExp for
// `pattern`: these are docgate's own files, as the built-in kinds' (test/preset-validators.test.ts holds
// the engines equal on their patterns).
const { parse: parseYaml } = await import('yaml');
const { RUNTIME_AJV_OPTIONS, widenedText } = await import('../dist/project/schemas.js');
const { PRESET_DIR, presetNames } = await import('../dist/project/presets.js');
const addFormats = (await import('ajv-formats')).default;
const presetKinds = new Map(); // kind → { base, dialects }
for (const name of presetNames()) {
  const kinds = parseYaml(readFileSync(join(PRESET_DIR, `${name}.yaml`), 'utf8'))?.kinds ?? {};
  for (const [kind, k] of Object.entries(kinds)) {
    const entry = presetKinds.get(kind) ?? { base: null, dialects: [] };
    if (typeof k?.frontmatter === 'string' && k.frontmatter !== 'none') entry.base = k.frontmatter;
    for (const d of k?.dialects ?? []) if (!entry.dialects.includes(d)) entry.dialects.push(d);
    presetKinds.set(kind, entry);
  }
}
/** Every order of every non-empty subset of `list`. */
const arrangements = (list) => list.flatMap((x, i) => [[x], ...arrangements(list.filter((_, j) => j !== i)).map((rest) => [x, ...rest])]);
const schemaText = (file) => readFileSync(join(repo, 'schemas', file), 'utf8');
const presetTexts = new Map(); // text → module name
const known = new Set(manifest.map((m) => m.schema));
const addPresetText = (text, module) => {
  if (!known.has(text) && !presetTexts.has(text)) presetTexts.set(text, module);
};
for (const [kind, { base, dialects }] of presetKinds) {
  for (const d of dialects) addPresetText(schemaText(d), d.replace(/\.json$/, '.cjs'));
  if (base === null) continue;
  addPresetText(schemaText(base), base.replace(/\.json$/, '.cjs'));
  const parsed = (file) => ({ schema: JSON.parse(schemaText(file)), shown: file, text: schemaText(file) });
  arrangements(dialects).forEach((order, i) => addPresetText(widenedText(JSON.parse(schemaText(base)), order.map(parsed)), `${kind}.widened-${i + 1}.cjs`));
}
for (const [text, module] of presetTexts) {
  const ajv = new Ajv2020({ ...RUNTIME_AJV_OPTIONS, code: { source: true, esm: false } });
  addFormats(ajv);
  writeFileSync(join(out, module), standaloneCode(ajv, ajv.compile(JSON.parse(text))));
  manifest.push({ module, schema: text });
}
writeFileSync(join(out, 'manifest.json'), `${JSON.stringify(manifest, null, 2)}\n`);

// The MCP tools' input schemas, with the options their checks use (src/mcp/arguments.ts): a fresh
// server's first call of a tool then loads a module instead of compiling (~70 ms, most of it ajv warming up).
const { toolsServed } = await import('../dist/mcp/tools/index.js');
// The write tools too (served with --allow-writes).
const TOOLS = toolsServed(true);
const { ARGUMENT_AJV_OPTIONS, ARGUMENTS_MANIFEST } = await import('../dist/mcp/arguments.js');
mkdirSync(join(out, 'arguments'), { recursive: true });
const argumentModules = [];
for (const tool of TOOLS) {
  const ajv = new Ajv2020({ ...ARGUMENT_AJV_OPTIONS, code: { source: true, esm: false } });
  const module = `arguments/${tool.name}.cjs`;
  writeFileSync(join(out, module), standaloneCode(ajv, ajv.compile(tool.inputSchema)));
  argumentModules.push({ module, schema: JSON.stringify(tool.inputSchema) });
}
writeFileSync(join(out, ARGUMENTS_MANIFEST), `${JSON.stringify(argumentModules, null, 2)}\n`);
console.log(
  `precompiled ${files.length} schema validators, ${presetTexts.size} of the presets' and ${TOOLS.length} tool argument validators into dist/validators`,
);

// docgate's own outline files are checked here, once, as loading rules would check a root's own: the
// outline against the outline schema and compiled, each heading table of its kind against it. The
// texts that pass are listed (`outline` and `outline\0table`); loading rules checks only other texts.
const { checkOutline } = await import('../dist/project/outline-files.js');
const outlines = [];
for (const kind of BUILTIN_KINDS) {
  if (!kind.ruleFiles.outline) continue;
  const text = readFileSync(join(repo, 'schemas', kind.ruleFiles.outline), 'utf8');
  const tables = new Map();
  for (const name of readdirSync(join(repo, 'schemas')).sort()) {
    const m = kind.ruleFiles.headingTables?.exec(name);
    if (m) tables.set(m[1], { text: readFileSync(join(repo, 'schemas', name), 'utf8'), file: `schemas/${name}` });
  }
  checkOutline(text, `schemas/${kind.ruleFiles.outline}`, tables, false); // throws: the build fails
  outlines.push(text, ...[...tables.values()].map((t) => `${text}\0${t.text}`));
}
writeFileSync(join(out, 'outlines.json'), `${JSON.stringify(outlines)}\n`);
