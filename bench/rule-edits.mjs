// `node bench/rule-edits.mjs [--bin PATH] [--edits N] [--docs N]`: the memory of a long-lived MCP server
// whose rule file is edited again and again (issue 26). A root of `--docs` processes with a schema of its
// own that extends docgate's; the schema is rewritten `--edits` times (each a new text: a new project,
// new compiled validators, new rule data), each edit followed by a list_processes call, which loads the
// project again and analyzes every process under it. Prints the server's RSS after 10 edits and after
// the last (Linux: /proc/<pid>/status), and exits 1 when the last is larger by more than `--slack` MB.
import { mkdtempSync, readFileSync, rmSync, writeFileSync, mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';

const HERE = dirname(fileURLToPath(import.meta.url));
const { values: opt } = parseArgs({
  options: {
    bin: { type: 'string', default: join(HERE, '..', 'bin', 'docgate.js') },
    edits: { type: 'string', default: '1000' },
    docs: { type: 'string', default: '50' },
    slack: { type: 'string', default: '0' },
  },
});
const EDITS = Number(opt.edits);
const DOCS = Number(opt.docs);

const root = mkdtempSync(join(tmpdir(), 'docgate-rule-edits-'));
mkdirSync(join(root, 'processes'));
mkdirSync(join(root, 'schemas'));
for (let i = 0; i < DOCS; i++) {
  writeFileSync(
    join(root, 'processes', `step-${i}.md`),
    `---\nname: Step ${i}\ndescription: Step ${i} of the release\nowner: team-${i % 7}\n---\n\n# Step ${i}\n\nDo the step.\n`,
  );
}
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

/** The resident set of a process, in MB. */
function rssOf(pid) {
  const m = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
  return m ? Number(m[1]) / 1024 : Number.NaN;
}

writeFileSync(join(root, 'schemas', 'process-frontmatter.schema.json'), schema(0));
// `--expose-gc`: the server lets go of another project's memory at once (src/lint/repository.ts), so that
// its resident size shows what it keeps rather than garbage a later collection would free.
const { Client } = await import('@modelcontextprotocol/sdk/client/index.js');
const { StdioClientTransport } = await import('@modelcontextprotocol/sdk/client/stdio.js');
const transport = new StdioClientTransport({
  command: process.execPath,
  args: ['--expose-gc', resolve(opt.bin), 'mcp', '--root', root],
  cwd: root,
  stderr: 'pipe',
});
const client = new Client({ name: 'docgate-bench', version: '1.0.0' });
await client.connect(transport);
const s = {
  pid: transport.pid,
  call: async (name, args) => ({ res: await client.callTool({ name, arguments: args }) }),
  close: () => client.close().catch(() => {}),
};
let after10 = Number.NaN;
try {
  for (let n = 1; n <= EDITS; n++) {
    writeFileSync(join(root, 'schemas', 'process-frontmatter.schema.json'), schema(n));
    const { res } = await s.call('list_processes', {});
    if (res.structuredContent.count !== DOCS) throw new Error(`edit ${n}: ${res.structuredContent.count} processes listed, expected ${DOCS}`);
    if (n === 10) after10 = rssOf(s.pid);
  }
  const last = rssOf(s.pid);
  const grew = last - after10;
  console.log(`| MCP server RSS after 10 rule-file edits | ${after10.toFixed(1)} MB |`);
  console.log(`| MCP server RSS after ${EDITS} rule-file edits | ${last.toFixed(1)} MB (${grew >= 0 ? '+' : ''}${grew.toFixed(1)} MB) |`);
  process.exitCode = grew > Number(opt.slack) ? 1 : 0;
} finally {
  await s.close();
  rmSync(root, { recursive: true, force: true });
}
