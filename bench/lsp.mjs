// `node bench/lsp.mjs [--bin PATH] [--docs N] [--changes N] [--runs R] [--cycles N]`: the editor's
// language server (`docgate lsp`, issue 29; `npm run bench` runs it too). Two rows:
// - change → published diagnostics for one open process in a workspace of `--docs` documents
//   (bench/corpus.mjs, default 10,000): p50/p95 over `--changes` edits (default 30; goal p95 ≤ 50 ms),
//   and the server's RSS after them, for each of `--runs` fresh servers (default 3; the median is shown);
// - memory over a long session: `--cycles` (default 10,000; 0: skip) times a document opened, edited and
//   closed (each a path of its own, most never on disk), the RSS after 100 and on the way to the last.
// Spoken to as an editor does: vscode-languageserver-protocol over the child's stdio, the server started
// as an editor starts it (`docgate lsp --stdio`, no node flags).
import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import { StreamMessageReader, StreamMessageWriter, createProtocolConnection } from 'vscode-languageserver-protocol/node';
import { generateCorpus } from './corpus.mjs';
import { fmtStats, stats } from './measure.mjs';

const HERE = dirname(fileURLToPath(import.meta.url));
const BIN = join(HERE, '..', 'bin', 'docgate.js');

function rssOf(pid) {
  const m = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
  return m ? Number(m[1]) / 1024 : Number.NaN;
}

/**
 * The CPU time a process has run, in ms, summed over its threads (Linux `/proc/<pid>/task/<tid>/schedstat`,
 * nanoseconds on a core): what a change costs the server whatever else the machine runs, since its wall
 * time also holds its waits for a core.
 */
function cpuOf(pid) {
  let ns = 0;
  for (const tid of readdirSync(`/proc/${pid}/task`)) {
    try {
      ns += Number(readFileSync(`/proc/${pid}/task/${tid}/schedstat`, 'utf8').split(' ')[0]);
    } catch {
      // a thread gone meanwhile
    }
  }
  return ns / 1e6;
}

function quantile(sorted, q) {
  return sorted[Math.min(sorted.length - 1, Math.ceil(q * sorted.length) - 1)];
}

/** A server for `root` and a client that waits for the diagnostics of a URI's version. */
async function session(bin, root) {
  const child = spawn(process.execPath, [bin, 'lsp', '--stdio'], { cwd: root, stdio: ['pipe', 'pipe', 'inherit'] });
  const connection = createProtocolConnection(new StreamMessageReader(child.stdout), new StreamMessageWriter(child.stdin));
  const waiting = new Map();
  connection.onNotification('textDocument/publishDiagnostics', (p) => {
    const w = waiting.get(p.uri);
    if (w && (w.version === undefined || p.version === w.version)) {
      waiting.delete(p.uri);
      w.resolve(p);
    }
  });
  connection.onRequest('client/registerCapability', () => null);
  connection.listen();
  await connection.sendRequest('initialize', { processId: process.pid, rootUri: pathToFileURL(root).href, capabilities: {} });
  void connection.sendNotification('initialized', {});
  const published = (uri, version) => new Promise((res) => waiting.set(uri, { version, resolve: res }));
  const stop = async () => {
    await connection.sendRequest('shutdown');
    void connection.sendNotification('exit');
    await new Promise((r) => child.once('exit', r));
    connection.dispose();
  };
  return { child, connection, published, stop };
}

/** How long the bench waits after the first open before the first change. */
const READ_MS = 1500;

/** p50 and p95 of a series of wall times and of the server's CPU times. */
function series(times, cpu) {
  const sorted = [...times].sort((a, b) => a - b);
  const cpuSorted = [...cpu].sort((a, b) => a - b);
  return { p50: quantile(sorted, 0.5), p95: quantile(sorted, 0.95), cpu50: quantile(cpuSorted, 0.5), cpu95: quantile(cpuSorted, 0.95) };
}

/**
 * One server's changes → published diagnostics over a corpus at `root`: the first `changes` after the
 * first open (V8 still compiling the code they run), then as many again (warm); the first open; the RSS after.
 */
