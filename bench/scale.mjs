// The rows of issue 17 (Scale, SPEC §13), called by bench/run.mjs:
//   - cold full lint pinned to 1, 2, … cores with `taskset`, interleaved run by run, and the speedup;
//   - the growth table: cold full lint at several corpus sizes (wall, documents/s, peak RSS);
//   - the MCP server listing every kind on a fresh server: the first `list_sysrs`, the first call of each
//     other list tool, the byte size of each default answer, and the server's peak RSS at the end.
import { execFileSync, spawn } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { join } from 'node:path';
import { generateCorpus } from './corpus.mjs';
import { fmt, fmtStats, mcpFailure, stats, yes } from './measure.mjs';

/** Speedup over one core, cold full lint of 10,000 documents: 2 cores (issue 17), 16 cores (SPEC §13). */
export const SPEEDUP_TARGETS = { 2: 1.8, 16: 10 };
/** SPEC §13: peak RSS of a cold full lint, at 100,000 documents. */
export const GROWTH_RSS_MB = 300;
/** SPEC §13 / issue 17: the MCP server on 100,000 documents. */
export const MCP_FIRST_LIST_MS = 5000;
export const MCP_RSS_MB = 500;
export const MCP_ANSWER_BYTES = 1_000_000;

// ------------------------------------------------------------------------------------- pinned cores

/**
 * The CPUs the bench process may run on (its affinity list, as `taskset -pc` prints it: "0-3,6"), or null
 * when taskset is missing.
 */
function allowedCpus() {
  let out;
  try {
    out = execFileSync('taskset', ['-pc', String(process.pid)], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] });
  } catch {
    return null;
  }
  return out
    .slice(out.lastIndexOf(':') + 1)
    .trim()
    .split(',')
    .flatMap((part) => {
      const [a, b = a] = part.split('-').map(Number);
      return Array.from({ length: b - a + 1 }, (_, i) => a + i);
    });
}

/**
 * Which of the core counts can be pinned here: taskset must exist and the bench process must be allowed
 * that many CPUs. Returns { counts, cpus (the allowed CPUs, in order), note (what was skipped and why) }.
 */
export function pinnableCores(wanted) {
  const cpus = allowedCpus();
  if (!cpus) return { counts: [], cpus: [], note: 'skipped: taskset is not installed (util-linux)' };
  const have = Math.min(cpus.length, availableParallelism());
  const counts = wanted.filter((k) => k >= 1 && k <= have);
  const dropped = wanted.filter((k) => !counts.includes(k));
  if (counts.length < 2)
    return { counts: [], cpus, note: `skipped: this machine lets the bench use ${have} core${have === 1 ? '' : 's'}; pinning needs at least 2` };
  return { counts, cpus, note: dropped.length ? `${dropped.join(', ')} cores skipped: only ${have} available` : '' };
}

/**
 * Cold full lint of `root` pinned to each of `counts` cores, interleaved run by run (the order reversed
 * every other round, so that no count always runs first after the previous one warmed the page cache).
 * `lint(prefix, i)` runs `prefix… node docgate lint --root <root> --format json` and resolves measure.run's result.
 */
export async function measureCores({ counts, cpus, runs, lint }) {
  const cpuList = (k) => cpus.slice(0, k).join(',');
  const samples = Object.fromEntries(counts.map((k) => [k, []]));
  for (let i = 0; i < runs; i++) {
    for (const k of i % 2 === 0 ? counts : [...counts].reverse()) {
      const r = await lint(['taskset', '-c', cpuList(k)], i);
      if (r.code === 2) throw new Error(`pinned to ${k} cores, docgate exited 2: ${r.stderr.trim().split('\n')[0]}`);
      samples[k].push(r);
    }
  }
  const byCount = counts.map((k) => ({ cores: k, cpus: cpuList(k), wallMs: stats(samples[k].map((r) => r.ms)), rssMB: stats(samples[k].map((r) => r.rssMB)) }));
  const one = byCount.find((c) => c.cores === 1);
  for (const c of byCount) c.speedup = one ? one.wallMs.median / c.wallMs.median : null;
  return { runs, byCount };
}

