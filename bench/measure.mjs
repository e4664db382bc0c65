// Measuring helpers shared by the bench scripts (run.mjs, compare.mjs).
import { spawn } from 'node:child_process';
import { existsSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';

export const GNU_TIME = existsSync('/usr/bin/time') ? '/usr/bin/time' : null;

export const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
};
export const p50 = median;
export const stats = (xs) => ({ median: median(xs), min: Math.min(...xs), max: Math.max(...xs), samples: xs });
export const fmt = (x, d = 0) =>
  x === undefined || x === null || Number.isNaN(x) ? 'n/a' : x.toLocaleString('en-US', { minimumFractionDigits: d, maximumFractionDigits: d });
/** A table's "met?" cell. */
export const yes = (b) => (b === null || b === undefined ? 'n/a' : b ? 'yes' : 'NO');
export const fmtStats = (s, unit, d = 0) => {
  const u = unit.startsWith('/') || unit === '' ? unit : ` ${unit}`;
  return s.samples.length > 1 ? `${fmt(s.median, d)}${u} (${fmt(s.min, d)}–${fmt(s.max, d)})` : `${fmt(s.median, d)}${u}`;
};

/** Runs `fn` `times` times (sequentially), returning the array of results. */
export async function repeat(times, fn) {
  const out = [];
  for (let i = 0; i < times; i++) out.push(await fn(i));
  return out;
}

/**
 * Runs a command as a child process, measuring wall time (spawn to exit) and, where possible, the
 * child's peak resident set size (GNU time's %M, else VmHWM polled from /proc). `tmp` is a folder for
 * GNU time's output. Resolves { ms, rssMB, cpuMs (user + system CPU of the child, with GNU time; else null), code,
 * stdout, stderr }.
 */
export function run(cmd, args, { cwd, tmp, env = process.env, capture = true }) {
  return new Promise((resolveRun, reject) => {
    const rssFile = join(tmp, `rss-${process.pid}-${Math.random().toString(36).slice(2)}.txt`);
    const [c, a] = GNU_TIME ? [GNU_TIME, ['-f', '%M %U %S', '-o', rssFile, cmd, ...args]] : [cmd, args];
    const t0 = process.hrtime.bigint();
    const child = spawn(c, a, { cwd, env, stdio: ['ignore', capture ? 'pipe' : 'ignore', 'pipe'] });
    const out = [];
    const err = [];
    child.stdout?.on('data', (d) => out.push(d));
    child.stderr.on('data', (d) => err.push(d));
    let hwm = 0;
    let poll;
    if (!GNU_TIME) {
      const read = () => {
        try {
          const m = /VmHWM:\s+(\d+) kB/.exec(readFileSync(`/proc/${child.pid}/status`, 'utf8'));
          if (m) hwm = Math.max(hwm, Number(m[1]));
        } catch {
          /* exited */
        }
      };
      poll = setInterval(read, 10);
    }
    child.on('error', reject);
    child.on('close', (code) => {
      const ms = Number(process.hrtime.bigint() - t0) / 1e6;
      if (poll) clearInterval(poll);
      let rssKB = hwm || null;
      let cpuMs = null;
      const stderr = Buffer.concat(err).toString('utf8');
      if (GNU_TIME) {
        try {
          const lines = readFileSync(rssFile, 'utf8').trim().split('\n');
          const [rss, user, sys] = lines[lines.length - 1].split(' ').map(Number);
          rssKB = rss;
          cpuMs = (user + sys) * 1000;
          rmSync(rssFile, { force: true });
        } catch {
          rssKB = null;
        }
      }
      resolveRun({ ms, rssMB: rssKB ? rssKB / 1024 : null, cpuMs, code, stdout: Buffer.concat(out).toString('utf8'), stderr });
    });
  });
}

/** MCP calls may take minutes on a large corpus (the SDK's default request timeout is 60 s). */
const MCP_TIMEOUT_MS = 30 * 60_000;

/**
 * A fresh `docgate mcp --root <root>` server (the `bin` of a build) with an SDK client connected over
 * stdio. Resolves { client, pid, startMs (spawn + initialize), call(name, args) → { ms, res } (throws on
 * an isError answer), stderr() (what the server printed so far), close() }.
 */
export async function mcpSession({ bin, root, cwd, args = [] }) {
  const { Client } = await import('@modelcontextprotocol/sdk/client/index.js');
  const { StdioClientTransport } = await import('@modelcontextprotocol/sdk/client/stdio.js');
  const transport = new StdioClientTransport({ command: process.execPath, args: [bin, 'mcp', '--root', root, ...args], cwd, stderr: 'pipe' });
  let stderr = '';
  transport.stderr?.on('data', (d) => (stderr += d));
  const client = new Client({ name: 'docgate-bench', version: '1.0.0' });
  const t0 = performance.now();
  await client.connect(transport);
  const startMs = performance.now() - t0;
  const call = async (name, args) => {
    const t = performance.now();
    const res = await client.callTool({ name, arguments: args }, undefined, { timeout: MCP_TIMEOUT_MS });
    const ms = performance.now() - t;
    if (res.isError) throw new Error(`${name} ${JSON.stringify(args)} -> isError: ${res.content?.[0]?.text}`);
    return { ms, res };
  };
  return { client, pid: transport.pid, startMs, call, stderr: () => stderr, close: () => client.close().catch(() => {}) };
}

/**
 * Why an MCP session failed, fit for a table cell: the error, and the server's last stderr line when it
 * printed more than its banner (what it said before it died).
 */
export function mcpFailure(session, e) {
  const said = (session?.stderr() ?? '').trim().split('\n').filter(Boolean);
  const why = [e?.message ?? String(e), ...(said.length > 1 ? [`server: ${said.at(-1)}`] : [])].join('; ');
  return why.replace(/\|/g, '/').replace(/\s+/g, ' ').slice(0, 500);
}
