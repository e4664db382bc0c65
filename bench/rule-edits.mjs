// `node bench/rule-edits.mjs [--bin PATH] [--edits N] [--docs N] [--slack MB]`: the memory of a long-lived
// MCP server whose rule file is edited again and again (issue 26; `npm run bench` runs it too). A root of
// `--docs` processes with a schema of its own that extends docgate's; the schema is rewritten `--edits`
// times (each a new text: a new project, new compiled validators, new rule data), each edit followed by a
// list_processes call, which loads the project again and analyzes every process under it. Prints the
// server's RSS (Linux: /proc/<pid>/status, read once the server is idle: see rssOf) after 10 edits, at a few points on the way and after the last,
// and exits 1 when the last is larger than the one after 10 by more than `--slack` MB.
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';

const HERE = dirname(fileURLToPath(import.meta.url));
const BIN = join(HERE, '..', 'bin', 'docgate.js');
/** Where the RSS is read on the way, besides after 10 and after the last edit. */
const POINTS = [100, 300, 1000, 2000, 3000, 5000, 10000];

const schema = (n) =>
  `${JSON.stringify(
    {
      $ref: 'https://docgate.dev/schemas/process-frontmatter.schema.json',
      properties: { owner: { type: 'string', pattern: `^team-[0-9]+$`, description: `the owning team (edit ${n})` } },
      unevaluatedProperties: false,
    },
    null,
    2,
  )}\n`;

/** The resident set of a process, in MB, and its number of threads. */
function statusOf(pid) {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const rss = /VmRSS:\s+(\d+) kB/.exec(status);
  const threads = /Threads:\s+(\d+)/.exec(status);
  return { rssMB: rss ? Number(rss[1]) / 1024 : Number.NaN, threads: threads ? Number(threads[1]) : 0 };
}

/**
 * The resident set of an idle server, in MB: read once its number of threads has not changed for 250 ms
 * (3 s at most). A server whose rule file changed ends the repository thread of the old project and
 * starts one for the new (src/mcp/workers.ts); read while one isolate is torn down and the next boots,
 * the size is of neither.
 */
async function rssOf(pid) {
  let last = statusOf(pid);
  for (let waited = 0, same = 0; same < 5 && waited < 3000; waited += 50) {
    await new Promise((r) => setTimeout(r, 50));
    const now = statusOf(pid);
    same = now.threads === last.threads ? same + 1 : 0;
    last = now;
  }
  return last.rssMB;
}

/**
 * Edits the rule file of a fresh root `edits` times through one server; returns the RSS in MB after 10
 * edits, after the last, and at the POINTS on the way.
 */
export async function measureRuleEdits({ bin = BIN, edits = 1000, docs = 50 } = {}) {
  const root = mkdtempSync(join(tmpdir(), 'docgate-rule-edits-'));
  mkdirSync(join(root, 'processes'));
  mkdirSync(join(root, 'schemas'));
  for (let i = 0; i < docs; i++) {
    writeFileSync(
      join(root, 'processes', `step-${i}.md`),
      `---\nname: Step ${i}\ndescription: Step ${i} of the release\nowner: team-${i % 7}\n---\n\n# Step ${i}\n\nDo the step.\n`,
    );
  }
  writeFileSync(join(root, 'schemas', 'process-frontmatter.schema.json'), schema(0));
  // `--expose-gc`: the server lets go of another project's memory at once (src/lint/repository.ts), so that
  // its resident size shows what it keeps rather than garbage a later collection would free.
  const { Client } = await import('@modelcontextprotocol/sdk/client/index.js');
  const { StdioClientTransport } = await import('@modelcontextprotocol/sdk/client/stdio.js');
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: ['--expose-gc', resolve(bin), 'mcp', '--root', root],
    cwd: root,
    stderr: 'pipe',
  });
  const client = new Client({ name: 'docgate-bench', version: '1.0.0' });
  await client.connect(transport);
  const result = { edits, docs, after10MB: Number.NaN, lastMB: Number.NaN, points: [] };
  try {
    for (let n = 1; n <= edits; n++) {
      writeFileSync(join(root, 'schemas', 'process-frontmatter.schema.json'), schema(n));
      const res = await client.callTool({ name: 'list_processes', arguments: {} });
      if (res.structuredContent?.count !== docs) throw new Error(`edit ${n}: ${res.structuredContent?.count} processes listed, expected ${docs}`);
      if (n === 10) result.after10MB = await rssOf(transport.pid);
      if (POINTS.includes(n) && n < edits) result.points.push({ edits: n, rssMB: await rssOf(transport.pid) });
    }
    result.lastMB = await rssOf(transport.pid);
  } finally {
    await client.close().catch(() => {});
    rmSync(root, { recursive: true, force: true });
  }
  return result;
}

/** The bench table's rows of a measureRuleEdits result. */
export function ruleEditRows(r) {
  const grew = r.lastMB - r.after10MB;
  const way = r.points.map((p) => `${p.edits}: ${p.rssMB.toFixed(0)}`).join(', ');
  return [
    [`MCP server RSS after 10 rule-file edits (${r.docs} processes)`, 'RSS', `${r.after10MB.toFixed(1)} MB`, '', ''],
    [
      `MCP server RSS after ${r.edits} rule-file edits${way ? ` (on the way, MB: ${way})` : ''}`,
      'RSS',
      `${r.lastMB.toFixed(1)} MB (${grew >= 0 ? '+' : ''}${grew.toFixed(1)} MB)`,
      '≤ RSS after 10',
      grew <= 0 ? 'yes' : 'NO',
    ],
  ];
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const { values: opt } = parseArgs({
    options: {
      bin: { type: 'string', default: BIN },
      edits: { type: 'string', default: '1000' },
      docs: { type: 'string', default: '50' },
      slack: { type: 'string', default: '0' },
    },
  });
  const r = await measureRuleEdits({ bin: opt.bin, edits: Number(opt.edits), docs: Number(opt.docs) });
  process.stdout.write('| measurement | value | result | target | met? |\n|---|---|---|---|---|\n');
  for (const row of ruleEditRows(r)) process.stdout.write(`| ${row.join(' | ')} |\n`);
  process.exitCode = r.lastMB - r.after10MB > Number(opt.slack) ? 1 : 0;
}