async function changesOnce(bin, root, changes) {
  const s = await session(bin, root);
  const path = 'processes/lsp-bench.md';
  const text = (i) => `---\nname: LSP bench ${i}\ndescription: The edited document.\n---\n# LSP bench\n\nStep ${i}.\n`;
  writeFileSync(join(root, path), text(0));
  const uri = pathToFileURL(join(root, path)).href;
  const coldStart = performance.now();
  const first = s.published(uri, 1);
  void s.connection.sendNotification('textDocument/didOpen', { textDocument: { uri, languageId: 'markdown', version: 1, text: text(0) } });
  await first;
  const coldMs = performance.now() - coldStart;
  // Someone reads the document before typing: the server is quiet a moment after its first open.
  await new Promise((r) => setTimeout(r, READ_MS));
  const times = [];
  const cpu = [];
  for (let i = 1; i <= 2 * changes; i++) {
    const version = i + 1;
    const c = cpuOf(s.child.pid);
    const t = performance.now();
    const p = s.published(uri, version);
    void s.connection.sendNotification('textDocument/didChange', { textDocument: { uri, version }, contentChanges: [{ text: text(i) }] });
    await p;
    times.push(performance.now() - t);
    cpu.push(cpuOf(s.child.pid) - c);
  }
  const rss = rssOf(s.child.pid);
  await s.stop();
  return { coldMs, rss, first: series(times.slice(0, changes), cpu.slice(0, changes)), warm: series(times.slice(changes), cpu.slice(changes)) };
}

