// `node bench/hostile.mjs [--runs R] [--baseline DIR]`: the hostile inputs of issue 11 (docs/reliability.md),
// linted by the BUILT CLI (`npm run build` first), each in a fresh temporary root (never the repository):
//   - one SysRS of 2 MiB: 349,525 `### x` lines (every line a finding);
//   - five of them, `lint --cache` cold, then warm (and the size of the cache written);
//   - 4,000 processes all named `Same`, with `--format json` and with stylish (and the output's size);
//   - 300 templates of 16 KB sharing `store_as: a_summary`, each with `{{a_summary}}` 1,000 times.
// For each: wall time, peak RSS (GNU time, else /proc polling) and exit code, median (min–max) of R runs.
// With --baseline DIR (another built checkout), each row also runs that build's CLI, interleaved.
// The MCP cases (five parse_sysrs next to a ping, the 4,096-character search) are bench/mcp-stalls.mjs.
import { mkdirSync, mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { fmt, run as measure, stats } from './measure.mjs';

const REPO = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const { values: opt } = parseArgs({ options: { runs: { type: 'string', default: '3' }, baseline: { type: 'string' } } });
const RUNS = Math.max(1, Number(opt.runs) || 1);
const TMP = mkdtempSync(join(tmpdir(), 'docgate-hostile-'));
const log = (s) => process.stderr.write(`${s}\n`);
const builds = [{ name: 'this', bin: join(REPO, 'bin', 'docgate.js') }];
if (opt.baseline) builds.unshift({ name: 'baseline', bin: join(resolve(opt.baseline), 'bin', 'docgate.js') });

const MIB2 = 2 * 1024 * 1024;
function put(root, rel, text) {
  mkdirSync(dirname(join(root, rel)), { recursive: true });
  writeFileSync(join(root, rel), text);
}
function bigSysrs(i) {
  const head = `---\nid: 7d1f3c2a-9b8e-4f6d-a5c4-3b2a1f0e9d8${i}\n---\n\n# System Requirements Specification: Big ${i}\n\n`;
  return (head + '### x\n'.repeat(Math.floor((MIB2 - head.length) / 6))).padEnd(MIB2, '\n');
}
function template(i) {
  const head = `framework: POWER\npurpose: Template ${i}.\noutput: A file with a header.\nwork: Read.\nexamples:\n- x\nrequirements: Short.\nsave_as: T${i}.md\nstore_as: a_summary\n`;
  return head.replace('work: Read.', `work: Read.${' {{a_summary}}'.repeat(1000)}`).padEnd(16 * 1024, '#');
}

const roots = {};
function root(name, fill) {
  roots[name] ??= (() => {
    const r = join(TMP, name);
    mkdirSync(r, { recursive: true });
    fill(r);
    return r;
  })();
  return roots[name];
}
const cases = [
  {
    label: 'one 2 MiB SysRS of `### x` lines',
    args: () => ['lint', '--root', root('big1', (r) => put(r, 'docs/sysrs/big.md', bigSysrs(0))), '--format', 'json'],
  },
  {
    label: 'five 2 MiB SysRS, `--cache`, cold',
    before: (b) => rmSync(join(TMP, `cache-${b.name}`), { force: true }),
    args: (b) => [
      'lint',
      '--root',
      root('big5', (r) => [0, 1, 2, 3, 4].forEach((i) => put(r, `docs/sysrs/big${i}.md`, bigSysrs(i)))),
      '--format',
      'json',
      '--cache',
      '--cache-location',
      join(TMP, `cache-${b.name}`),
    ],
    after: (b) => `cache ${fmt(statSync(join(TMP, `cache-${b.name}`)).size / 1024)} KB`,
  },
  { label: 'the same, warm', args: (b) => ['lint', '--root', roots.big5, '--format', 'json', '--cache', '--cache-location', join(TMP, `cache-${b.name}`)] },
  {
    label: '4,000 processes named `Same`, json',
    args: () => [
      'lint',
      '--root',
      root('same', (r) => {
        for (let i = 0; i < 4000; i++) put(r, `processes/p${String(i).padStart(4, '0')}.md`, '---\nname: Same\n---\n\n# Same\n');
      }),
      '--format',
      'json',
    ],
    output: true,
  },
  { label: '4,000 processes named `Same`, stylish', args: () => ['lint', '--root', roots.same], output: true },
  {
    label: '300 templates of 16 KB, `{{a_summary}}` × 1,000 each, one `store_as`',
    args: () => [
      'lint',
      '--root',
      root('graph', (r) => {
        for (let i = 0; i < 300; i++) put(r, `templates/power/t${String(i).padStart(3, '0')}.txt`, template(i));
      }),
      '--format',
      'json',
    ],
  },
];

const rows = [];
try {
  for (const c of cases) {
    const per = Object.fromEntries(builds.map((b) => [b.name, []]));
    let note = '';
    for (let i = 0; i < RUNS; i++) {
      for (const b of builds) {
        c.before?.(b);
        const r = await measure(process.execPath, [b.bin, ...c.args(b)], { cwd: TMP, tmp: TMP, env: { ...process.env, NODE_OPTIONS: '' } });
        per[b.name].push(r);
        if (c.after) note = c.after(b);
        if (c.output) note = `output ${fmt(Buffer.byteLength(r.stdout) / 1024)} KB`;
        log(`hostile: ${c.label} [${b.name}] run ${i + 1}: ${Math.round(r.ms)} ms, ${fmt(r.rssMB)} MB, exit ${r.code}`);
      }
    }
    for (const b of builds) {
      const rs = per[b.name];
      rows.push({
        label: c.label,
        build: b.name,
        wall: stats(rs.map((r) => r.ms)),
        rss: stats(rs.map((r) => r.rssMB)),
        codes: [...new Set(rs.map((r) => r.code))].join(','),
        note: b.name === builds.at(-1).name ? note : '',
      });
    }
  }
  const cell = (s, unit) => (s.samples.length > 1 ? `${fmt(s.median)} ${unit} (${fmt(s.min)}–${fmt(s.max)})` : `${fmt(s.median)} ${unit}`);
  const lines = [
    `hostile inputs (issue 11), ${RUNS} runs each, median (min–max); node ${process.version}`,
    '',
    `| input |${builds.length > 1 ? ' build |' : ''} wall | peak RSS | exit | note |`,
    `|---|${builds.length > 1 ? '---|' : ''}---|---|---|---|`,
    ...rows.map((r) => `| ${r.label} |${builds.length > 1 ? ` ${r.build} |` : ''} ${cell(r.wall, 'ms')} | ${cell(r.rss, 'MB')} | ${r.codes} | ${r.note} |`),
  ];
  process.stdout.write(`${lines.join('\n')}\n`);
} finally {
  rmSync(TMP, { recursive: true, force: true });
}
