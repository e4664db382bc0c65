// `node bench/compare.mjs --baseline DIR [options]`: this checkout's docgate against another built
// checkout (DIR, e.g. a clone of the last landed commit after `npm ci`), on one generated corpus, every
// measurement interleaved run by run (the machine's speed drifts; interleaving gives both the same
// conditions). Prints, per row, the median of each, the change, and whether it stays within the bound
// (default 5 %); and whether both builds print the same json report for the corpus, byte for byte.
//
// options:
//   --baseline DIR   a built docgate checkout to compare with (required)
//   --n N            documents in the corpus (default 10000)
//   --seed S         corpus seed (default 1)
//   --runs R         runs of each full-lint row (default 5)
//   --staged-runs R  runs of each one-file row (default 11)
//   --calls C        MCP calls per warm measurement (default 20)
//   --bound P        allowed slowdown in percent (default 5)
//   --json FILE      also write every raw number to FILE
import { mkdtempSync, readFileSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { generateCorpus } from './corpus.mjs';
import { fmt, median, run as measure, stats } from './measure.mjs';

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
  },
});
if (!opt.baseline) {
  process.stderr.write('compare: --baseline DIR (a built docgate checkout) is required\n');
  process.exit(2);
}
const RUNS = Number(opt.runs);
const STAGED_RUNS = Number(opt['staged-runs']);
const CALLS = Number(opt.calls);
const BOUND = Number(opt.bound);
const log = (s) => process.stderr.write(`${s}\n`);
const TMP = mkdtempSync(join(tmpdir(), 'docgate-compare-'));
const ROOT = join(TMP, 'corpus');
const builds = [
  { name: 'baseline', repo: resolve(opt.baseline) },
  { name: 'this', repo: REPO },
].map((b) => ({ ...b, bin: join(b.repo, 'bin', 'docgate.js'), cache: join(TMP, `cache-${b.name}`) }));
const run = (cmd, args, o = {}) => measure(cmd, args, { cwd: TMP, tmp: TMP, ...o });
const docgate = (b, args) => run(NODE, [b.bin, ...args]);