/** The change → published diagnostics row over a corpus of `docs` documents: `runs` fresh servers, each its p50/p95. */
export async function measureLspChanges({ bin = BIN, docs = 10000, changes = 30, runs = 3, log = () => {} } = {}) {
  const root = mkdtempSync(join(tmpdir(), 'docgate-lsp-bench-'));
  try {
    generateCorpus({ n: docs, seed: 1, root });
    const each = [];
    for (let i = 0; i < runs; i++) {
      const r = await changesOnce(bin, root, changes);
      const line = (x) => `p50 ${x.p50.toFixed(1)} ms, p95 ${x.p95.toFixed(1)} ms (server CPU p50 ${x.cpu50.toFixed(1)} ms, p95 ${x.cpu95.toFixed(1)} ms)`;
      log(
        `bench: lsp run ${i + 1}: first ${changes} changes ${line(r.first)}; next ${changes} ${line(r.warm)}; first open ${Math.round(r.coldMs)} ms, RSS ${r.rss.toFixed(0)} MB`,
      );
      each.push(r);
    }
    const of = (k, part) => stats(each.map((r) => (part ? r[part][k] : r[k])));
    const part = (name) => ({ p50: of('p50', name), p95: of('p95', name), cpu50: of('cpu50', name), cpu95: of('cpu95', name) });
    return { docs, changes, runs, first: part('first'), warm: part('warm'), coldMs: of('coldMs'), rss: of('rss') };
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
}

/** The long-session row: `cycles` documents opened, edited and closed, the RSS on the way. */
export async function measureLspCycles({ bin = BIN, cycles = 10000 } = {}) {
  const root = mkdtempSync(join(tmpdir(), 'docgate-lsp-cycles-'));
  try {
    mkdirSync(join(root, 'processes'));
    for (let i = 0; i < 50; i++) writeFileSync(join(root, 'processes', `p-${i}.md`), `---\nname: P ${i}\n---\n# P ${i}\n\nStep.\n`);
    const s = await session(bin, root);
    const points = [];
    for (let i = 1; i <= cycles; i++) {
      const uri = pathToFileURL(join(root, 'processes', `open-${i}.md`)).href;
      const text = `---\nname: Open ${i}\n---\n# Open ${i}\n\n${'Words. '.repeat(50)}\n`;
      const opened = s.published(uri, 2);
      void s.connection.sendNotification('textDocument/didOpen', { textDocument: { uri, languageId: 'markdown', version: 1, text } });
      void s.connection.sendNotification('textDocument/didChange', { textDocument: { uri, version: 2 }, contentChanges: [{ text: `${text}More.\n` }] });
      await opened;
      const closed = s.published(uri);
      void s.connection.sendNotification('textDocument/didClose', { textDocument: { uri } });
      await closed;
      if (i === 100 || i === 2000 || i === cycles || i % Math.max(1, Math.floor(cycles / 5)) === 0) points.push({ cycle: i, rss: rssOf(s.child.pid) });
    }
    await s.stop();
    return { cycles, points };
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
}

/** How much the RSS may exceed, after the 2,000th cycle (the server warmed up), what it was then, and still be flat. */
const FLAT_MB = 5;

/** The rows of `npm run bench` (measurement, value, result, target, met), as bench/run.mjs prints them. */
export function lspRows(changes, cycles) {
  const rows = [];
  if (changes) {
    const docs = changes.docs.toLocaleString('en-US');
    for (const [which, x] of [
      [`the first ${changes.changes} after it opens`, changes.first],
      [`the next ${changes.changes}`, changes.warm],
    ]) {
      const what = `\`docgate lsp\`: change → published diagnostics, 1 open document of ${docs}, ${which} (${changes.runs} server${changes.runs === 1 ? '' : 's'})`;
      rows.push([what, 'p50 latency', fmtStats(x.p50, 'ms', 1), '', '']);
      rows.push([what, 'p95 latency', fmtStats(x.p95, 'ms', 1), '≤ 50 ms (median of the servers)', x.p95.median <= 50 ? 'yes' : 'NO']);
      rows.push([what, 'server CPU per change, p50 / p95', `${fmtStats(x.cpu50, 'ms', 1)} / ${fmtStats(x.cpu95, 'ms', 1)}`, '', '']);
    }
    rows.push(['`docgate lsp`: first open of that document (cold)', 'latency', fmtStats(changes.coldMs, 'ms'), '', '']);
    rows.push(['`docgate lsp`: server after those changes', 'RSS', fmtStats(changes.rss, 'MB'), '', '']);
  }
  if (cycles) {
    const warm = cycles.points.find((p) => p.cycle === 2000) ?? cycles.points[0];
    const after = cycles.points.filter((p) => p.cycle > warm.cycle);
    const most = Math.max(...after.map((p) => p.rss));
    const last = cycles.points.at(-1).rss;
    const way = cycles.points.map((p) => `${p.cycle}: ${p.rss.toFixed(0)}`).join(', ');
    rows.push([
      `\`docgate lsp\`: ${cycles.cycles.toLocaleString('en-US')} open/edit/close cycles (on the way, MB: ${way})`,
      'RSS',
      `${last.toFixed(0)} MB; the most after ${warm.cycle.toLocaleString('en-US')}: ${most.toFixed(0)} MB (${most - warm.rss >= 0 ? '+' : ''}${(most - warm.rss).toFixed(1)} MB)`,
      `flat: ≤ +${FLAT_MB} MB over the RSS at ${warm.cycle.toLocaleString('en-US')}`,
      most - warm.rss <= FLAT_MB ? 'yes' : 'NO',
    ]);
  }
  return rows;
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const { values } = parseArgs({
    options: { bin: { type: 'string' }, docs: { type: 'string' }, changes: { type: 'string' }, runs: { type: 'string' }, cycles: { type: 'string' } },
  });
  const bin = values.bin ? resolve(values.bin) : BIN;
  const log = (line) => process.stderr.write(`${line}\n`);
  const changes = await measureLspChanges({
    bin,
    docs: Number(values.docs ?? 10000),
    changes: Number(values.changes ?? 30),
    runs: Math.max(1, Number(values.runs ?? 3)),
    log,
  });
  const cycles = Number(values.cycles ?? 10000) > 0 ? await measureLspCycles({ bin, cycles: Number(values.cycles ?? 10000) }) : null;
  for (const row of lspRows(changes, cycles)) process.stdout.write(`| ${row.join(' | ')} |\n`);
}
