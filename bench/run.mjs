// `npm run bench [-- options]`: the performance tables of SPEC §6 and §13 (issues 7 and 17).
//
// Generates the deterministic corpus of bench/corpus.mjs into a fresh folder under os.tmpdir() (never
// into the repository), then measures, each over --runs runs (median with min–max):
//   - cold full `docgate lint` (wall ms, documents/s, peak RSS of the child), checked against the planted files,
//   - the same pinned to 1 and 2 cores with taskset, interleaved, and the speedup (bench/scale.mjs),
//   - warm full lint with `--cache`,
//   - one staged file with a warm cache (a process, a SysRS, a process edited in place, a process replaced
//     by a safe write) next to bare `node -e 0`, interleaved, max(--runs, 11) runs each,
//   - `docgate lint --staged --cache` with one staged file (in place, safe write, right after a checkout of a
//     branch changing 500 documents) next to bare `node -e 0`, interleaved (bench/staged.mjs),
//   - MCP `list_sysrs` cold (first call of a fresh server) and warm p50, `get_sysrs` warm p50,
//   - MCP `update_document` of one SysRS body line through `--allow-writes`, p50 and p95 (bench/mcp-writes.mjs),
//   - MCP on another fresh server: the first call of each list tool, each default answer's size, the
//     server's peak RSS (bench/scale.mjs),
//   - `docgate lsp`: change → published diagnostics of one open document in a 10,000-document workspace
//     (p50/p95 of 30 changes, per server, over --runs servers) and the server's RSS over 10,000
//     open/edit/close cycles (bench/lsp.mjs),
//   - the peer: remark-cli + remark-frontmatter + remark-lint-frontmatter-schema with draft-07 copies
//     of docgate's frontmatter schemas, on a subset (default 1,000 markdown documents; --peer-full: all),
//     after checking that it reports the planted frontmatter defects of that subset,
// and prints one Markdown table with the targets of issues 7 and 17; then the growth table: cold full lint at
// each --growth size (with the MCP rows at each size above --n). It builds nothing: `npm run bench` runs
// `npm run build` first.
//
// Options:
//   --n N              documents in the corpus (default 10000)
//   --seed S           corpus seed (default 1)
//   --runs R           runs per measurement (default 3, minimum 1)
//   --calls C          MCP calls per warm measurement (default 20)
//   --peer-n M         markdown documents in the peer subset (default 1000)
//   --peer-full        run the peer on every markdown document of the corpus (~6 min per run at N=10000)
//   --peer-runs R      runs of the peer (default: --runs)
//   --no-peer          skip the peer (the ratio row becomes n/a)
//   --ratio            only the cold full lint and the peer, and their ratio (the target of issue 27:
//                      ≥ 100×); the load average before and after is printed with them
//   --cores A,B        cold full lint pinned with taskset to each number of cores, interleaved, and the
//                      speedup over 1 core (default 1,2; none: skip; skipped without taskset or 2 cores)
//   --growth A,B,C     the growth table: cold full lint at each N (default 1000,10000; none: skip); a
//                      size above --n also gets the MCP list rows (100000 takes ~700 MB of disk and minutes)
//   --corpus-dir DIR   a ready corpus folder (e.g. made by bench/corpus.mjs) for the growth size equal to its
//                      number of documents, used as it is and never written to; may be repeated
//   --sizes A,B,C      only the growth table at these sizes (with --mcp: and the MCP list rows at each)
//   --mcp              with --sizes: also list every kind through a fresh MCP server at each size
//   --rule-edits E     the memory of one MCP server over E edits of a rule file (bench/rule-edits.mjs;
//                      default 1000, 0: skip)
//   --lsp-docs D       `docgate lsp`: change → published diagnostics of one open document in a workspace of
//                      D documents, 30 changes on each of --runs servers (bench/lsp.mjs; default 10000, 0: skip)
//   --lsp-cycles C     `docgate lsp`: the server's RSS over C open/edit/close cycles (default 10000, 0: skip)
//   --skills S         cold lint of a generated repository of S agent skills next to `node -e 0`
//                      (bench/skills.mjs; default 400, 0: skip)
//   --json FILE        also write every raw number to FILE
//   --keep             keep the temporary folder and print its path

import { existsSync, mkdtempSync, readFileSync, renameSync, rmSync, utimesSync, writeFileSync, mkdirSync } from 'node:fs';
import { tmpdir, cpus, loadavg, totalmem } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { generateCorpus } from './corpus.mjs';
import { GNU_TIME, fmt, fmtStats, mcpFailure, mcpSession, p50, repeat, run as measureRun, stats, yes } from './measure.mjs';
import { corpusSize, coreRows, growthRow, growthTable, mcpListRows, measureCores, measureMcpLists, pinnableCores, readyCorpus } from './scale.mjs';
import { lspRows, measureLspChanges, measureLspCycles } from './lsp.mjs';
import { measureRuleEdits, ruleEditRows } from './rule-edits.mjs';
import { measureStaged, stagedRows } from './staged.mjs';
import { generateSkills, measureSkills, skillsRows } from './skills.mjs';
import { measureMcpWrites, mcpWriteRows } from './mcp-writes.mjs';

const HERE = dirname(fileURLToPath(import.meta.url));
const REPO = resolve(HERE, '..');
const BIN = join(REPO, 'bin', 'docgate.js');
const NODE = process.execPath;