/** For `times` rounds, runs `fn(build)` for each build in turn; returns the results per build. */
async function interleaved(times, label, fn) {
  const out = Object.fromEntries(builds.map((b) => [b.name, []]));
  for (let i = 0; i < times; i++) {
    for (const b of i % 2 === 0 ? builds : [...builds].reverse()) {
      const r = await fn(b);
      out[b.name].push(r);
      log(`compare: ${label} ${b.name} run ${i + 1}: ${typeof r === 'number' ? r.toFixed(1) : Math.round(r.ms)} ms`);
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

try {
  const manifest = generateCorpus({ n: Number(opt.n), seed: Number(opt.seed), root: ROOT });
  log(`compare: corpus of ${manifest.documents} documents in ${ROOT}`);

  // Same report, byte for byte, from both builds.
  const reports = {};
  for (const b of builds) reports[b.name] = (await docgate(b, ['lint', '--root', ROOT, '--format', 'json'])).stdout;
  raw.sameJson = reports.baseline === reports.this;
  if (!raw.sameJson) writeFileSync(join(REPO, 'compare-diff.json'), JSON.stringify({ baseline: reports.baseline.slice(0, 1e6), this: reports.this.slice(0, 1e6) }));

  const cold = await interleaved(RUNS, 'cold full lint', (b) => docgate(b, ['lint', '--root', ROOT, '--format', 'json']));
  row('cold full lint', 'ms', { baseline: cold.baseline.map((r) => r.ms), this: cold.this.map((r) => r.ms) });
  row('cold full lint, peak RSS', 'MB', { baseline: cold.baseline.map((r) => r.rssMB), this: cold.this.map((r) => r.rssMB) });

  const cacheArgs = (b) => ['--cache', '--cache-location', b.cache];
  for (const b of builds) await docgate(b, ['lint', '--root', ROOT, '--format', 'json', ...cacheArgs(b)]);
  const warm = await interleaved(RUNS, 'warm full lint', (b) => docgate(b, ['lint', '--root', ROOT, '--format', 'json', ...cacheArgs(b)]));
  row('warm full lint, --cache', 'ms', { baseline: warm.baseline.map((r) => r.ms), this: warm.this.map((r) => r.ms) });

  const broken = new Set(manifest.broken.map((x) => x.path));
  const valid = (re) => manifest.paths.filter((p) => re.test(p) && !broken.has(p));
  const [processFile, editedFile] = valid(/^processes\//);
  const [sysrsFile] = valid(/^docs\/sysrs\/[^/]+\.md$/);
  const original = readFileSync(join(ROOT, editedFile), 'utf8');
  let edits = 0;
  const edit = () => {
    // Alternating between two valid versions, dated a minute back (as in run.mjs's in-place row).
    const abs = join(ROOT, editedFile);
    writeFileSync(abs, ++edits % 2 === 1 ? `${original}\nEdited ${edits}.\n` : original);
    const then = new Date(Date.now() - 60_000 - edits);
    utimesSync(abs, then, then);
  };
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
  writeFileSync(join(ROOT, editedFile), original);
  raw.nodeBareMs = stats(node);

  const mcp = await interleaved(RUNS, 'MCP', (b) => measureMcp(b));
  for (const [key, label] of [
    ['listCold', 'MCP list_sysrs cold (first call)'],
    ['listWarm', 'MCP list_sysrs warm, p50'],
    ['getWarm', 'MCP get_sysrs warm, p50'],
  ]) {
    row(label, 'ms', { baseline: mcp.baseline.map((m) => m[key]), this: mcp.this.map((m) => m[key]) });
  }

  const table = [
    `docgate compare: ${fmt(manifest.documents)} documents (seed ${opt.seed}); baseline ${builds[0].repo}; interleaved; bound +${BOUND} %`,
    `json report of the corpus byte-identical between the builds: ${raw.sameJson ? 'yes' : 'NO (compare-diff.json)'}; bare node -e 0: ${fmt(raw.nodeBareMs.median)} ms`,
    '',
    '| measurement | baseline median (min–max) | this median (min–max) | change | within bound? |',
    '|---|---|---|---|---|',
    ...rows.map(
      (r) =>
        `| ${r.label} | ${fmt(r.baseline.median, 1)} ${r.unit} (${fmt(r.baseline.min, 1)}–${fmt(r.baseline.max, 1)}) | ${fmt(r.this.median, 1)} ${r.unit} (${fmt(r.this.min, 1)}–${fmt(r.this.max, 1)}) | ${r.change >= 0 ? '+' : ''}${r.change.toFixed(1)} % | ${r.within ? 'yes' : 'NO'} |`,
    ),
  ];
  process.stdout.write(`${table.join('\n')}\n`);
  if (opt.json) writeFileSync(opt.json, `${JSON.stringify(raw, null, 2)}\n`);
} finally {
  rmSync(TMP, { recursive: true, force: true });
}

/** One MCP session of a build: list_sysrs cold, then warm p50, then get_sysrs warm p50. */
async function measureMcp(b) {
  const { Client } = await import('@modelcontextprotocol/sdk/client/index.js');
  const { StdioClientTransport } = await import('@modelcontextprotocol/sdk/client/stdio.js');
  const client = new Client({ name: 'docgate-compare', version: '1.0.0' });
  await client.connect(new StdioClientTransport({ command: NODE, args: [b.bin, 'mcp', '--root', ROOT], cwd: b.repo, stderr: 'ignore' }));
  try {
    const time = async (name, args) => {
      const t = performance.now();
      const res = await client.callTool({ name, arguments: args });
      return { ms: performance.now() - t, res };
    };
    const first = await time('list_sysrs', { max_results: 100 });
    const page = first.res.structuredContent;
    const warm = [];
    for (let c = 0; c < CALLS; c++) warm.push((await time('list_sysrs', { max_results: 100, offset: (c * 100) % page.total })).ms);
    const ids = page.results.filter((r) => r.id).slice(0, CALLS).map((r) => r.id);
    for (const id of ids) await time('get_sysrs', { id });
    const get = [];
    for (const id of ids) get.push((await time('get_sysrs', { id })).ms);
    return { ms: first.ms, listCold: first.ms, listWarm: median(warm), getWarm: median(get) };
  } finally {
    await client.close();
  }
}
