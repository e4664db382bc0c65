// A repository of agent skills for the rows of issue 27 (small repositories): N skill folders under
// `skills/<name>/SKILL.md` with the frontmatter such repositories hold (a `name` equal to the folder, a
// `description` of 35–1,017 characters, sometimes `license`, `compatibility`, `metadata` and
// `allowed-tools`) and Markdown bodies of a median ~9 KB (headings, prose, lists, code fences, links,
// tables), some skills with `references/` and `scripts/` files their bodies link to; then a
// `docgate.config.yaml` that declares the kind. The same (n, seed) always gives a byte-identical tree
// (one mulberry32 stream, as bench/corpus.mjs).
//
//   node bench/skills.mjs --out DIR [--n 400] [--seed 1] [--config kind|preset]
//   node bench/skills.mjs --measure [--n 400] [--runs 11] [--config kind|preset] [--keep]
//
// `--config kind` (the default) declares the kind in the configuration language of today, with the
// schema in the generated root's `schemas/skill.schema.json`; `--config preset` writes
// `presets: [agent-skills]` instead (the preset of issue 27, once it is in the package).
//
// `--measure` generates the tree under the OS temp folder and times a cold `docgate lint` (no --cache)
// next to bare `node -e 0`, interleaved run by run; `measureSkills`/`skillsRows` are what bench/run.mjs
// calls. Kept across runs, as a user's machine keeps them: docgate's compiled root schemas
// (docs/reliability.md, "Compiled root schemas"), in a cache folder made for this measurement.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import { mulberry32 } from './corpus.mjs';
import { run as measureRun, stats } from './measure.mjs';

const HERE = dirname(fileURLToPath(import.meta.url));
const REPO = resolve(HERE, '..');
const BIN = join(REPO, 'bin', 'docgate.js');
const NODE = process.execPath;

/** The draws of one seeded stream (mulberry32, as bench/corpus.mjs). */
function rng(seed) {
  const next = mulberry32(seed);
  const int = (lo, hi) => lo + Math.floor(next() * (hi - lo + 1));
  return {
    next,
    int,
    pick: (arr) => arr[int(0, arr.length - 1)],
    chance: (p) => next() < p,
    /** A log-normal draw: median `m`, spread `s` (of the log), clamped to [lo, hi]. */
    logNormal: (m, s, lo, hi) => {
      const z = Math.sqrt(-2 * Math.log(Math.max(1e-9, next()))) * Math.cos(2 * Math.PI * next());
      return Math.min(hi, Math.max(lo, Math.round(m * Math.exp(s * z))));
    },
  };
}

// ---------------------------------------------------------------------------------------------- text

const TOPICS = (
  'pdf docx xlsx pptx csv json yaml markdown image video audio chart slide diagram canvas web api sql ' +
  'git github release changelog test review lint format deploy docker kubernetes terraform aws gcp azure ' +
  'stripe slack notion jira linear figma svg font color theme brand email invoice contract report ' +
  'research paper citation summary translation data model prompt agent skill plugin mcp server browser'
).split(' ');
const SUFFIXES = 'tools builder editor writer reader helper creator generator checker guide workflow converter analyzer designer'.split(' ');
const WORDS = (
  'file folder page sheet table column row cell value field form template layout style section heading ' +
  'paragraph list item link image caption chart axis legend label script command option flag argument ' +
  'output input result error warning message step task request response token limit context user ' +
  'client server library package module function class method test case fixture sample example ' +
  'document record entry version branch commit change review comment issue pull request build job'
).split(' ');
const VERBS = (
  'reads writes creates updates checks converts extracts merges splits renders formats validates ' +
  'parses generates runs builds opens saves exports imports lists finds replaces removes keeps adds'
).split(' ');
const ADJ = 'new existing large small single multiple nested empty valid final clean raw plain rich local remote shared default optional'.split(' ');
const LANGS = ['bash', 'python', 'javascript', 'typescript', 'json', 'yaml', 'text'];
const LICENSES = ['Apache-2.0', 'MIT', 'Proprietary. LICENSE.txt has complete terms', 'Complete terms in LICENSE.txt', 'CC-BY-4.0'];
const TOOLS = ['Bash(git:*)', 'Bash(python:*)', 'Bash(jq:*)', 'Bash(npm:*)', 'Read', 'Write', 'Edit', 'Grep', 'Glob', 'WebFetch'];

