// `node bench/lsp.mjs [--bin PATH] [--docs N] [--changes N] [--cycles N]`: the editor's language server
// (`docgate lsp`, issue 29). Two rows:
// - change → published diagnostics for one open process in a workspace of `--docs` documents
//   (bench/corpus.mjs, default 10,000): p50/p95 over `--changes` edits (default 30; goal p95 ≤ 50 ms),
//   and the server's RSS after them;
// - memory over a long session: `--cycles` (default 10,000) times a document opened, edited and closed
//   (each a path of its own, most never on disk), the RSS after 100 and on the way to the last.
// Spoken to as an editor does: vscode-languageserver-protocol over the child's stdio.
import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import { StreamMessageReader, StreamMessageWriter, createProtocolConnection } from 'vscode-languageserver-protocol/node';
import { generateCorpus } from './corpus.mjs';

const HERE = dirname(fileURLToPath(import.meta.url));
const BIN = join(HERE, '..', 'bin', 'docgate.js');

function rssOf(pid) {
  const m = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
  return m ? Number(m[1]) / 1024 : Number.NaN;
}

function quantile(sorted, q) {
  return sorted[Math.min(sorted.length - 1, Math.ceil(q * sorted.length) - 1)];
}

/** A server for `root` and a client that waits for the diagnostics of a URI's version. */
async function session(bin, root) {
  const child = spawn(process.execPath, ['--expose-gc', bin, 'lsp', '--stdio'], { cwd: root, stdio: ['pipe', 'pipe', 'inherit'] });
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

/** The change → published diagnostics row, over a corpus of `docs` documents. */
export async function measureLspChanges({ bin = BIN, docs = 10000, changes = 30 } = {}) {
  const root = mkdtempSync(join(tmpdir(), 'docgate-lsp-bench-'));
  try {
    generateCorpus({ n: docs, seed: 1, root });
    const s = await session(bin, root);
    const path = 'processes/lsp-bench.md';
    const text = (i) => `---\nname: LSP bench ${i % 2}\ndescription: The edited document.\n---\n# LSP bench\n\nStep ${i}.\n`;
    writeFileSync(join(root, path), text(0));
    const uri = pathToFileURL(join(root, path)).href;
    const coldStart = performance.now();
    const first = s.published(uri, 1);
    void s.connection.sendNotification('textDocument/didOpen', { textDocument: { uri, languageId: 'markdown', version: 1, text: text(0) } });
    await first;
    const coldMs = performance.now() - coldStart;
    const times = [];
    for (let i = 1; i <= changes; i++) {
      const version = i + 1;
      const t = performance.now();
      const p = s.published(uri, version);
      void s.connection.sendNotification('textDocument/didChange', { textDocument: { uri, version }, contentChanges: [{ text: text(i) }] });
      await p;
      times.push(performance.now() - t);
    }
    const rss = rssOf(s.child.pid);
    await s.stop();
    const sorted = [...times].sort((a, b) => a - b);
    return { docs, changes, coldMs, p50: quantile(sorted, 0.5), p95: quantile(sorted, 0.95), rss };
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
      if (i === 100 || i === cycles || i % Math.max(1, Math.floor(cycles / 5)) === 0) points.push({ cycle: i, rss: rssOf(s.child.pid) });
    }
    await s.stop();
    return { cycles, points };
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
}

export function lspRows(changes, cycles) {
  const mb = (n) => `${n.toFixed(0)} MB`;
  const ms = (n) => `${n.toFixed(1)} ms`;
  const rows = [];
  if (changes)
    rows.push(
      `lsp: change → published diagnostics, one open document of ${changes.docs.toLocaleString('en-US')}: p50 ${ms(changes.p50)}, p95 ${ms(changes.p95)} over ${changes.changes} changes (goal p95 ≤ 50 ms; first open ${ms(changes.coldMs)}), RSS after ${mb(changes.rss)}`,
    );
  if (cycles)
    rows.push(
      `lsp: RSS over ${cycles.cycles.toLocaleString('en-US')} open/edit/close cycles: ${cycles.points.map((p) => `${p.cycle}: ${mb(p.rss)}`).join(', ')}`,
    );
  return rows;
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const { values } = parseArgs({ options: { bin: { type: 'string' }, docs: { type: 'string' }, changes: { type: 'string' }, cycles: { type: 'string' } } });
  const bin = values.bin ? resolve(values.bin) : BIN;
  const changes = await measureLspChanges({ bin, docs: Number(values.docs ?? 10000), changes: Number(values.changes ?? 30) });
  const cycles = Number(values.cycles ?? 10000) > 0 ? await measureLspCycles({ bin, cycles: Number(values.cycles ?? 10000) }) : null;
  for (const row of lspRows(changes, cycles)) console.log(row);
}
