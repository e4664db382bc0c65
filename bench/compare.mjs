// `node bench/compare.mjs --baseline DIR [options]`: this checkout's docgate against another built
// checkout (DIR, e.g. a clone of the last landed commit after `npm ci`), on one generated corpus, every
// measurement interleaved run by run (the machine's speed drifts; interleaving gives both the same
// conditions). Prints, per row, the median of each, the change, and whether it stays within the bound
// (default 5 %); and first whether both builds print the same reports (issue 17: outputs byte-identical
// to before): `docgate lint --format json` and the stylish report, with their exit codes, on the corpus
// and on every fixture root under this checkout's test/fixtures. It prints "identical" or the first
// difference, and exits 1 when there is one (after the table).
//
// options:
//   --baseline DIR   a built docgate checkout to compare with (required)
//   --outputs        only the byte-identity check of the reports, no timing
//   --instructions   instead of the timing rows, the instructions each CLI row executes (valgrind's
//                    callgrind, which must be installed): a count the machine's load does not move
//                    (run to run within ~2 %), where wall times on a shared machine drift by ±10 %
//   --instruction-runs R  runs of each build per instruction row (default 3)
//   --corpus-dir DIR a ready corpus folder instead of a generated one, never written to (with --outputs
//                    only: the timing rows edit a file of the corpus)
//   --n N            documents in the corpus (default 10000)
//   --seed S         corpus seed (default 1)
//   --runs R         runs of each full-lint row (default 5)
//   --staged-runs R  runs of each one-file row (default 11)
//   --calls C        MCP calls per warm measurement (default 20)
//   --bound P        allowed slowdown in percent (default 5)
//   --json FILE      also write every raw number to FILE
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { generateCorpus } from './corpus.mjs';
import { fmt, mcpSession, median, run as measure, stats } from './measure.mjs';

const HERE = dirname(fileURLToPath(import.meta.url));
const REPO = resolve(HERE, '..');
const NODE = process.execPath;
const { values: opt } = parseArgs({
  options: {
    baseline: { type: 'string' },
    n: { type: 'string', default: '10000' },
    seed: { type: 'string', default: '1' },
    runs: { type: 'string', default: '5' },
    'staged-runs': { type: 'string', default: '11' },
    calls: { type: 'string', default: '20' },
    bound: { type: 'string', default: '5' },
    json: { type: 'string' },
    outputs: { type: 'boolean', default: false },
    instructions: { type: 'boolean', default: false },
    'instruction-runs': { type: 'string', default: '3' },
    'corpus-dir': { type: 'string' },
  },
});
if (!opt.baseline) {
  process.stderr.write('compare: --baseline DIR (a built docgate checkout) is required\n');
  process.exit(2);
}
if (opt['corpus-dir'] && !opt.outputs) {
  process.stderr.write('compare: --corpus-dir goes with --outputs (the timing rows edit a file of the corpus)\n');
  process.exit(2);
}
const RUNS = Number(opt.runs);
const STAGED_RUNS = Number(opt['staged-runs']);
const CALLS = Number(opt.calls);
const BOUND = Number(opt.bound);
const log = (s) => process.stderr.write(`${s}\n`);
const TMP = mkdtempSync(join(tmpdir(), 'docgate-compare-'));
const ROOT = opt['corpus-dir'] ? resolve(opt['corpus-dir']) : join(TMP, 'corpus');
const builds = [
  { name: 'baseline', repo: resolve(opt.baseline) },
  { name: 'this', repo: REPO },
].map((b) => ({ ...b, bin: join(b.repo, 'bin', 'docgate.js'), cache: join(TMP, `cache-${b.name}`) }));
// No colours in the stylish report, whatever the terminal the comparison runs in.
const ENV = { ...process.env, NO_COLOR: '1' };
delete ENV.FORCE_COLOR;
const run = (cmd, args, o = {}) => measure(cmd, args, { cwd: TMP, tmp: TMP, env: ENV, ...o });
const docgate = (b, args) => run(NODE, [b.bin, ...args]);
/** The lint cache of a build's runs (each build its own). */
const cacheArgs = (b) => ['--cache', '--cache-location', b.cache];