const { values: opt } = parseArgs({
  options: {
    n: { type: 'string', default: '10000' },
    seed: { type: 'string', default: '1' },
    runs: { type: 'string', default: '3' },
    calls: { type: 'string', default: '20' },
    'peer-n': { type: 'string', default: '1000' },
    'peer-full': { type: 'boolean', default: false },
    'peer-runs': { type: 'string' },
    'no-peer': { type: 'boolean', default: false },
    ratio: { type: 'boolean', default: false },
    'rule-edits': { type: 'string', default: '1000' },
    'lsp-docs': { type: 'string', default: '10000' },
    'lsp-cycles': { type: 'string', default: '10000' },
    skills: { type: 'string', default: '400' },
    sizes: { type: 'string' },
    growth: { type: 'string', default: '1000,10000' },
    cores: { type: 'string', default: '1,2' },
    'corpus-dir': { type: 'string', multiple: true, default: [] },
    mcp: { type: 'boolean', default: false },
    json: { type: 'string' },
    keep: { type: 'boolean', default: false },
  },
});
const N = Number(opt.n);
const SEED = Number(opt.seed);
const RUNS = Math.max(1, Number(opt.runs));
const CALLS = Math.max(1, Number(opt.calls));
const PEER_RUNS = Math.max(1, Number(opt['peer-runs'] ?? RUNS));
for (const [k, v] of [
  ['--n', N],
  ['--seed', SEED],
  ['--runs', RUNS],
  ['--calls', CALLS],
]) {
  if (!Number.isFinite(v)) {
    process.stderr.write(`bench: ${k} needs a number\n`);
    process.exit(2);
  }
}
if (!existsSync(join(REPO, 'dist'))) {
  process.stderr.write('bench: dist/ is missing; run `npm run build` first (npm run bench does)\n');
  process.exit(2);
}

const log = (s) => process.stderr.write(`${s}\n`);
const LOAD_AT_START = loadavg()
  .map((x) => x.toFixed(2))
  .join(' ');
const TMP = mkdtempSync(join(tmpdir(), 'docgate-bench-'));
const raw = {
  machine: { cpus: cpus().length, cpuModel: cpus()[0]?.model, totalMemMB: Math.round(totalmem() / 2 ** 20), node: process.version, platform: process.platform },
  options: { n: N, seed: SEED, runs: RUNS, calls: CALLS },
  rssMethod: GNU_TIME ? '/usr/bin/time -f %M' : '/proc/<pid>/status VmHWM polling',
};

let cleaned = false;
function cleanup() {
  if (cleaned) return;
  cleaned = true;
  if (opt.keep) log(`bench: kept ${TMP}`);
  else rmSync(TMP, { recursive: true, force: true });
}
process.on('SIGINT', () => {
  cleanup();
  process.exit(130);
});

// ------------------------------------------------------------------------------------------- helpers

const run = (cmd, args, o = {}) => measureRun(cmd, args, { cwd: REPO, tmp: TMP, ...o });
const docgate = (args, o) => run(NODE, [BIN, ...args], o);

function makeCorpus(n, dir) {
  const t0 = performance.now();
  const m = generateCorpus({ n, seed: SEED, root: dir });
  const { paths, ...manifest } = m;
  writeFileSync(join(dirname(dir), `${n}-manifest.json`), `${JSON.stringify(manifest, null, 2)}\n`);
  log(
    `bench: corpus N=${n}: ${m.documents} documents, ${(m.bytes / 1e6).toFixed(1)} MB, ${m.broken.length} planted broken files, ${Math.round(performance.now() - t0)} ms -> ${dir}`,
  );
  return m;
}

/** Compares docgate's failing files with the manifest (null for a corpus without one). */
function checkAgainstManifest(jsonText, manifest) {
  if (!manifest.broken) return null;
  let report;
  try {
    report = JSON.parse(jsonText);
  } catch {
    return { ok: false, note: 'docgate --format json output did not parse' };
  }
  const planted = new Set(manifest.broken.map((b) => b.path));
  const got = new Set(report.results.map((r) => r.path));
  const unexpected = [...got].filter((p) => !planted.has(p));
  const missed = [...planted].filter((p) => !got.has(p));
  return {
    ok: unexpected.length === 0 && missed.length === 0,
    filesChecked: report.filesChecked,
    failing: got.size,
    planted: planted.size,
    unexpected,
    missed,
  };
}

// ------------------------------------------------------------------------------------ growth (--sizes)

/** A list of sizes or core counts ("none" or empty: no entry). */
const numbers = (text) =>
  (text ?? '')
    .split(',')
    .map((x) => Number(x.trim()))
    .filter((x) => Number.isInteger(x) && x > 0);

/** The ready corpus folders (--corpus-dir) by their number of documents (their manifests are read when measured). */
const readyDirs = opt['corpus-dir'].map((dir) => ({ dir: resolve(dir), n: corpusSize(resolve(dir)) }));

/** One cold full lint of `root` (`prefix`: a command that runs node, such as taskset), logged. */
async function coldLint(label, root, i, prefix = []) {
  const [cmd, ...args] = [...prefix, NODE, BIN, 'lint', '--root', root, '--format', 'json'];
  const r = await run(cmd, args);
  log(`bench: ${label} run ${i + 1}: ${Math.round(r.ms)} ms, ${fmt(r.rssMB)} MB peak RSS, exit ${r.code}`);
  return r;
}

/**
 * The growth table at `sizes` (plus the size of every --corpus-dir): each size's corpus is `reuse` (the
 * main run's corpus and its cold runs) when its size matches, a --corpus-dir of that size, or generated
 * under TMP and removed after. `mcpAt(n)` says whether a fresh MCP server lists every kind there too.
 */
