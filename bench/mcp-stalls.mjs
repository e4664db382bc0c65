// `node bench/mcp-stalls.mjs [--runs R]`: does long tool work block the MCP server? (issue 11, item 11)
//
// Against the BUILT server (`npm run build` first), over the SDK client on a real stdio pipe, each run
// in a fresh server and a fresh temporary root (never the repository):
//   1. five concurrent `parse_sysrs` calls, each with a 2 MiB SysRS body of 349,000 `### x` headings
//      (every heading a finding), and a `ping` sent 100 ms after them: the ping's latency, whether it was
//      answered before the first parse_sysrs, and when the last parse_sysrs was answered;
//   2. a 4,096-character `search_processes` query (`a` × 2,047, `b`, `a` × 2,048: the worst case of both
//      a backtracking RegExp and V8's indexOf) over three 2 MiB processes whose bodies are all `a`, and a
//      `ping` sent 100 ms after it: the search's latency and the ping's.
// A `ping` of an idle server is measured first, for scale. Prints one Markdown table (medians, min–max).

import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';

const REPO = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const BIN = join(REPO, 'bin', 'docgate.js');
const { values: opt } = parseArgs({ options: { runs: { type: 'string', default: '3' } } });
const RUNS = Math.max(1, Number(opt.runs) || 1);
const MIB2 = 2 * 1024 * 1024;

const log = (s) => process.stderr.write(`${s}\n`);
const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
};
const cell = (xs) => (xs.length > 1 ? `${median(xs).toFixed(0)} ms (${Math.min(...xs).toFixed(0)}–${Math.max(...xs).toFixed(0)})` : `${xs[0].toFixed(0)} ms`);

/** A SysRS of exactly 2 MiB: a valid head, then `### x` lines (each an unknown heading). */
function sysrsBody() {
  const head = '---\nid: 7d1f3c2a-9b8e-4f6d-a5c4-3b2a1f0e9d8c\n---\n\n# System Requirements Specification: Stall\n\n';
  const lines = '### x\n'.repeat(Math.floor((MIB2 - head.length) / 6));
  return (head + lines).padEnd(MIB2, '\n');
}

function processText(name) {
  const head = `---\nname: ${name}\ndescription: d\n---\n# ${name}\n\n`;
  return `${head}${'a'.repeat(MIB2 - head.length - 1)}\n`;
}

async function start(root) {
  const transport = new StdioClientTransport({ command: process.execPath, args: [BIN, 'mcp', '--root', root], cwd: REPO, stderr: 'pipe' });
  transport.stderr?.on('data', () => {});
  const client = new Client({ name: 'docgate-bench-stalls', version: '1.0.0' });
  await client.connect(transport);
  return client;
}

/** The ping goes out 100 ms after the long calls, so that their work has begun (a server answers whatever is queued first). */
const pause = () => new Promise((r) => setTimeout(r, 100));

const timed = async (p) => {
  const t = performance.now();
  const value = await p;
  return { value, at: performance.now(), ms: performance.now() - t };
};

const out = { idlePing: [], parsePing: [], pingFirst: 0, parseLast: [], search: [], searchPing: [] };
const body = sysrsBody();
const query = `${'a'.repeat(2047)}b${'a'.repeat(2048)}`;
for (let r = 0; r < RUNS; r++) {
  const root = mkdtempSync(join(tmpdir(), 'docgate-bench-stalls-'));
  try {
    mkdirSync(join(root, 'processes'));
    for (const name of ['one', 'two', 'three']) writeFileSync(join(root, 'processes', `${name}.md`), processText(name));
    const client = await start(root);
    try {
      await client.ping();
      out.idlePing.push((await timed(client.ping())).ms);

      const t0 = performance.now();
      const parses = Array.from({ length: 5 }, () => timed(client.callTool({ name: 'parse_sysrs', arguments: { content: body } })));
      await pause();
      const ping = await timed(client.ping());
      const done = await Promise.all(parses);
      for (const d of done) if (d.value.isError) throw new Error(`parse_sysrs failed: ${d.value.content?.[0]?.text}`);
      out.parsePing.push(ping.ms);
      if (ping.at < Math.min(...done.map((d) => d.at))) out.pingFirst++;
      out.parseLast.push(Math.max(...done.map((d) => d.at)) - t0);

      await client.callTool({ name: 'list_processes', arguments: {} }); // documents read and parsed once
      const t1 = performance.now();
      const search = timed(client.callTool({ name: 'search_processes', arguments: { query } }));
      await pause();
      const ping2 = await timed(client.ping());
      const s = await search;
      if (s.value.isError) throw new Error(`search_processes failed: ${s.value.content?.[0]?.text}`);
      out.search.push(s.at - t1);
      out.searchPing.push(ping2.ms);
      log(
        `bench: run ${r + 1}: idle ping ${out.idlePing.at(-1).toFixed(1)} ms; ping next to 5 parse_sysrs ${out.parsePing.at(-1).toFixed(0)} ms, last parse ${out.parseLast.at(-1).toFixed(0)} ms; search ${out.search.at(-1).toFixed(0)} ms, ping next to it ${out.searchPing.at(-1).toFixed(0)} ms`,
      );
    } finally {
      await client.close().catch(() => {});
    }
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
}

console.log('| measurement | value |');
console.log('|---|---|');
console.log(`| \`ping\`, idle server | ${cell(out.idlePing)} |`);
console.log(`| \`ping\` sent 100 ms after five concurrent 2 MiB \`parse_sysrs\` | ${cell(out.parsePing)} |`);
console.log(`| ping answered before the first \`parse_sysrs\` | ${out.pingFirst} of ${RUNS} runs |`);
console.log(`| last of the five \`parse_sysrs\` answered | ${cell(out.parseLast)} |`);
console.log(`| 4,096-character \`search_processes\` over three 2 MiB processes | ${cell(out.search)} |`);
console.log(`| \`ping\` sent 100 ms after that search | ${cell(out.searchPing)} |`);