const cap = (w) => w.charAt(0).toUpperCase() + w.slice(1);

function sentence(r) {
  const n = r.int(7, 18);
  const out = [];
  for (let i = 0; i < n; i++) {
    const x = r.next();
    out.push(i === 2 ? r.pick(VERBS) : x < 0.2 ? r.pick(ADJ) : x < 0.3 ? r.pick(['the', 'a', 'each', 'every', 'its', 'this']) : r.pick(WORDS));
  }
  if (r.chance(0.2)) out[r.int(3, out.length - 1)] = `\`${r.pick(WORDS)}\``;
  if (r.chance(0.1)) out[r.int(3, out.length - 1)] = `**${r.pick(WORDS)}**`;
  return `${cap(out.join(' '))}.`;
}

/** Prose, one paragraph per line (as most SKILL.md files are written) or wrapped at ~100 columns. */
function paragraph(r, wrap) {
  const s = [];
  for (let i = r.int(2, 6); i > 0; i--) s.push(sentence(r));
  const text = s.join(' ');
  return wrap ? text.match(/\S.{0,98}(?=\s|$)/g).join('\n') : text;
}

function title(r, min = 2, max = 6) {
  const out = [];
  for (let i = r.int(min, max); i > 0; i--) out.push(r.chance(0.3) ? r.pick(ADJ) : r.pick(WORDS));
  return cap(out.join(' '));
}

function codeBlock(r) {
  const lang = r.pick(LANGS);
  const lines = [];
  for (let i = r.int(3, 24); i > 0; i--) {
    const w = r.pick(WORDS);
    if (lang === 'bash')
      lines.push(
        `${r.pick(['python', 'node', 'git', 'npx', 'jq'])} ${r.pick(['run', 'scripts/', '--input', 'add', '-r'])}${w} ${r.pick(WORDS)}.${r.pick(['json', 'md', 'pdf', 'txt'])}`,
      );
    else if (lang === 'python')
      lines.push(
        r.chance(0.3) ? `def ${w}_${r.pick(WORDS)}(${r.pick(WORDS)}):` : `    ${w} = ${r.pick(WORDS)}.${r.pick(VERBS)}(${JSON.stringify(r.pick(WORDS))})`,
      );
    else if (lang === 'javascript' || lang === 'typescript')
      lines.push(`const ${w} = await ${r.pick(WORDS)}.${r.pick(VERBS)}({ ${r.pick(WORDS)}: ${r.int(0, 999)} });`);
    else if (lang === 'json') lines.push(`  "${w}": ${r.chance(0.5) ? r.int(0, 9999) : JSON.stringify(r.pick(WORDS))},`);
    else if (lang === 'yaml') lines.push(`${w}: ${r.pick(WORDS)}`);
    else lines.push(`${r.pick(WORDS)} ${r.pick(VERBS)} ${r.pick(WORDS)}`);
  }
  return `\`\`\`${lang}\n${lines.join('\n')}\n\`\`\``;
}

function bullets(r, ordered) {
  const out = [];
  for (let i = 1, n = r.int(3, 9); i <= n; i++) {
    out.push(`${ordered ? `${i}.` : '-'} ${r.chance(0.3) ? `**${title(r, 1, 3)}**: ` : ''}${sentence(r)}`);
    if (r.chance(0.15)) out.push(`   ${ordered ? '-' : '  -'} ${sentence(r)}`);
  }
  return out.join('\n');
}

