// The rows of `docgate lint --staged --cache` (SPEC §10, issue 14): one staged file in a git repository
// of the bench corpus, with a warm blob-keyed cache, next to bare `node -e 0`, interleaved run by run:
//   - in place:        a process edited in place (as VS Code or a shell `>` writes), then `git add`;
//   - safe write:      a process replaced through a temporary file and a rename, then `git add`;
//   - after checkout:  right after `git checkout` of the other branch (500 documents changed), a process
//                      edited and `git add`ed.
// Every edit gives the file content never seen before (a new blob: read from git and analyzed), as a
// hook meets it. Setting up (edit, git add, checkout) is not timed; the run is `docgate lint --staged
// --cache`, spawned as the hook spawns it, with the repository as its working directory.
//
// `measureStaged` is called by bench/run.mjs; alone: `node bench/staged.mjs [--n N] [--runs R] [--keep]`
// (generates its own corpus under the OS temp folder).
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import { run as measureRun, stats } from './measure.mjs';

const HERE = dirname(fileURLToPath(import.meta.url));
const REPO = resolve(HERE, '..');
const BIN = join(REPO, 'bin', 'docgate.js');
const NODE = process.execPath;
/** Documents the other branch changes. */
const CHANGED = 500;

const gitEnv = () => {
  const env = {
    ...process.env,
    GIT_AUTHOR_NAME: 'bench',
    GIT_AUTHOR_EMAIL: 'bench@example.invalid',
    GIT_COMMITTER_NAME: 'bench',
    GIT_COMMITTER_EMAIL: 'bench@example.invalid',
  };
  delete env.GIT_DIR;
  delete env.GIT_INDEX_FILE;
  return env;
};

/**
 * Measures the three rows in `root` (a corpus folder, made a git repository here) with `paths` its
 * documents and `broken` the planted failures. Returns { nodeBareMs, inPlace, safeWrite, afterCheckout, runs }.
 */