/** Rows for run.mjs's table: [measurement, value, result, target, met]. */
export function coreRows(cores, documents, note) {
  if (!cores)
    return [[`cold full \`docgate lint\` pinned to 1 / 2 cores (\`taskset\`)`, 'wall', `n/a (${note})`, `2 cores ≥ ${SPEEDUP_TARGETS[2]}× 1 core`, 'n/a']];
  const rows = [];
  for (const c of cores.byCount) {
    rows.push([
      `cold full \`docgate lint\` (${fmt(documents)} docs) pinned to ${c.cores} core${c.cores === 1 ? '' : 's'} (\`taskset -c ${c.cpus}\`, interleaved)`,
      'wall',
      fmtStats(c.wallMs, 'ms'),
      '',
      '',
    ]);
    rows.push([`cold full \`docgate lint\` pinned to ${c.cores} core${c.cores === 1 ? '' : 's'}`, 'peak RSS', fmtStats(c.rssMB, 'MB'), '', '']);
  }
  for (const c of cores.byCount.filter((x) => x.cores > 1)) {
    const target = SPEEDUP_TARGETS[c.cores] ?? null;
    rows.push([
      `speedup, ${c.cores} cores ÷ 1 core`,
      '1-core wall ÷ wall (medians)',
      `${fmt(c.speedup, 2)}×`,
      target ? `≥ ${target}×` : '',
      target ? yes(c.speedup >= target) : '',
    ]);
  }
  if (note) rows.push(['pinned cores', 'note', note, '', '']);
  return rows;
}

// --------------------------------------------------------------------------------------- corpus dirs

/** The documents of a corpus folder: every file below its kind folders (not the manifest, no dotfiles). */
function listFiles(dir, rel = '') {
  const out = [];
  for (const e of readdirSync(join(dir, rel), { withFileTypes: true })) {
    if (e.name.startsWith('.') || (rel === '' && e.name === 'bench-manifest.json')) continue;
    const p = rel ? `${rel}/${e.name}` : e.name;
    if (e.isDirectory()) out.push(...listFiles(dir, p));
    else if (e.isFile()) out.push(p);
  }
  return out;
}

/** The number of documents of a corpus folder. */
export const corpusSize = (dir) => listFiles(dir).length;

/**
 * A ready corpus folder (--corpus-dir), used as it is and never written to. Its size is its number of
 * files; its manifest (which files are planted broken) is its bench-manifest.json when it has one, else the
 * plan of generateCorpus({ n, seed, write: false }) when that plan names exactly its files with the same
 * total of bytes (the folder is then the generator's output for that seed), else none: the rows are
 * measured without the planted-files check.
 */
export function readyCorpus(dir, seed, log) {
  const files = listFiles(dir);
  const n = files.length;
  const saved = join(dir, 'bench-manifest.json');
  if (existsSync(saved)) {
    const m = JSON.parse(readFileSync(saved, 'utf8'));
    return { n, root: dir, manifest: { ...m, paths: files.sort() }, note: 'manifest: bench-manifest.json' };
  }
  const t0 = performance.now();
  const plan = generateCorpus({ n, seed, write: false });
  const bytes = files.reduce((s, p) => s + statSync(join(dir, p)).size, 0);
  const same = plan.documents === n && plan.bytes === bytes && plan.paths.every((p) => existsSync(join(dir, p)));
  log(
    `bench: --corpus-dir ${dir}: ${n} documents, ${(bytes / 1e6).toFixed(1)} MB; ${same ? `the generator's output for seed ${seed}` : `NOT the generator's output for seed ${seed}: no planted-files check`} (${Math.round(performance.now() - t0)} ms)`,
  );
  if (same) return { n, root: dir, manifest: plan, note: `generated (seed ${seed})` };
  return { n, root: dir, manifest: { documents: n, bytes, paths: files, broken: null }, note: 'unknown corpus: no planted-files check' };
}

// --------------------------------------------------------------------------------------------- growth

/** Rows of the growth table (one per size), from measured cold runs of a corpus. */
export function growthRow(n, manifest, runs, check) {
  const wall = stats(runs.map((r) => r.ms));
  const rss = stats(runs.map((r) => r.rssMB));
  return {
    n,
    documents: manifest.documents,
    mb: manifest.bytes / 1e6,
    wall,
    docsPerS: (manifest.documents / wall.median) * 1000,
    msPer1k: (wall.median / manifest.documents) * 1000,
    rss,
    check,
  };
}

export function growthTable(rows, { seed, runs, cpus }) {
  const checked = (c) => (!c ? 'n/a' : c.ok ? 'yes' : `NO (${c.failing} reported, ${c.planted} planted)`);
  return [
    `Cold full \`docgate lint\` by corpus size (seed ${seed}, ${runs} runs each, median (min–max); ${cpus} cores, Node ${process.version}); SPEC §13: peak RSS ≤ ${GROWTH_RSS_MB} MB at 100,000 documents`,
    '',
    '| N documents | corpus MB | wall ms | documents/s | ms per 1,000 documents | peak RSS MB | ≤ 300 MB? | exactly the planted files reported? |',
    '|---:|---:|---:|---:|---:|---:|---|---|',
    ...rows.map(
      (r) =>
        `| ${fmt(r.n)} | ${fmt(r.mb, 1)} | ${fmtStats(r.wall, '')} | ${fmt(r.docsPerS)} | ${fmt(r.msPer1k)} | ${fmtStats(r.rss, '')} | ${yes(r.rss.median <= GROWTH_RSS_MB)}${r.n === 100000 ? ' (target)' : ''} | ${checked(r.check)} |`,
    ),
  ];
}