/** The repository roots among the fixtures: folders holding a kind folder or a configuration (not below another root). */
function fixtureRoots(dir = join(REPO, 'test', 'fixtures')) {
  const names = readdirSync(dir, { withFileTypes: true });
  if (names.some((e) => ['processes', 'templates', 'frameworks', 'docs', 'docgate.config.yaml', 'docgate.config.json'].includes(e.name))) return [dir];
  return names.filter((e) => e.isDirectory()).flatMap((e) => fixtureRoots(join(dir, e.name)));
}

/** Where two texts first differ: the line number and both lines (shortened). */
function firstDifference(a, b) {
  const [la, lb] = [a.split('\n'), b.split('\n')];
  let i = 0;
  while (i < la.length && i < lb.length && la[i] === lb[i]) i++;
  const cut = (l) => (l === undefined ? '(no line: the output ends)' : JSON.stringify(l.length > 240 ? `${l.slice(0, 240)}…` : l));
  return `line ${i + 1}: baseline ${cut(la[i])}, this ${cut(lb[i])}`;
}

/**
 * The reports of both builds on each root, json and stylish, byte for byte with their exit codes. Resolves
 * { compared, differences: [{ root, format, where }] }.
 */
async function compareOutputs(roots) {
  const differences = [];
  let compared = 0;
  for (const root of roots) {
    for (const format of ['json', 'stylish']) {
      const out = [];
      for (const b of builds) out.push(await docgate(b, ['lint', '--root', root, '--format', format]));
      compared++;
      const [x, y] = out;
      if (x.code !== y.code) differences.push({ root, format, where: `exit code: baseline ${x.code}, this ${y.code}` });
      else if (x.stdout !== y.stdout) differences.push({ root, format, where: firstDifference(x.stdout, y.stdout) });
      const last = differences.at(-1);
      if (last?.root === root && last.format === format) log(`compare: ${format} report of ${root}: DIFFERENT, ${last.where}`);
    }
  }
  return { compared, differences };
}

/** For `times` rounds, runs `fn(build)` for each build in turn; returns the results per build. */
async function interleaved(times, label, fn, unit = 'ms') {
  const out = Object.fromEntries(builds.map((b) => [b.name, []]));
  for (let i = 0; i < times; i++) {
    for (const b of i % 2 === 0 ? builds : [...builds].reverse()) {
      const r = await fn(b);
      out[b.name].push(r);
      log(`compare: ${label} ${b.name} run ${i + 1}: ${typeof r === 'number' ? r.toFixed(1) : Math.round(r.ms)} ${unit}`);
    }
  }
  return out;
}

const rows = [];
const raw = { options: opt, rows };
function row(label, unit, per) {
  const base = stats(per.baseline);
  const mine = stats(per.this);
  const change = ((mine.median - base.median) / base.median) * 100;
  rows.push({ label, unit, baseline: base, this: mine, change, within: change <= BOUND });
}

let exitCode = 0;
try {
  if (opt['corpus-dir'] && !existsSync(ROOT)) throw new Error(`--corpus-dir ${ROOT} does not exist`);
  const manifest = opt['corpus-dir'] ? null : generateCorpus({ n: Number(opt.n), seed: Number(opt.seed), root: ROOT });
  if (manifest) log(`compare: corpus of ${manifest.documents} documents in ${ROOT}`);

  // The same reports, byte for byte, from both builds (issue 17).
  const outputs = await compareOutputs([ROOT, ...fixtureRoots()]);
  raw.outputs = outputs;
  const verdict = outputs.differences.length
    ? `DIFFERENT in ${outputs.differences.length} of ${outputs.compared} reports; first: ${outputs.differences[0].format} report of ${outputs.differences[0].root}, ${outputs.differences[0].where}`
    : `identical (${outputs.compared} reports: json and stylish, with exit codes, on the corpus and ${outputs.compared / 2 - 1} fixture roots)`;
  process.stdout.write(`reports of baseline ${builds[0].repo} and this build: ${verdict}\n`);
  if (outputs.differences.length) exitCode = 1;
  if (opt.instructions) await instructions(manifest, outputs);
  else if (!opt.outputs) await timing(manifest, outputs);
  if (opt.json) writeFileSync(opt.json, `${JSON.stringify(raw, null, 2)}\n`);
} finally {
  rmSync(TMP, { recursive: true, force: true });
}
process.exitCode = exitCode;

