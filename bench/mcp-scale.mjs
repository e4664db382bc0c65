// `node bench/mcp-scale.mjs --root DIR`: the MCP server at scale (SPEC §13, issue 17). Starts
// `docgate mcp --root DIR`, then calls, in order: list_sysrs (the cold load), list_processes,
// list_templates, list_frameworks, list_documents {kind: process}, search_processes, then list_sysrs and
// get_sysrs again (warm). Prints each call's wall time and answer size (text plus structuredContent, as
// JSON), and the server's peak RSS (VmHWM of its process: the main thread and every worker thread).
// Run it under `flock /tmp/cpu.lock` on a shared machine.
import { readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';

const REPO = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const { values: opt } = parseArgs({ options: { root: { type: 'string' }, calls: { type: 'string', default: '20' } } });
if (!opt.root) {
  process.stderr.write('usage: node bench/mcp-scale.mjs --root DIR [--calls N]\n');
  process.exit(2);
}
const CALLS = Number(opt.calls);
const transport = new StdioClientTransport({
  command: process.execPath,
  args: [join(REPO, 'bin', 'docgate.js'), 'mcp', '--root', resolve(opt.root)],
  cwd: REPO,
  stderr: 'pipe',
});
transport.stderr?.on('data', (d) => process.env.MCP_SCALE_STDERR && process.stderr.write(d));
const client = new Client({ name: 'docgate-mcp-scale', version: '1.0.0' });
await client.connect(transport);
const pid = transport.pid;
const rss = () => {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const kb = (k) => Number(new RegExp(`${k}:\\s+(\\d+)`).exec(status)?.[1] ?? NaN);
  return { now: Math.round(kb('VmRSS') / 1024), peak: Math.round(kb('VmHWM') / 1024) };
};
const rows = [];
async function call(name, args = {}, label = name) {
  const t = performance.now();
  const res = await client.callTool({ name, arguments: args });
  const ms = performance.now() - t;
  const bytes = Buffer.byteLength(res.content?.[0]?.text ?? '') + (res.structuredContent ? Buffer.byteLength(JSON.stringify(res.structuredContent)) : 0);
  const r = rss();
  rows.push({ label, ms: Math.round(ms), bytes, rss: r.now, peak: r.peak, isError: res.isError === true });
  process.stderr.write(`${label}: ${Math.round(ms)} ms, ${bytes} bytes, RSS ${r.now} MB (peak ${r.peak} MB)\n`);
  return res;
}
const first = await call('list_sysrs', {}, 'list_sysrs (cold)');
await call('list_processes');
await call('list_templates');
await call('list_frameworks');
await call('list_documents', { kind: 'process' }, 'list_documents process');
await call('search_processes', { query: 'review' });
const warm = [];
for (let i = 0; i < CALLS; i++) {
  const t = performance.now();
  await client.callTool({ name: 'list_sysrs', arguments: { max_results: 100, offset: i * 100 } });
  warm.push(performance.now() - t);
}
const id = first.structuredContent.results.find((r) => r.id)?.id;
const gets = [];
for (let i = 0; i < CALLS; i++) {
  const t = performance.now();
  await client.callTool({ name: 'get_sysrs', arguments: { id } });
  gets.push(performance.now() - t);
}
const p50 = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)].toFixed(1);
const end = rss();
await client.close();
console.log('| call | wall ms | answer bytes | RSS MB | peak RSS MB |\n| --- | ---: | ---: | ---: | ---: |');
for (const r of rows) console.log(`| ${r.label}${r.isError ? ' (isError)' : ''} | ${r.ms} | ${r.bytes} | ${r.rss} | ${r.peak} |`);
console.log(`| list_sysrs warm p50 (${CALLS} calls, max_results 100) | ${p50(warm)} | | | |`);
console.log(`| get_sysrs warm p50 (${CALLS} calls) | ${p50(gets)} | | ${end.now} | ${end.peak} |`);