// ------------------------------------------------------------------------------------------------ MCP

/** Peak resident set size of a running process (VmHWM), in MB; null where /proc cannot tell. */
function peakRssMB(pid) {
  try {
    const m = /VmHWM:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    return m ? Number(m[1]) / 1024 : null;
  } catch {
    return null;
  }
}

const LIST_TOOLS = ['list_sysrs', 'list_processes', 'list_templates', 'list_frameworks'];
/** The SDK's stdio client drops the connection on a message above this (its ReadBuffer limit). */
const SDK_READ_LIMIT = 10 * 1024 * 1024;

/**
 * A fresh `docgate mcp --root <root>` spoken to in plain JSON-RPC over stdio, one message a line, with no
 * limit on a message's size: the SDK client closes the connection on an answer above 10 MiB, and such an
 * answer is what these rows must be able to measure. Resolves { pid, request(method, params) → { msg,
 * bytes, ms }, notify(method), stderr(), close() }.
 */
async function rawMcpSession({ bin, root, cwd }) {
  const child = spawn(process.execPath, [bin, 'mcp', '--root', root], { cwd, stdio: ['pipe', 'pipe', 'pipe'] });
  let stderr = '';
  child.stderr.on('data', (d) => (stderr += d));
  const pending = new Map();
  let parts = [];
  const onLine = (line) => {
    const msg = JSON.parse(line.toString('utf8'));
    const p = pending.get(msg.id);
    if (!p) return; // a notification or a request of the server's
    pending.delete(msg.id);
    p.resolve({ msg, bytes: line.length, ms: performance.now() - p.t0 });
  };
  child.stdout.on('data', (chunk) => {
    // Scans only the new chunk for the line end: an answer of many megabytes arrives in hundreds of chunks.
    let start = 0;
    for (let i = chunk.indexOf(10); i !== -1; i = chunk.indexOf(10, start)) {
      parts.push(chunk.subarray(start, i));
      onLine(Buffer.concat(parts));
      parts = [];
      start = i + 1;
    }
    if (start < chunk.length) parts.push(chunk.subarray(start));
  });
  const gone = new Promise((resolve) => child.on('exit', (code, signal) => resolve(signal ?? code)));
  gone.then((how) => {
    for (const p of pending.values()) p.reject(new Error(`the server exited (${how}) before answering`));
    pending.clear();
  });
  let nextId = 0;
  const request = (method, params) =>
    new Promise((resolve, reject) => {
      const id = ++nextId;
      pending.set(id, { resolve, reject, t0: performance.now() });
      child.stdin.write(`${JSON.stringify({ jsonrpc: '2.0', id, method, params })}\n`);
    });
  const notify = (method) => child.stdin.write(`${JSON.stringify({ jsonrpc: '2.0', method })}\n`);
  const close = async () => {
    child.stdin.end();
    if (child.exitCode === null && child.signalCode === null) child.kill();
    await gone;
  };
  try {
    await request('initialize', { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'docgate-bench', version: '1.0.0' } });
    notify('notifications/initialized');
  } catch (e) {
    await close();
    throw e;
  }
  return { pid: child.pid, request, stderr: () => stderr, close };
}

/**
 * One fresh server on `root`: `list_sysrs` first (the cold load), then each other list tool, then
 * `list_documents` for every kind the server has that no list tool of its own covers (a kind the
 * root's configuration declares), all with default arguments; each answer's size is its JSON-RPC message
 * as it crosses the wire, in bytes. Then the server's VmHWM.
 */