export async function measureStaged({ root, tmp, paths, broken, runs = 11, log = () => {} }) {
  const env = gitEnv();
  const git = (...args) => execFileSync('git', args, { cwd: root, env, maxBuffer: 1 << 30, encoding: 'utf8' });
  const t0 = performance.now();
  writeFileSync(join(root, '.gitignore'), '.docgatecache\n');
  git('init', '-q', '-b', 'main');
  git('add', '-A');
  git('commit', '-q', '-m', 'corpus');
  const valid = paths.filter((p) => /^processes\//.test(p) && !broken.has(p));
  const [inPlaceFile, safeWriteFile, checkoutFile, ...rest] = valid;
  // The other branch: CHANGED documents of every kind edited validly (a line added at the end of a body).
  const others = paths.filter((p) => !broken.has(p) && /\.md$/.test(p) && ![inPlaceFile, safeWriteFile, checkoutFile].includes(p));
  const step = Math.max(1, Math.floor(others.length / CHANGED));
  git('checkout', '-q', '-b', 'other');
  const changed = others.filter((_, i) => i % step === 0).slice(0, CHANGED);
  for (const p of changed) writeFileSync(join(root, p), `${readFileSync(join(root, p), 'utf8')}\nChanged on the other branch.\n`);
  git('add', '-A');
  git('commit', '-q', '-m', `change ${changed.length} documents`);
  git('checkout', '-q', 'main');
  log(`bench: staged: git repository of the corpus, branch other changing ${changed.length} documents, ${Math.round(performance.now() - t0)} ms`);
  void rest;

  const run = (cmd, args) => measureRun(cmd, args, { cwd: root, tmp, env });
  const lintStaged = () => run(NODE, [BIN, 'lint', '--staged', '--cache']);
  let edits = 0;
  const edit = (rel, how) => {
    const abs = join(root, rel);
    const text = `${git('show', `HEAD:${rel}`)}\nEdited ${++edits}.\n`;
    if (how === 'in place') writeFileSync(abs, text);
    else {
      writeFileSync(`${abs}.tmp`, text);
      renameSync(`${abs}.tmp`, abs);
    }
    git('add', '--', rel);
  };
  let branch = 'main';
  const commands = {
    node: () => run(NODE, ['-e', '0']),
    inPlace: () => {
      git('reset', '-q');
      edit(inPlaceFile, 'in place');
      return lintStaged();
    },
    safeWrite: () => {
      git('reset', '-q');
      edit(safeWriteFile, 'safe write');
      return lintStaged();
    },
    afterCheckout: () => {
      git('reset', '-q');
      git('checkout', '-q', '-f', (branch = branch === 'main' ? 'other' : 'main'));
      edit(checkoutFile, 'safe write');
      return lintStaged();
    },
  };
  // Warm the cache on both branches (every blob of both trees analyzed once), and each command once.
  for (let i = 0; i < 2; i++) for (const c of Object.values(commands)) await c();
  const samples = Object.fromEntries(Object.keys(commands).map((k) => [k, []]));
  for (let i = 0; i < runs; i++) for (const [k, c] of Object.entries(commands)) samples[k].push(await c());
  git('reset', '-q', '--hard');
  git('checkout', '-q', 'main');
  const out = { runs, changed: changed.length };
  for (const [k, rs] of Object.entries(samples)) {
    if (k !== 'node' && rs.some((r) => r.code !== 0))
      log(`bench: WARNING: docgate lint --staged (${k}) exited ${rs.map((r) => r.code).join(',')}: ${rs[0].stderr || rs[0].stdout}`);
    out[k === 'node' ? 'nodeBareMs' : k] = { wallMs: stats(rs.map((r) => r.ms)), rssMB: stats(rs.filter((r) => r.rssMB).map((r) => r.rssMB)) };
    if (k === 'node') out.nodeBareMs = out.nodeBareMs.wallMs;
  }
  return out;
}

/** The table rows of `measureStaged`'s result: [measurement, value, result, target, met]. */
export function stagedRows(s, fmt, fmtStats) {
  const labels = {
    inPlace: 'one process file edited in place and staged',
    safeWrite: 'one process file replaced by a safe write and staged',
    afterCheckout: `one process file staged right after \`git checkout\` of a branch that changed ${fmt(s.changed)} documents`,
  };
  const limit = s.nodeBareMs.median + 100;
  const rows = [[`bare \`node -e 0\` (${s.runs} runs, interleaved with the \`--staged\` rows below)`, 'wall', fmtStats(s.nodeBareMs, 'ms'), '', '']];
  for (const k of ['inPlace', 'safeWrite', 'afterCheckout']) {
    const w = s[k].wallMs;
    rows.push([
      `\`docgate lint --staged --cache\`, ${labels[k]}, warm cache (${s.runs} runs)`,
      'wall',
      `${fmtStats(w, 'ms')} (node -e 0 + ${fmt(w.median - s.nodeBareMs.median)})`,
      `≤ node -e 0 + 100 ms (${fmt(limit)} ms)`,
      w.median <= limit ? 'yes' : 'NO',
    ]);
  }
  return rows;
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const { values: opt } = parseArgs({
    options: {
      n: { type: 'string', default: '10000' },
      seed: { type: 'string', default: '1' },
      runs: { type: 'string', default: '11' },
      keep: { type: 'boolean', default: false },
    },
  });
  const { generateCorpus } = await import('./corpus.mjs');
  const { fmt, fmtStats } = await import('./measure.mjs');
  const tmp = mkdtempSync(join(tmpdir(), 'docgate-bench-staged-'));
  const log = (s) => process.stderr.write(`${s}\n`);
  try {
    const root = join(tmp, 'corpus');
    const m = generateCorpus({ n: Number(opt.n), seed: Number(opt.seed), root });
    log(`bench: corpus N=${m.documents}, ${(m.bytes / 1e6).toFixed(1)} MB`);
    const s = await measureStaged({ root, tmp, paths: m.paths, broken: new Set(m.broken.map((b) => b.path)), runs: Math.max(11, Number(opt.runs)), log });
    process.stdout.write('| measurement | value | median (min–max) | target | met? |\n|---|---|---|---|---|\n');
    for (const r of stagedRows(s, fmt, fmtStats)) process.stdout.write(`| ${r.join(' | ')} |\n`);
  } finally {
    if (opt.keep) log(`bench: kept ${tmp}`);
    else rmSync(tmp, { recursive: true, force: true });
  }
}