function table(r) {
  const cols = r.int(2, 4);
  const head = Array.from({ length: cols }, () => cap(r.pick(WORDS)));
  const rows = [`| ${head.join(' | ')} |`, `|${' --- |'.repeat(cols)}`];
  for (let i = r.int(2, 8); i > 0; i--)
    rows.push(`| ${Array.from({ length: cols }, (_, c) => (c === 0 ? `\`${r.pick(WORDS)}\`` : title(r, 1, 5))).join(' | ')} |`);
  return rows.join('\n');
}

/** A sentence with a link: to a file of the skill that exists, or to a web page. */
function linked(r, files) {
  const s = sentence(r).slice(0, -1);
  if (files.length > 0 && r.chance(0.6)) {
    const f = r.pick(files);
    return `${s}: see [${f.split('/').pop()}](${f}).`;
  }
  return `${s}, as [the ${r.pick(WORDS)} guide](https://example.com/${r.pick(TOPICS)}/${r.pick(WORDS)}) explains.`;
}

/** A body of about `target` bytes. */
function body(r, name, target, files) {
  const wrap = r.chance(0.3);
  const parts = [`# ${cap(name.replace(/-/g, ' '))}`, '', paragraph(r, wrap)];
  let size = parts.join('\n').length;
  const push = (s) => {
    parts.push('', s);
    size += s.length + 2;
  };
  if (files.length > 0) push(`## Resources\n\n${files.map((f) => `- [${f}](${f}): ${sentence(r)}`).join('\n')}`);
  while (size < target) {
    push(`## ${title(r)}`);
    for (let i = r.int(1, 4); i > 0 && size < target; i--) {
      const x = r.next();
      if (x < 0.4) push(paragraph(r, wrap));
      else if (x < 0.55) push(bullets(r, r.chance(0.4)));
      else if (x < 0.72) push(codeBlock(r));
      else if (x < 0.8) push(table(r));
      else if (x < 0.9) push(linked(r, files));
      else push(`### ${title(r)}\n\n${paragraph(r, wrap)}`);
    }
  }
  return `${parts.join('\n')}\n`;
}

/** A description of 35–1,017 characters: what the skill does and when to use it. */
function description(r, name) {
  const target = r.logNormal(220, 0.7, 35, 1017);
  let d = `${cap(r.pick(VERBS))} ${name.replace(/-/g, ' ')} ${r.pick(WORDS)}s. Use when ${sentence(r).toLowerCase()}`;
  while (d.length < target) d += ` ${sentence(r)}`;
  if (d.length > target) d = `${d.slice(0, d.lastIndexOf(' ', target - 1)).replace(/[^A-Za-z]+$/, '')}.`;
  return d.length >= 35 ? d : `${d} ${'Use it for the task named.'}`.slice(0, 35);
}