export async function measureMcpLists({ bin, root, cwd, runs, log }) {
  const sessions = [];
  for (let i = 0; i < runs; i++) {
    let s;
    try {
      s = await rawMcpSession({ bin, root, cwd });
      const tool = async (name, args) => {
        const answer = await s.request('tools/call', { name, arguments: args });
        const { error, result } = answer.msg;
        if (error || result.isError) throw new Error(`${name} ${JSON.stringify(args)}: ${error?.message ?? result.content?.[0]?.text}`);
        return { ...answer, result };
      };
      const names = new Set((await s.request('tools/list', {})).msg.result.tools.map((t) => t.name));
      const calls = [];
      const listed = async (name, args) => {
        const { ms, bytes, result } = await tool(name, args);
        const page = result.structuredContent ?? JSON.parse(result.content[0].text);
        // Rows answered: every top-level array of the answer (its rows, and failures where a tool lists them apart).
        const rows = Object.values(page).reduce((n, v) => n + (Array.isArray(v) ? v.length : 0), 0);
        calls.push({ tool: name, args, ms, bytes, rows, total: page.total ?? null, truncated: page.truncated ?? null });
      };
      for (const name of LIST_TOOLS) if (names.has(name)) await listed(name, {});
      if (names.has('list_documents')) {
        // The kinds of the root: list_documents answers an unknown kind with the list of them.
        const probe = (await s.request('tools/call', { name: 'list_documents', arguments: { kind: '?' } })).msg.result;
        const kinds = /expected one of ([^.]+)\./.exec(probe?.content?.[0]?.text ?? '')?.[1].split(', ') ?? [];
        const own = { sysrs: 'list_sysrs', process: 'list_processes', template: 'list_templates', framework: 'list_frameworks' };
        for (const kind of kinds.filter((k) => !names.has(own[k]))) await listed('list_documents', { kind });
      }
      const rssMB = peakRssMB(s.pid);
      sessions.push({ calls, rssMB });
      log(
        `bench: MCP lists run ${i + 1}: ${calls.map((c) => `${c.tool}${c.args.kind ? `(${c.args.kind})` : ''} ${Math.round(c.ms)} ms ${fmt(c.bytes)} B`).join(', ')}; server peak RSS ${fmt(rssMB)} MB`,
      );
    } catch (e) {
      const reason = mcpFailure(s, e);
      log(`bench: MCP lists not measured: ${reason}`);
      return { error: reason };
    } finally {
      await s?.close();
    }
  }
  const key = (c) => `${c.tool}${c.args.kind ? ` { kind: ${c.args.kind} }` : ''}`;
  const tools = sessions[0].calls.map((c, j) => ({
    key: key(c),
    ms: stats(sessions.map((x) => x.calls[j].ms)),
    bytes: Math.max(...sessions.map((x) => x.calls[j].bytes)),
    rows: c.rows,
    total: c.total,
    truncated: c.truncated,
  }));
  const rss = sessions.every((x) => x.rssMB !== null) ? stats(sessions.map((x) => x.rssMB)) : null;
  return { tools, rssMB: rss, sessions };
}

/** Rows for run.mjs's table from measureMcpLists on a corpus of `documents` documents. */
export function mcpListRows(m, documents) {
  const at = `${fmt(documents)} docs`;
  if (m.error) return [[`MCP lists of every kind (${at})`, 'first `list_sysrs`', `n/a (${m.error})`, `≤ ${fmt(MCP_FIRST_LIST_MS)} ms at 100,000 docs`, 'n/a']];
  const rows = [];
  const [first, ...rest] = m.tools;
  const limitNote = documents === 100000 ? '' : ' (target at 100,000 docs)';
  if (first?.key === 'list_sysrs')
    rows.push([
      `MCP first \`list_sysrs\` (fresh server, default arguments, ${at})`,
      'latency',
      fmtStats(first.ms, 'ms'),
      `≤ ${fmt(MCP_FIRST_LIST_MS)} ms${limitNote}`,
      yes(first.ms.median <= MCP_FIRST_LIST_MS),
    ]);
  for (const t of rest) rows.push([`MCP first \`${t.key}\` after it (default arguments, ${at})`, 'latency', fmtStats(t.ms, 'ms'), '', '']);
  for (const t of m.tools) {
    const shape = t.total === null ? ` (${fmt(t.rows)} rows, no total)` : ` (${fmt(t.rows)} of ${fmt(t.total)} rows${t.truncated ? ', truncated' : ''})`;
    const unreadable = t.bytes > SDK_READ_LIMIT ? '; above the 10 MiB an SDK stdio client reads' : '';
    rows.push([
      `MCP \`${t.key}\` default answer, JSON-RPC message (${at})`,
      'bytes',
      `${fmt(t.bytes)} B${shape}${unreadable}`,
      '≤ 1 MB',
      yes(t.bytes <= MCP_ANSWER_BYTES),
    ]);
  }
  rows.push([
    `MCP server after listing every kind (${at})`,
    'peak RSS (VmHWM)',
    m.rssMB ? fmtStats(m.rssMB, 'MB') : 'n/a (no /proc)',
    `≤ ${MCP_RSS_MB} MB${limitNote}`,
    m.rssMB ? yes(m.rssMB.median <= MCP_RSS_MB) : 'n/a',
  ]);
  return rows;
}