async function measureGrowth(sizes, { reuse = null, mcpAt = () => false } = {}) {
  const all = [...new Set([...sizes, ...readyDirs.map((d) => d.n)])].sort((a, b) => a - b);
  const rows = [];
  const mcpLists = [];
  for (const n of all) {
    const ready = readyDirs.find((d) => d.n === n);
    let corpus;
    if (reuse?.manifest.documents === n) corpus = { ...reuse, keep: true };
    else if (ready) corpus = { ...readyCorpus(ready.dir, SEED, log), keep: true };
    else {
      const root = join(TMP, `corpus-${n}`);
      corpus = { root, manifest: makeCorpus(n, root), keep: opt.keep };
    }
    const { root, manifest } = corpus;
    const runs = corpus.cold ?? (await repeat(RUNS, (i) => coldLint(`N=${n} cold full lint`, root, i)));
    const check = corpus.check !== undefined ? corpus.check : checkAgainstManifest(runs[0].stdout, manifest);
    if (check && !check.ok)
      log(
        `bench: WARNING: N=${n}: docgate reported ${check.failing} failing files, planted ${check.planted} (unexpected ${check.unexpected?.length}, missed ${check.missed?.length})`,
      );
    rows.push(growthRow(n, manifest, runs, check));
    if (mcpAt(n)) mcpLists.push({ documents: manifest.documents, ...(await measureMcpLists({ bin: BIN, root, cwd: REPO, runs: RUNS, log })) });
    if (!corpus.keep) rmSync(root, { recursive: true, force: true });
  }
  return { rows, mcpLists };
}

if (opt.sizes) {
  try {
    const { rows, mcpLists } = await measureGrowth(numbers(opt.sizes), { mcpAt: () => opt.mcp });
    const lines = growthTable(rows, { seed: SEED, runs: RUNS, cpus: raw.machine.cpus });
    if (mcpLists.length) {
      lines.push('', '| measurement | value | median (min–max) | target | met? |', '|---|---|---|---|---|');
      for (const m of mcpLists) for (const r of mcpListRows(m, m.documents)) lines.push(`| ${r.join(' | ')} |`);
    }
    process.stdout.write(`${lines.join('\n')}\n`);
    raw.sizes = rows;
    raw.mcpLists = mcpLists;
    if (opt.json) writeFileSync(opt.json, `${JSON.stringify(raw, null, 2)}\n`);
  } finally {
    cleanup();
  }
  process.exit(0);
}

// ------------------------------------------------------------------------------------------ main run

const ROOT = join(TMP, 'corpus');
const rows = []; // { measurement, value, result, target, met }
const row = (measurement, value, result, target = '', met = '') => rows.push({ measurement, value, result, target, met });