/**
 * The files the one-file rows lint: the first valid process, the first valid English SysRS, and the
 * second valid process with `edit()`, which alternates it between two valid versions dated a minute
 * back (as in run.mjs's in-place row), and `restore()`.
 */
function oneFileRows(manifest) {
  const broken = new Set(manifest.broken.map((x) => x.path));
  const valid = (re) => manifest.paths.filter((p) => re.test(p) && !broken.has(p));
  const [processFile, editedFile] = valid(/^processes\//);
  const [sysrsFile] = valid(/^docs\/sysrs\/[^/]+\.md$/);
  const abs = join(ROOT, editedFile);
  const original = readFileSync(abs, 'utf8');
  let edits = 0;
  const edit = () => {
    writeFileSync(abs, ++edits % 2 === 1 ? `${original}\nEdited ${edits}.\n` : original);
    const then = new Date(Date.now() - 60_000 - edits);
    utimesSync(abs, then, then);
  };
  return { processFile, editedFile, sysrsFile, edit, restore: () => writeFileSync(abs, original) };
}

/** The markdown table of `rows`, under a heading line and a line of notes. */
function table(heading, notes) {
  return [
    heading,
    notes,
    '',
    '| measurement | baseline median (min–max) | this median (min–max) | change | within bound? |',
    '|---|---|---|---|---|',
    ...rows.map(
      (r) =>
        `| ${r.label} | ${fmt(r.baseline.median, r.digits ?? 1)} ${r.unit} (${fmt(r.baseline.min, r.digits ?? 1)}–${fmt(r.baseline.max, r.digits ?? 1)}) | ${fmt(r.this.median, r.digits ?? 1)} ${r.unit} (${fmt(r.this.min, r.digits ?? 1)}–${fmt(r.this.max, r.digits ?? 1)}) | ${r.change >= 0 ? '+' : ''}${r.change.toFixed(1)} % | ${r.within ? 'yes' : 'NO'} |`,
    ),
  ].join('\n');
}

/**
 * The instruction rows: each CLI row of `timing` run under valgrind's callgrind (no cache simulation),
 * interleaved, counting every instruction of the process and its threads (`I refs`). The count moves
 * a little from run to run (garbage collection and V8's optimizing compiler start at points that depend
 * on timing), far less than a wall time does.
 */
async function instructions(manifest, outputs) {
  const runs = Number(opt['instruction-runs']);
  const count = async (b, args) => {
    const r = await run('valgrind', ['--tool=callgrind', '--callgrind-out-file=/dev/null', NODE, b.bin, ...args], { capture: false });
    const m = /I\s+refs:\s+([\d,]+)/.exec(r.stderr);
    if (!m) throw new Error(`compare: no instruction count from valgrind (is it installed?): ${r.stderr.slice(-400)}`);
    return Number(m[1].replaceAll(',', '')) / 1e6;
  };
  const { processFile, editedFile, sysrsFile, edit, restore } = oneFileRows(manifest);
  const one = (rel) => (b) => count(b, ['lint', join(ROOT, rel), '--root', ROOT, ...cacheArgs(b)]);
  for (const b of builds) await docgate(b, ['lint', '--root', ROOT, '--format', 'json', ...cacheArgs(b)]);
  for (const [label, fn] of [
    ['cold full lint', (b) => count(b, ['lint', '--root', ROOT, '--format', 'json'])],
    ['warm full lint, --cache', (b) => count(b, ['lint', '--root', ROOT, '--format', 'json', ...cacheArgs(b)])],
    ['one process file, warm --cache', one(processFile)],
    ['one SysRS file, warm --cache', one(sysrsFile)],
    ['one process file edited in place, warm --cache', (b) => (edit(), one(editedFile)(b))],
  ]) {
    const per = await interleaved(runs, label, fn, 'M instructions');
    row(label, 'M instructions', per);
    rows.at(-1).digits = 0;
  }
  restore();
  const same = outputs.differences.length ? 'NO (see above)' : 'yes';
  process.stdout.write(
    `${table(
      `docgate compare: ${fmt(manifest.documents)} documents (seed ${opt.seed}); baseline ${builds[0].repo}; instructions executed (valgrind callgrind), interleaved, ${runs} runs each; bound +${BOUND} %`,
      `reports byte-identical between the builds (json and stylish, corpus and fixtures): ${same}`,
    )}\n`,
  );
}

/** The timing rows, interleaved, and their table. */
async function timing(manifest, outputs) {
  const cold = await interleaved(RUNS, 'cold full lint', (b) => docgate(b, ['lint', '--root', ROOT, '--format', 'json']));
  row('cold full lint', 'ms', { baseline: cold.baseline.map((r) => r.ms), this: cold.this.map((r) => r.ms) });
  row('cold full lint, peak RSS', 'MB', { baseline: cold.baseline.map((r) => r.rssMB), this: cold.this.map((r) => r.rssMB) });

  for (const b of builds) await docgate(b, ['lint', '--root', ROOT, '--format', 'json', ...cacheArgs(b)]);
  const warm = await interleaved(RUNS, 'warm full lint', (b) => docgate(b, ['lint', '--root', ROOT, '--format', 'json', ...cacheArgs(b)]));
  row('warm full lint, --cache', 'ms', { baseline: warm.baseline.map((r) => r.ms), this: warm.this.map((r) => r.ms) });

  const { processFile, editedFile, sysrsFile, edit, restore } = oneFileRows(manifest);
  const one = (rel) => (b) => docgate(b, ['lint', join(ROOT, rel), '--root', ROOT, ...cacheArgs(b)]);
  const node = [];
  const staged = {};
  for (const [label, fn] of [
    ['one process file, warm --cache', one(processFile)],
    ['one SysRS file, warm --cache', one(sysrsFile)],
    ['one process file edited in place, warm --cache', (b) => (edit(), one(editedFile)(b))],
  ]) {
    for (const b of builds) await fn(b);
    staged[label] = await interleaved(STAGED_RUNS, label, async (b) => {
      node.push((await run(NODE, ['-e', '0'])).ms);
      return fn(b);
    });
    row(label, 'ms', { baseline: staged[label].baseline.map((r) => r.ms), this: staged[label].this.map((r) => r.ms) });
  }
  restore();
  raw.nodeBareMs = stats(node);

  const mcp = await interleaved(RUNS, 'MCP', (b) => measureMcp(b));
  for (const [key, label] of [
    ['listCold', 'MCP list_sysrs cold (first call)'],
    ['listWarm', 'MCP list_sysrs warm, p50'],
    ['getWarm', 'MCP get_sysrs warm, p50'],
  ]) {
    row(label, 'ms', { baseline: mcp.baseline.map((m) => m[key]), this: mcp.this.map((m) => m[key]) });
  }

  process.stdout.write(
    `${table(
      `docgate compare: ${fmt(manifest.documents)} documents (seed ${opt.seed}); baseline ${builds[0].repo}; interleaved; bound +${BOUND} %`,
      `reports byte-identical between the builds (json and stylish, corpus and fixtures): ${outputs.differences.length ? 'NO (see above)' : 'yes'}; bare node -e 0: ${fmt(raw.nodeBareMs.median)} ms`,
    )}\n`,
  );
}

/** One MCP session of a build: list_sysrs cold, then warm p50, then get_sysrs warm p50. */
async function measureMcp(b) {
  const { call: time, close } = await mcpSession({ bin: b.bin, root: ROOT, cwd: b.repo });
  try {
    const first = await time('list_sysrs', { max_results: 100 });
    const page = first.res.structuredContent;
    const warm = [];
    for (let c = 0; c < CALLS; c++) warm.push((await time('list_sysrs', { max_results: 100, offset: (c * 100) % page.total })).ms);
    const ids = page.results
      .filter((r) => r.id)
      .slice(0, CALLS)
      .map((r) => r.id);
    for (const id of ids) await time('get_sysrs', { id });
    const get = [];
    for (const id of ids) get.push((await time('get_sysrs', { id })).ms);
    return { ms: first.ms, listCold: first.ms, listWarm: median(warm), getWarm: median(get) };
  } finally {
    await close();
  }
}