/** YAML for a string: plain when it reads back as itself, else double-quoted (JSON is YAML). */
function yamlString(s) {
  return /^[A-Za-z][^:#'"\n{}[\],&*!|>%@`]*$/.test(s) && !/\s$/.test(s) ? s : JSON.stringify(s);
}

function frontmatter(r, name) {
  const lines = ['---', `name: ${name}`];
  const d = description(r, name);
  if (r.chance(0.15) && d.length > 200) lines.push('description: >-', ...d.match(/.{1,90}(\s|$)/g).map((l) => `  ${l.trim()}`));
  else lines.push(`description: ${yamlString(d)}`);
  if (r.chance(0.4)) lines.push(`license: ${yamlString(r.pick(LICENSES))}`);
  if (r.chance(0.15))
    lines.push(
      `compatibility: ${yamlString(`Requires ${r.pick(['Python 3.10+', 'Node.js 20+', 'git', 'network access', 'a POSIX shell'])} and ${r.pick(WORDS)} access`)}`,
    );
  if (r.chance(0.2)) lines.push(`allowed-tools: ${[...new Set(Array.from({ length: r.int(1, 4) }, () => r.pick(TOOLS)))].join(' ')}`);
  if (r.chance(0.2))
    lines.push('metadata:', `  author: ${r.pick(['example-org', 'platform-team', 'docs-guild'])}`, `  version: "${r.int(1, 3)}.${r.int(0, 9)}"`);
  lines.push('---', '');
  return lines.join('\n');
}

/** The kind's schema in the generated root: the six keys of the format, closed. */
const SKILL_SCHEMA = {
  $schema: 'https://json-schema.org/draft/2020-12/schema',
  title: 'Agent skill frontmatter',
  type: 'object',
  required: ['name', 'description'],
  properties: {
    name: { type: 'string', description: 'the skill name: lowercase letters, digits and hyphens', pattern: '^[a-z0-9]+(?:-[a-z0-9]+)*$', maxLength: 64 },
    description: { type: 'string', description: 'what the skill does and when to use it', minLength: 1, maxLength: 1024 },
    license: { type: 'string', description: 'a license name or a bundled license file' },
    compatibility: { type: 'string', description: 'environment requirements', minLength: 1, maxLength: 500 },
    metadata: { type: 'object', description: 'client-specific keys and values', additionalProperties: { type: 'string' } },
    'allowed-tools': { type: 'string', description: 'space-separated tools the skill may use' },
  },
  additionalProperties: false,
};

const CONFIGS = {
  kind: 'kinds:\n  skill:\n    include: ["skills/*/SKILL.md"]\n    id: frontmatter\n    frontmatter: skill.schema.json\n',
  preset: 'presets: [agent-skills]\n',
};

/**
 * Writes the repository into `root`; returns { skills, bytes, medianBodyBytes, paths }. `config`: `kind`
 * (the kind declared in the configuration, with its schema in the root) or `preset`.
 */
export function generateSkills({ n = 400, seed = 1, root, config = 'kind' }) {
  if (!(config in CONFIGS)) throw new Error(`--config: expected one of ${Object.keys(CONFIGS).join(', ')}`);
  const r = rng(seed);
  const names = new Set();
  while (names.size < n) {
    const base = `${r.pick(TOPICS)}-${r.pick(SUFFIXES)}`;
    names.add(names.has(base) ? `${base}-${names.size}` : base);
  }
  const paths = [];
  const sizes = [];
  let bytes = 0;
  const write = (rel, text) => {
    const abs = join(root, rel);
    mkdirSync(dirname(abs), { recursive: true });
    writeFileSync(abs, text);
    bytes += Buffer.byteLength(text);
  };
  for (const name of [...names].sort()) {
    const files = [];
    if (r.chance(0.35)) files.push('references/REFERENCE.md');
    if (r.chance(0.25)) files.push(`scripts/${r.pick(WORDS)}.py`);
    if (r.chance(0.15)) files.push('LICENSE.txt');
    for (const f of files)
      write(`skills/${name}/${f}`, f.endsWith('.py') ? `# ${sentence(r)}\nprint(${JSON.stringify(r.pick(WORDS))})\n` : `${paragraph(r, true)}\n`);
    const text = frontmatter(r, name) + body(r, name, r.logNormal(8600, 0.5, 600, 60000), files);
    write(`skills/${name}/SKILL.md`, text);
    paths.push(`skills/${name}/SKILL.md`);
    sizes.push(Buffer.byteLength(text));
  }
  write('docgate.config.yaml', CONFIGS[config]);
  if (config === 'kind') write('schemas/skill.schema.json', `${JSON.stringify(SKILL_SCHEMA, null, 2)}\n`);
  write('README.md', `# Skills\n\n${n} skills, generated by bench/skills.mjs (seed ${seed}).\n`);
  sizes.sort((a, b) => a - b);
  return { skills: n, bytes, medianBodyBytes: sizes[n >> 1], paths };
}

/**
 * Cold `docgate lint` of `root` (no --cache) next to bare `node -e 0`, interleaved `runs` times after one
 * warm-up of each (which also fills the compiled-schema cache `cacheHome` as a first run on a machine
 * would). Returns { runs, nodeBareMs, coldMs, code, stdout }.
 */
export async function measureSkills({ root, tmp, runs = 11, log = () => {} }) {
  const cacheHome = join(tmp, 'xdg-cache');
  mkdirSync(cacheHome, { recursive: true });
  const env = { ...process.env, XDG_CACHE_HOME: cacheHome };
  const run = (args) => measureRun(NODE, args, { cwd: root, tmp, env });
  const commands = { node: () => run(['-e', '0']), cold: () => run([BIN, 'lint']) };
  const first = await commands.cold();
  log(`bench: skills: first cold lint ${Math.round(first.ms)} ms, exit ${first.code}`);
  await commands.node();
  const samples = { node: [], cold: [] };
  for (let i = 0; i < runs; i++) for (const [k, c] of Object.entries(commands)) samples[k].push(await c());
  const last = samples.cold.at(-1);
  if (samples.cold.some((s) => s.code !== first.code)) log(`bench: WARNING: docgate lint exit codes differ: ${samples.cold.map((s) => s.code).join(',')}`);
  return {
    runs,
    nodeBareMs: stats(samples.node.map((s) => s.ms)),
    coldMs: stats(samples.cold.map((s) => s.ms)),
    rssMB: stats(samples.cold.filter((s) => s.rssMB).map((s) => s.rssMB)),
    firstMs: first.ms,
    code: last.code,
    stdout: last.stdout,
  };
}

/** The table rows of `measureSkills`' result: [measurement, value, result, target, met]. */
export function skillsRows(s, m, fmt, fmtStats) {
  const limit = s.nodeBareMs.median + 150;
  const what = `${fmt(m.skills)} skills, ${(m.bytes / 1e6).toFixed(1)} MB, median SKILL.md ${fmt(m.medianBodyBytes / 1000, 1)} KB`;
  return [
    [`bare \`node -e 0\` (${s.runs} runs, interleaved with the skills row below)`, 'wall', fmtStats(s.nodeBareMs, 'ms'), '', ''],
    [
      `cold \`docgate lint\` of a repository of skills (${what}; no --cache, compiled root schema kept) (${s.runs} runs)`,
      'wall',
      `${fmtStats(s.coldMs, 'ms')} (node -e 0 + ${fmt(s.coldMs.median - s.nodeBareMs.median)})`,
      `≤ node -e 0 + 150 ms (${fmt(limit)} ms)`,
      s.coldMs.median <= limit ? 'yes' : 'NO',
    ],
    ['the same, its first run on the machine (the root schema compiled and kept)', 'wall', `${fmt(s.firstMs)} ms`, '', ''],
  ];
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const { values: opt } = parseArgs({
    options: {
      out: { type: 'string' },
      n: { type: 'string', default: '400' },
      seed: { type: 'string', default: '1' },
      config: { type: 'string', default: 'kind' },
      measure: { type: 'boolean', default: false },
      runs: { type: 'string', default: '11' },
      keep: { type: 'boolean', default: false },
    },
  });
  const log = (s) => process.stderr.write(`${s}\n`);
  const options = { n: Number(opt.n), seed: Number(opt.seed), config: opt.config };
  if (!opt.measure) {
    if (!opt.out) {
      log('usage: node bench/skills.mjs --out DIR [--n 400] [--seed 1] [--config kind|preset] | --measure [--runs 11]');
      process.exit(2);
    }
    const m = generateSkills({ ...options, root: resolve(opt.out) });
    log(`bench: ${m.skills} skills, ${(m.bytes / 1e6).toFixed(2)} MB, median SKILL.md ${m.medianBodyBytes} bytes -> ${opt.out}`);
  } else {
    const { fmt, fmtStats } = await import('./measure.mjs');
    const tmp = mkdtempSync(join(tmpdir(), 'docgate-bench-skills-'));
    try {
      const root = join(tmp, 'skills');
      const m = generateSkills({ ...options, root });
      log(`bench: skills: ${m.skills} skills, ${(m.bytes / 1e6).toFixed(2)} MB, median SKILL.md ${m.medianBodyBytes} bytes`);
      const s = await measureSkills({ root, tmp, runs: Math.max(1, Number(opt.runs)), log });
      process.stdout.write('| measurement | value | median (min–max) | target | met? |\n|---|---|---|---|---|\n');
      for (const r of skillsRows(s, m, fmt, fmtStats)) process.stdout.write(`| ${r.join(' | ')} |\n`);
    } finally {
      if (opt.keep) log(`bench: kept ${tmp}`);
      else rmSync(tmp, { recursive: true, force: true });
    }
  }
}