try {
  const manifest = makeCorpus(N, ROOT);
  raw.corpus = { documents: manifest.documents, bytes: manifest.bytes, counts: manifest.counts, broken: manifest.broken.length };

  // ---- cold full lint
  let check;
  const cold = await repeat(RUNS, async (i) => {
    const r = await coldLint('cold full lint', ROOT, i);
    if (i === 0) {
      check = checkAgainstManifest(r.stdout, manifest);
      log(
        check.ok
          ? `bench: docgate reports exactly the ${check.planted} planted broken files (${check.filesChecked} files checked)`
          : `bench: WARNING: docgate reports ${check.failing} failing files, ${check.planted} planted; unexpected: ${check.unexpected?.slice(0, 5).join(', ')}; missed: ${check.missed?.slice(0, 5).join(', ')}`,
      );
    }
    return r;
  });
  const coldWall = stats(cold.map((r) => r.ms));
  const coldDocsPerS = stats(cold.map((r) => (manifest.documents / r.ms) * 1000));
  const coldRss = stats(cold.map((r) => r.rssMB));
  raw.cold = { wallMs: coldWall, docsPerS: coldDocsPerS, rssMB: coldRss, check };

  // ---- --ratio: the peer right after the cold runs, and nothing else
  if (opt.ratio) {
    const peer = await measurePeer(manifest);
    raw.peer = peer;
    const ratio = coldDocsPerS.median / peer.docsPerS.median;
    raw.ratio = ratio;
    const lines = [
      `docgate bench --ratio: N=${fmt(manifest.documents)} documents, seed ${SEED}, ${(manifest.bytes / 1e6).toFixed(1)} MB; ${RUNS} cold runs, ${PEER_RUNS} peer runs (median (min–max))`,
      `load average: ${LOAD_AT_START} at the start, ${loadavg()
        .map((x) => x.toFixed(2))
        .join(' ')} at the end`,
      check.ok ? `docgate reported exactly the ${check.planted} planted broken files.` : "WARNING: docgate's failing files differ from the planted ones.",
      `peer check: ${peer.check.summary}`,
      '',
      '| measurement | value | median (min–max) | target | met? |',
      '|---|---|---|---|---|',
      `| cold full \`docgate lint\` (${fmt(manifest.documents)} docs) | wall | ${fmtStats(coldWall, 'ms')} |  |  |`,
      `| cold full \`docgate lint\` | documents/s | ${fmtStats(coldDocsPerS, '/s')} |  |  |`,
      `| peer (${peer.full ? 'all' : 'subset of'} ${fmt(peer.documents)} markdown docs) | wall | ${fmtStats(peer.wallMs, 'ms')} |  |  |`,
      `| peer | documents/s | ${fmtStats(peer.docsPerS, '/s', 1)} |  |  |`,
      `| ratio docgate cold (every SysRS outline checked) ÷ peer | documents/s ÷ documents/s | ${fmt(ratio, 1)}× | ≥ 100× (issue 27) | ${yes(ratio >= 100)} |`,
    ];
    // CPU time (user + system, every thread) per document: what a loaded machine changes least. Not the
    // target's measure (documents/s of wall time), a check of it: docgate's two threads count twice here.
    const coldCpu = cold.every((r) => r.cpuMs !== null) ? stats(cold.map((r) => r.cpuMs)) : null;
    if (coldCpu && peer.cpuMs) {
      const perDoc = (ms, n) => (ms / n) * 1000;
      lines.push(
        `| cold full \`docgate lint\` | CPU (user + system) | ${fmtStats(coldCpu, 'ms')} (${fmt(perDoc(coldCpu.median, manifest.documents), 1)} µs/document) |  |  |`,
        `| peer | CPU (user + system) | ${fmtStats(peer.cpuMs, 'ms')} (${fmt(perDoc(peer.cpuMs.median, peer.documents), 1)} µs/document) |  |  |`,
        `| ratio of CPU per document, peer ÷ docgate | | ${fmt(perDoc(peer.cpuMs.median, peer.documents) / perDoc(coldCpu.median, manifest.documents), 1)}× |  |  |`,
      );
      raw.cpuRatio = perDoc(peer.cpuMs.median, peer.documents) / perDoc(coldCpu.median, manifest.documents);
    }
    process.stdout.write(`${lines.join('\n')}\n`);
    if (opt.json) writeFileSync(opt.json, `${JSON.stringify(raw, null, 2)}\n`);
    cleanup();
    process.exit(0);
  }

  // ---- cold full lint pinned to 1, 2, … cores (issue 17), before anything else writes into the corpus
  const pinnable = numbers(opt.cores).length ? pinnableCores(numbers(opt.cores)) : { counts: [], note: 'skipped: --cores none' };
  if (pinnable.note) log(`bench: pinned cores: ${pinnable.note}`);
  const cores = pinnable.counts.length
    ? await measureCores({
        counts: pinnable.counts,
        cpus: pinnable.cpus,
        runs: RUNS,
        lint: (prefix, i) => coldLint(`cold full lint, ${prefix.join(' ')}`, ROOT, i, prefix),
      })
    : null;
  raw.cores = cores ?? { note: pinnable.note };

  // ---- warm full lint with --cache
  let hasCache = false;
  let cacheNote = '';
  {
    const fill = await docgate(['lint', '--root', ROOT, '--format', 'json', '--cache']);
    if (fill.code === 2) cacheNote = `n/a (no --cache: ${fill.stderr.trim().split('\n')[0]})`;
    else {
      hasCache = true;
      log(`bench: cache filled in ${Math.round(fill.ms)} ms`);
    }
  }
  let warm;
  if (hasCache) {
    const coldResults = JSON.parse(cold[0].stdout).results;
    warm = await repeat(RUNS, async (i) => {
      const r = await docgate(['lint', '--root', ROOT, '--format', 'json', '--cache']);
      log(`bench: warm full lint run ${i + 1}: ${Math.round(r.ms)} ms, ${fmt(r.rssMB)} MB, exit ${r.code}`);
      if (i === 0) {
        try {
          const same = JSON.stringify(JSON.parse(r.stdout).results) === JSON.stringify(coldResults);
          if (!same) log('bench: WARNING: the warm (cached) results differ from the cold results');
          raw.warmSameAsCold = same;
        } catch {
          log('bench: WARNING: warm --format json output did not parse');
        }
      }
      return r;
    });
    raw.warm = { wallMs: stats(warm.map((r) => r.ms)), rssMB: stats(warm.map((r) => r.rssMB)) };
  }

  // ---- one staged file (warm cache) next to bare node -e 0, interleaved run by run (the machine's speed
  // drifts; interleaving gives every command the same conditions)
  const valid = (re) => manifest.paths.filter((p) => re.test(p) && !manifest.broken.some((b) => b.path === p));
  const [validProcess, editedProcess, replacedProcess] = valid(/^processes\//);
  const [validSysrs] = valid(/^docs\/sysrs\/[^/]+\.md$/);
  const STAGED_RUNS = Math.max(RUNS, 11);
  const stagedArgs = (rel) => ['lint', join(ROOT, rel), '--root', ROOT, ...(hasCache ? ['--cache'] : [])];
  // A pre-commit hook usually lints a file that was edited since the last run: its cache entry is stale,
  // the rest is not. Before each run the file alternates between two valid versions, dated a minute back
  // (an edit made just before the commit would be "racily clean" for the runs of the other rows, which
  // would then re-read it: not what a hook meets after a normal edit). `in place` writes it as VS Code or
  // a shell `>` does; `safe write` replaces it through a temporary file, as JetBrains, vim and emacs save
  // and as a git checkout writes: its folder changes (dated back too, so the listing that run takes is
  // kept), and the run lists the folder and checks every file in it with a stat.
  const editor = (rel, how) => {
    const abs = join(ROOT, rel);
    const original = readFileSync(abs, 'utf8');
    let edits = 0;
    return {
      edit() {
        const text = ++edits % 2 === 1 ? `${original}\nEdited ${edits}.\n` : original;
        const then = new Date(Date.now() - 60_000 - edits);
        if (how === 'in place') writeFileSync(abs, text);
        else {
          writeFileSync(`${abs}.tmp`, text);
          renameSync(`${abs}.tmp`, abs);
          utimesSync(dirname(abs), then, then);
        }
        utimesSync(abs, then, then);
      },
      restore: () => writeFileSync(abs, original),
    };
  };
  const edited = editor(editedProcess, 'in place');
  const replaced = editor(replacedProcess, 'safe write');
  const commands = {
    node: { run: () => run(NODE, ['-e', '0']) },
    process: { rel: validProcess, run: () => docgate(stagedArgs(validProcess)) },
    sysrs: { rel: validSysrs, run: () => docgate(stagedArgs(validSysrs)) },
    edited: { rel: editedProcess, run: () => (edited.edit(), docgate(stagedArgs(editedProcess))) },
    replaced: { rel: replacedProcess, run: () => (replaced.edit(), docgate(stagedArgs(replacedProcess))) },
  };
  for (const c of Object.values(commands)) await c.run(); // warm the OS cache (and the lint cache) for each command
  const samples = Object.fromEntries(Object.keys(commands).map((k) => [k, []]));
  for (let i = 0; i < STAGED_RUNS; i++) for (const [k, c] of Object.entries(commands)) samples[k].push(await c.run());
  edited.restore();
  replaced.restore();
  const nodeBareMs = stats(samples.node.map((r) => r.ms));
  const staged = {};
  for (const label of ['process', 'sysrs', 'edited', 'replaced']) {
    const rs = samples[label];
    const rel = commands[label].rel;
    if (rs.some((r) => r.code !== 0)) log(`bench: WARNING: one-file lint of ${rel} exited ${rs.map((r) => r.code).join(',')}: ${rs[0].stderr || rs[0].stdout}`);
    staged[label] = { path: rel, wallMs: stats(rs.map((r) => r.ms)), rssMB: stats(rs.map((r) => r.rssMB)) };
    log(`bench: one staged ${label} file: ${Math.round(staged[label].wallMs.median)} ms (node -e 0: ${Math.round(nodeBareMs.median)} ms)`);
  }
  raw.staged = { nodeBareMs, ...staged, withCache: hasCache, runs: STAGED_RUNS };

  // ---- docgate lint --staged (issue 14): the corpus becomes a git repository
  const stagedIndex = await measureStaged({
    root: ROOT,
    tmp: TMP,
    paths: manifest.paths,
    broken: new Set(manifest.broken.map((b) => b.path)),
    runs: STAGED_RUNS,
    log,
  });
  raw.stagedIndex = stagedIndex;

  // ---- MCP
  const mcp = await measureMcp();
  raw.mcp = mcp;
  // The write tools: update_document of one SysRS (restored after), through a server with --allow-writes.
  const mcpWrites = await measureMcpWrites({ bin: BIN, root: ROOT, cwd: REPO, calls: CALLS, log });
  raw.mcpWrites = mcpWrites;
  const ruleEdits = Number(opt['rule-edits']) > 0 ? await measureRuleEdits({ bin: BIN, edits: Number(opt['rule-edits']) }) : null;
  if (ruleEdits) {
    raw.ruleEdits = ruleEdits;
    log(`bench: MCP server RSS ${ruleEdits.after10MB.toFixed(1)} MB after 10 rule-file edits, ${ruleEdits.lastMB.toFixed(1)} MB after ${ruleEdits.edits}`);
  }

  // ---- the editor's language server (issue 29): a change in a large workspace, and memory over a long session
  const lspChanges = Number(opt['lsp-docs']) > 0 ? await measureLspChanges({ bin: BIN, docs: Number(opt['lsp-docs']), runs: RUNS, log }) : null;
  const lspCycles = Number(opt['lsp-cycles']) > 0 ? await measureLspCycles({ bin: BIN, cycles: Number(opt['lsp-cycles']) }) : null;
  if (lspChanges) raw.lspChanges = lspChanges;
  if (lspCycles) {
    raw.lspCycles = lspCycles;
    log(`bench: lsp RSS over ${lspCycles.cycles} cycles: ${lspCycles.points.map((p) => `${p.cycle}: ${p.rss.toFixed(0)} MB`).join(', ')}`);
  }

  // ---- a small repository (issue 27): cold lint of S generated skills next to bare node -e 0, interleaved
  let skills = null;
  if (Number(opt.skills) > 0) {
    const skillsRoot = join(TMP, 'skills');
    const made = generateSkills({ n: Number(opt.skills), seed: SEED, root: skillsRoot });
    skills = {
      made: { skills: made.skills, bytes: made.bytes, medianBodyBytes: made.medianBodyBytes },
      ...(await measureSkills({ root: skillsRoot, tmp: TMP, runs: STAGED_RUNS, log })),
    };
    delete skills.stdout;
    raw.skills = skills;
    rmSync(skillsRoot, { recursive: true, force: true });
  }

  // ---- MCP: a fresh server lists every kind (issue 17), here and at every larger size of the growth table
  const mcpLists = [{ documents: manifest.documents, ...(await measureMcpLists({ bin: BIN, root: ROOT, cwd: REPO, runs: RUNS, log })) }];

  // ---- growth table (issue 17): this run's cold full lint is its row for N
  const growth = await measureGrowth(numbers(opt.growth), { reuse: { root: ROOT, manifest, cold, check }, mcpAt: (n) => n > manifest.documents });
  mcpLists.push(...growth.mcpLists);
  raw.mcpLists = mcpLists;
  raw.growth = growth.rows;

  // ---- peer
  let peer = null;
  if (!opt['no-peer']) {
    peer = await measurePeer(manifest);
    raw.peer = peer;
  }

  // ---- table
  const nDocs = fmt(manifest.documents);
  row(`cold full \`docgate lint\` (${nDocs} docs, ${fmt(manifest.bytes / 1e6, 0)} MB)`, 'wall', fmtStats(coldWall, 'ms'));
  const ratio = peer?.docsPerS ? coldDocsPerS.median / peer.docsPerS.median : null;
  row('cold full `docgate lint`', 'documents/s', fmtStats(coldDocsPerS, '/s'), '≥ 40× peer', ratio === null ? 'n/a' : yes(ratio >= 40));
  row('cold full `docgate lint`', 'peak RSS', fmtStats(coldRss, 'MB'), '≤ 300 MB', yes(coldRss.median <= 300));
  if (check) {
    const caught = check.planted - check.missed.length;
    row(
      'cold full `docgate lint`, every SysRS outline checked',
      'planted broken files reported / valid files flagged',
      `${fmt(caught)} of ${fmt(check.planted)} / ${fmt(check.unexpected.length)}`,
      'all / 0',
      yes(check.ok),
    );
  }
  for (const r of coreRows(cores, manifest.documents, pinnable.note)) row(...r);
  if (warm) {
    const w = raw.warm.wallMs;
    row('warm full lint, `--cache`, unchanged tree', 'wall', fmtStats(w, 'ms'), '≤ 1,000 ms', yes(w.median <= 1000));
    row('warm full lint, `--cache`', 'peak RSS', fmtStats(raw.warm.rssMB, 'MB'), '≤ 300 MB', yes(raw.warm.rssMB.median <= 300));
  } else row('warm full lint, `--cache`, unchanged tree', 'wall', cacheNote, '≤ 1,000 ms', 'n/a');
  row(`bare \`node -e 0\` (${STAGED_RUNS} runs, interleaved with the rows below)`, 'wall', fmtStats(nodeBareMs, 'ms'));
  const stagedLabels = {
    process: 'one process file',
    sysrs: 'one sysrs file',
    edited: 'one process file just edited in place (its entry stale)',
    replaced: 'one process file just replaced by a safe write (its folder changed: every file stat-checked)',
  };
  for (const label of ['process', 'sysrs', 'edited', 'replaced']) {
    const s = staged[label];
    const limit = nodeBareMs.median + 100;
    row(
      `\`docgate lint <${stagedLabels[label]}>\`${hasCache ? ', warm `--cache`' : ' (no --cache yet)'} (${STAGED_RUNS} runs)`,
      'wall',
      `${fmtStats(s.wallMs, 'ms')} (node -e 0 + ${fmt(s.wallMs.median - nodeBareMs.median)})`,
      `≤ node -e 0 + 100 ms (${fmt(limit)} ms)`,
      yes(s.wallMs.median <= limit),
    );
  }
  for (const r of stagedRows(stagedIndex, fmt, fmtStats)) row(...r);
  if (mcp.error) {
    for (const m of ['MCP `list_sysrs` cold (first call)', 'MCP `list_sysrs` warm', 'MCP `get_sysrs` warm'])
      row(
        m,
        m.includes('cold') ? 'latency' : 'p50 latency',
        `n/a (${mcp.error})`,
        m.includes('list_sysrs` warm') ? '≤ 20 ms' : m.includes('get') ? '≤ 5 ms' : '',
        'n/a',
      );
  } else {
    row('MCP server start (spawn + initialize)', 'wall', fmtStats(mcp.startMs, 'ms'));
    row(`MCP \`list_sysrs\` cold (first call, max_results 100, ${fmt(mcp.total)} SysRS)`, 'latency', fmtStats(mcp.listColdMs, 'ms'));
    row(
      `MCP \`list_sysrs\` warm (${CALLS} calls, max_results 100)`,
      'p50 latency',
      fmtStats(mcp.listWarmP50, 'ms', 1),
      '≤ 20 ms',
      yes(mcp.listWarmP50.median <= 20),
    );
    row(`MCP \`get_sysrs\` warm (${CALLS} calls)`, 'p50 latency', fmtStats(mcp.getWarmP50, 'ms', 1), '≤ 5 ms', yes(mcp.getWarmP50.median <= 5));
    row(`MCP \`ping\` round trip (${CALLS} calls, transport only)`, 'p50 latency', fmtStats(mcp.pingP50, 'ms', 1));
  }
  for (const r of mcpWriteRows(mcpWrites, manifest.documents)) row(...r);
  for (const m of mcpLists) for (const r of mcpListRows(m, m.documents)) row(...r);
  if (ruleEdits) for (const r of ruleEditRows(ruleEdits)) row(...r);
  for (const r of lspRows(lspChanges, lspCycles)) row(...r);
  if (skills) for (const r of skillsRows(skills, skills.made, fmt, fmtStats)) row(...r);
  if (peer) {
    const which = peer.full ? `all ${fmt(peer.documents)} markdown docs` : `subset of ${fmt(peer.documents)} markdown docs`;
    row(`peer remark-cli + remark-lint-frontmatter-schema (${which})`, 'wall', fmtStats(peer.wallMs, 'ms'));
    row('peer', 'documents/s', fmtStats(peer.docsPerS, '/s', 1));
    row('peer', 'peak RSS', fmtStats(peer.rssMB, 'MB'));
    row(
      'peer: planted schema-detectable frontmatter defects reported',
      'files',
      `${peer.check.found} of ${peer.check.planted}`,
      'all',
      yes(peer.check.found === peer.check.planted),
    );
    row('ratio docgate cold ÷ peer', 'documents/s ÷ documents/s', `${fmt(ratio, 1)}×`, '≥ 40× (SPEC §6)', yes(ratio >= 40));
    row('ratio docgate cold (every SysRS outline checked) ÷ peer', 'documents/s ÷ documents/s', `${fmt(ratio, 1)}×`, '≥ 80× (issue 17)', yes(ratio >= 80));
  } else {
    row('ratio docgate cold ÷ peer', 'documents/s ÷ documents/s', 'n/a (--no-peer)', '≥ 40× (SPEC §6)', 'n/a');
    row('ratio docgate cold (every SysRS outline checked) ÷ peer', 'documents/s ÷ documents/s', 'n/a (--no-peer)', '≥ 80× (issue 17)', 'n/a');
  }

  const header = [
    `docgate bench: N=${fmt(manifest.documents)} documents (${fmt(manifest.counts.process)} processes, ${fmt(manifest.counts.sysrs)} SysRS + ${fmt(manifest.counts.sysrsVariant)} de variants, ${fmt(manifest.counts.template)} templates, ${fmt(manifest.counts.framework)} frameworks; ${manifest.broken.length} planted broken), seed ${SEED}, ${(manifest.bytes / 1e6).toFixed(1)} MB`,
    `machine: ${raw.machine.cpus} cores (${raw.machine.cpuModel}), ${fmt(raw.machine.totalMemMB)} MB RAM, Node ${process.version}; ${RUNS} runs per row (median (min–max)); peak RSS via ${raw.rssMethod}`,
    check?.ok
      ? `docgate reported exactly the ${check.planted} planted broken files.`
      : `WARNING: docgate's failing files differ from the planted ones (${check?.failing} reported, ${check?.planted} planted).`,
  ];
  if (peer) header.push(`peer check: ${peer.check.summary}`);
  const table = [
    '| measurement | value | median (min–max) | target | met? |',
    '|---|---|---|---|---|',
    ...rows.map((r) => `| ${r.measurement} | ${r.value} | ${r.result} | ${r.target} | ${r.met} |`),
  ];
  const growthLines = growth.rows.length ? ['', '', ...growthTable(growth.rows, { seed: SEED, runs: RUNS, cpus: raw.machine.cpus })] : [];
  process.stdout.write(`${header.join('\n')}\n\n${table.join('\n')}\n${growthLines.join('\n')}\n`);
  raw.rows = rows;
  raw.ratio = ratio;
  if (opt.json) writeFileSync(opt.json, `${JSON.stringify(raw, null, 2)}\n`);
} finally {
  cleanup();
}

// ------------------------------------------------------------------------------------------------ MCP

async function measureMcp() {
  const startMs = [];
  const listColdMs = [];
  const listWarmP50 = [];
  const getWarmP50 = [];
  const pingP50 = [];
  const samples = [];
  let total = null;
  for (let i = 0; i < RUNS; i++) {
    let session;
    try {
      session = await mcpSession({ bin: BIN, root: ROOT, cwd: REPO });
      const { client, call } = session;
      startMs.push(session.startMs);
      const { tools } = await client.listTools();
      for (const name of ['list_sysrs', 'get_sysrs']) if (!tools.some((t) => t.name === name)) throw new Error(`tool ${name} is not registered`);
      const first = await call('list_sysrs', { max_results: 100 });
      listColdMs.push(first.ms);
      const page = first.res.structuredContent ?? JSON.parse(first.res.content[0].text);
      total = page.total;
      const warmList = [];
      for (let c = 0; c < CALLS; c++) warmList.push((await call('list_sysrs', { max_results: 100, offset: (c * 100) % Math.max(1, total) })).ms);
      // ids for get_sysrs: spread over the listing (valid rows only)
      const ids = [];
      for (let c = 0; ids.length < CALLS && c < CALLS * 3; c++) {
        const off = Math.floor((c * total) / (CALLS * 3));
        const p = (await call('list_sysrs', { max_results: 1, offset: off })).res;
        const rowsP = (p.structuredContent ?? JSON.parse(p.content[0].text)).results;
        const id = rowsP.find((r) => r.id)?.id;
        if (id && !ids.includes(id)) ids.push(id);
      }
      for (const id of ids) await call('get_sysrs', { id }); // first read of each document
      const warmGet = [];
      for (const id of ids) warmGet.push((await call('get_sysrs', { id })).ms);
      // protocol round trip alone (MCP ping), to tell transport cost from tool cost
      const pings = [];
      for (let c = 0; c < CALLS; c++) {
        const t = performance.now();
        await client.ping();
        pings.push(performance.now() - t);
      }
      pingP50.push(p50(pings));
      listWarmP50.push(p50(warmList));
      getWarmP50.push(p50(warmGet));
      samples.push({ listWarm: warmList, getWarm: warmGet, ping: pings });
      log(
        `bench: MCP run ${i + 1}: start ${Math.round(startMs.at(-1))} ms, list_sysrs cold ${Math.round(first.ms)} ms, warm p50 ${p50(warmList).toFixed(1)} ms, get_sysrs warm p50 ${p50(warmGet).toFixed(1)} ms, ping p50 ${p50(pings).toFixed(1)} ms (${total} SysRS rows)`,
      );
    } catch (e) {
      const reason = mcpFailure(session, e);
      log(`bench: MCP not measured: ${reason}`);
      return { error: reason };
    } finally {
      await session?.close();
    }
  }
  return {
    total,
    startMs: stats(startMs),
    listColdMs: stats(listColdMs),
    listWarmP50: stats(listWarmP50),
    getWarmP50: stats(getWarmP50),
    pingP50: stats(pingP50),
    samples,
  };
}

// ----------------------------------------------------------------------------------------------- peer

/** Draft-07 copy of one of docgate's 2020-12 frontmatter schemas (they use nothing 2020-only but `$schema`). */
function draft07(schemaFile) {
  const s = JSON.parse(readFileSync(join(REPO, 'schemas', schemaFile), 'utf8'));
  s.$schema = 'http://json-schema.org/draft-07/schema#';
  // 2020-12 keywords that draft-07 lacks: none are used by these schemas today; fail loudly if one appears.
  const walk = (x) => {
    if (!x || typeof x !== 'object') return;
    for (const k of ['$defs', 'prefixItems', 'unevaluatedProperties', 'unevaluatedItems', 'dependentRequired', 'dependentSchemas', '$dynamicRef', '$anchor']) {
      if (k in x) {
        if (k === '$defs') {
          x.definitions = x.$defs;
          delete x.$defs;
        } else throw new Error(`${schemaFile}: 2020-12 keyword ${k} has no draft-07 equivalent here`);
      }
    }
    if (typeof x.$ref === 'string') x.$ref = x.$ref.replace('#/$defs/', '#/definitions/');
    for (const v of Object.values(x)) walk(v);
  };
  walk(s);
  return s;
}

async function measurePeer(manifest) {
  const md = manifest.paths.filter((p) => p.endsWith('.md'));
  let subset = md;
  const full = opt['peer-full'] || Number(opt['peer-n']) >= md.length;
  if (!full) {
    const m = Number(opt['peer-n']);
    subset = [];
    for (let i = 0; i < m; i++) subset.push(md[Math.floor((i * md.length) / m)]);
  }
  // Config next to (not inside) the corpus root: docgate must not see draft-07 copies in <root>/schemas.
  mkdirSync(join(TMP, 'peer-schemas'), { recursive: true });
  writeFileSync(join(TMP, 'peer-schemas', 'process.json'), JSON.stringify(draft07('process-frontmatter.schema.json'), null, 2));
  writeFileSync(join(TMP, 'peer-schemas', 'sysrs.json'), JSON.stringify(draft07('sysrs-frontmatter.schema.json'), null, 2));
  const fm = import.meta.resolve('remark-frontmatter');
  const ls = import.meta.resolve('remark-lint-frontmatter-schema');
  writeFileSync(
    join(TMP, '.remarkrc.mjs'),
    `import remarkFrontmatter from '${fm}';\nimport remarkLintFrontmatterSchema from '${ls}';\n` +
      `export default { plugins: [remarkFrontmatter, [remarkLintFrontmatterSchema, { schemas: {\n` +
      `  './peer-schemas/process.json': ['corpus/processes/*.md'],\n` +
      `  './peer-schemas/sysrs.json': ['corpus/docs/sysrs/*.md', 'corpus/docs/sysrs/*/*.md'],\n} }]] };\n`,
  );
  // remark-cli exports no entry point; its bin is cli.js in the package folder.
  const remarkBin = join(REPO, 'node_modules', 'remark-cli', 'cli.js');
  if (!existsSync(remarkBin)) throw new Error('remark-cli is not installed (npm ci installs it as a devDependency)');
  const files = full ? ['corpus/processes', 'corpus/docs/sysrs', 'corpus/frameworks'] : subset.map((p) => `corpus/${p}`);
  const args = [remarkBin, '--quiet', '--no-color', '--no-stdout', ...files];
  log(`bench: peer on ${full ? 'all' : 'a subset of'} ${subset.length} markdown documents, ${PEER_RUNS} runs (each takes a while)`);
  const runs = await repeat(PEER_RUNS, async (i) => {
    const r = await run(NODE, args, { cwd: TMP });
    log(`bench: peer run ${i + 1}: ${Math.round(r.ms)} ms, ${fmt(r.rssMB)} MB, exit ${r.code}`);
    return r;
  });
  // The defect check, on the first run's report: which files got a frontmatter-schema message.
  const reported = new Set();
  let current = null;
  for (const line of runs[0].stderr.split('\n')) {
    if (/^corpus\/\S+\.md$/.test(line.trim()) && !/^\s/.test(line)) current = line.trim().slice('corpus/'.length);
    else if (current && /frontmatter-schema|YAML frontmatter parsing/.test(line)) reported.add(current);
  }
  const inSubset = new Set(subset);
  const plantedAll = manifest.broken.filter((b) => inSubset.has(b.path));
  const detectable = plantedAll.filter((b) => b.peer === true);
  const maybe = plantedAll.filter((b) => b.peer === 'maybe');
  const invisible = plantedAll.filter((b) => b.frontmatter && b.peer === false);
  const found = detectable.filter((b) => reported.has(b.path)).length;
  const foundMaybe = maybe.filter((b) => reported.has(b.path)).length;
  const brokenPaths = new Set(manifest.broken.map((b) => b.path));
  const falsePositives = [...reported].filter((p) => !brokenPaths.has(p));
  const missed = detectable.filter((b) => !reported.has(b.path)).map((b) => `${b.path} (${b.defect})`);
  const summary =
    `on the ${full ? 'full corpus' : `subset of ${subset.length}`}, the peer reported ${found} of the ${detectable.length} planted schema-detectable frontmatter defects` +
    (missed.length ? ` (missed: ${missed.slice(0, 5).join(', ')})` : '') +
    `, plus ${foundMaybe} of ${maybe.length} malformed-YAML files; ${invisible.length} planted frontmatter defects it cannot see by design ` +
    `(${[...new Set(invisible.map((b) => b.defect))].join(', ') || 'none in this subset'}); ${plantedAll.length - detectable.length - maybe.length - invisible.length} body/cross-file defects are outside its scope; ` +
    `${falsePositives.length} files reported that were not planted.`;
  log(`bench: peer check: ${summary}`);
  const wall = stats(runs.map((r) => r.ms));
  return {
    full,
    documents: subset.length,
    wallMs: wall,
    docsPerS: stats(runs.map((r) => (subset.length / r.ms) * 1000)),
    rssMB: stats(runs.map((r) => r.rssMB)),
    cpuMs: runs.every((r) => r.cpuMs !== null) ? stats(runs.map((r) => r.cpuMs)) : null,
    check: { planted: detectable.length, found, maybePlanted: maybe.length, foundMaybe, invisible: invisible.length, falsePositives, missed, summary },
  };
}
