// The write tools at scale (docs/mcp.md, "Validated writes"): `update_document` of one SysRS in a large
// repository, through `docgate mcp --allow-writes`. Each call splices one body line (the last, with
// " (edited)" added, then back), so every call validates the whole new text with the rules across files
// over every SysRS and writes it. The document is restored byte for byte at the end.
//
//   node bench/mcp-writes.mjs --root DIR [--calls N]     (a corpus of bench/corpus.mjs; run it under flock on a shared machine)
//
// `npm run bench` runs `measureMcpWrites` on its corpus and prints the row.
import { readFileSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { fmt, mcpFailure, mcpSession, stats } from './measure.mjs';

/** The q-quantile of some numbers (nearest rank). */
function quantile(xs, q) {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.max(0, Math.ceil(q * s.length) - 1))];
}

/**
 * One warm-up, then `calls` update_document calls of one valid SysRS of `root` (found by list_sysrs); each
 * must answer `written: true`. Returns the latencies, or `{error}` when the server could not be measured.
 */
export async function measureMcpWrites({ bin, root, cwd, calls = 20, log = () => {} }) {
  let session;
  let restore = null;
  try {
    session = await mcpSession({ bin, root, cwd, args: ['--allow-writes'] });
    const { call } = session;
    const page = (await call('list_sysrs', { max_results: 100 })).res.structuredContent;
    const row = page.results.find((r) => r.id !== null && r.error === null);
    if (!row) throw new Error('no valid SysRS in the first 100 rows');
    const file = join(root, row.path);
    const original = readFileSync(file);
    restore = () => writeFileSync(file, original);
    const numbered = (await call('get_sysrs', { id: row.id, raw: true, numbered: true })).res.structuredContent.result.split('\n').slice(0, -1);
    const last = numbered.length;
    const line = numbered[last - 1].slice(`${last}: `.length);
    const ms = [];
    for (let i = 0; i <= calls; i++) {
      const content = i % 2 === 0 ? `${line} (edited)` : line;
      const r = await call('update_document', { kind: 'sysrs', id: row.id, offset: last, limit: 1, content });
      if (r.res.structuredContent?.written !== true) throw new Error(`update_document wrote nothing: ${r.res.content[0].text.slice(0, 300)}`);
      if (i > 0) ms.push(r.ms); // the first call is the warm-up (it also loads the kind)
    }
    const out = { documents: page.total, path: row.path, p50: quantile(ms, 0.5), p95: quantile(ms, 0.95), ms: stats(ms) };
    log(`bench: MCP update_document over ${page.total} SysRS: p50 ${out.p50.toFixed(1)} ms, p95 ${out.p95.toFixed(1)} ms (${calls} calls, ${row.path})`);
    return out;
  } catch (e) {
    const reason = mcpFailure(session, e);
    log(`bench: MCP update_document not measured: ${reason}`);
    return { error: reason };
  } finally {
    await session?.close();
    restore?.();
  }
}

/** The bench table's row of a measurement. */
export function mcpWriteRows(m, documents) {
  const label = `MCP \`update_document\` warm (one SysRS body line, ${fmt(documents)} documents)`;
  if (m.error) return [[label, 'p50 / p95 latency', `n/a (${m.error})`, '≤ 100 ms', 'n/a']];
  return [[label, 'p50 / p95 latency', `${fmt(m.p50, 1)} / ${fmt(m.p95, 1)} ms`, 'p50 ≤ 100 ms', m.p50 <= 100 ? 'yes' : 'NO']];
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const { values: opt } = parseArgs({ options: { root: { type: 'string' }, calls: { type: 'string', default: '20' } } });
  if (!opt.root) {
    process.stderr.write('usage: node bench/mcp-writes.mjs --root DIR [--calls N]\n');
    process.exit(2);
  }
  const repo = resolve(dirname(fileURLToPath(import.meta.url)), '..');
  const m = await measureMcpWrites({
    bin: join(repo, 'bin', 'docgate.js'),
    root: resolve(opt.root),
    cwd: repo,
    calls: Number(opt.calls),
    log: (s) => process.stderr.write(`${s}\n`),
  });
  if (m.error) process.exit(1);
  process.stdout.write(`${JSON.stringify({ documents: m.documents, p50: m.p50, p95: m.p95, samples: m.ms.samples })}\n`);
}
