/**
 * The git index as a store of documents (SPEC §10): what `git` itself reports, through its plumbing
 * commands, so that `docgate lint --staged` sees the snapshot about to be committed. Paths, modes and
 * blob ids come from `git ls-files -s`; what changed since HEAD from `git diff-index --cached`; blob
 * sizes from one `git cat-file --batch-check` and contents from one `git cat-file --batch`. Nothing here
 * looks at the working tree.
 */
import { createRequire } from 'node:module';
import { ConfigError } from './schemas.js';

// node:child_process is loaded when git is first run: it costs a run that never runs git (every run
// but --staged) several milliseconds of start-up, a tenth of a one-file lint.
let spawnSync: typeof import('node:child_process').spawnSync | undefined;
function spawn(): typeof import('node:child_process').spawnSync {
  return (spawnSync ??= (createRequire(import.meta.url)('node:child_process') as typeof import('node:child_process')).spawnSync);
}

/** One entry of the index (stage 0): its mode (`100644`, `100755`, `120000` a symlink, `160000` a gitlink) and blob id. */
export interface IndexEntry {
  mode: string;
  oid: string;
  /** The path's bytes are not valid UTF-8: its text is lossy and names no file (the `bad-name` problem). */
  badName?: true;
}

/** One path that differs between HEAD and the index: its side in HEAD and in the index (null: absent there). */
export interface StagedChange {
  path: string;
  head: IndexEntry | null;
  index: IndexEntry | null;
}

/** Largest output read from one git command (the index of a very large repository, or a batch of blobs). */
const MAX_OUTPUT = 1024 * 1024 * 1024;

/** Runs git in `cwd`: its stdout, or null with its stderr when it fails. */
function run(cwd: string, args: readonly string[], input?: string): { out: Buffer } | { error: string } {
  // The environment is inherited on purpose: in a hook, GIT_INDEX_FILE names the index being committed
  // (`git commit -a`, `git commit <path>` commit a temporary index).
  const r = spawn()('git', args, { cwd, maxBuffer: MAX_OUTPUT, ...(input !== undefined ? { input } : {}) });
  if (r.error) return { error: (r.error as NodeJS.ErrnoException).code === 'ENOENT' ? 'git is not installed (not on PATH)' : r.error.message };
  if (r.status !== 0) return { error: r.stderr.toString('utf8').trim().split('\n')[0] ?? `git ${args[0]} failed` };
  return { out: r.stdout };
}

function must(cwd: string, args: readonly string[], input?: string): Buffer {
  const r = run(cwd, args, input);
  if ('error' in r) throw new ConfigError(`--staged: git ${args[0]} failed: ${r.error}`);
  return r.out;
}

/** A path git printed (bytes), and whether its bytes are not valid UTF-8 (its text then lossy). */
function pathOf(bytes: Buffer): { path: string; bad: boolean } {
  const path = bytes.toString('utf8');
  return { path, bad: path.includes('\uFFFD') && !Buffer.from(path, 'utf8').equals(bytes) };
}

/**
 * Checks that `root` lies in a git work tree (else `--staged` is a usage error, exit 2) and returns the
 * absolute git directory (where the staged cache lives by default). Asked only when needed: a failing
 * `diff-index` (see `stagedChanges`), or a cache whose root has no `.git` folder of its own.
 */
export function gitDirOf(root: string): string {
  const r = run(root, ['rev-parse', '--is-inside-work-tree', '--absolute-git-dir']);
  if ('error' in r) throw new ConfigError(`--staged needs a git repository: ${root} is not in one (${r.error})`);
  const [inside, dir] = r.out.toString('utf8').split('\n');
  if (inside !== 'true' || !dir) throw new ConfigError(`--staged needs a git work tree: ${root} is not inside one`);
  return dir;
}

/** `<srcmode> <dstmode> <srcoid> <dstoid> <status>` of a raw diff line (the leading `:` removed). */
function changeOf(meta: string, path: string): StagedChange {
  const [srcMode, dstMode, srcOid, dstOid] = meta.split(' ');
  const side = (mode: string | undefined, oid: string | undefined): IndexEntry | null => (mode === undefined || oid === undefined || /^0+$/.test(mode) ? null : { mode, oid });
  return { path, head: side(srcMode, srcOid), index: side(dstMode, dstOid) };
}

/**
 * What the index changes against HEAD (against the empty tree before the first commit), with paths
 * relative to `root` and limited to it (`--relative`). Renames are a deletion and an addition.
 */
export function stagedChanges(root: string): StagedChange[] {
  const args = ['diff-index', '--cached', '--raw', '-z', '--no-renames', '--relative'];
  let r = run(root, [...args, 'HEAD', '--']);
  if ('error' in r) {
    gitDirOf(root); // not a work tree: a usage error that says so
    // No commit yet: everything staged is an addition.
    const empty = must(root, ['hash-object', '-t', 'tree', '--stdin'], '').toString('utf8').trim();
    r = { out: must(root, [...args, empty, '--']) };
  }
  const out: StagedChange[] = [];
  const parts = r.out.toString('binary').split('\0');
  for (let i = 0; i + 1 < parts.length; i += 2) {
    const meta = parts[i]!;
    if (!meta.startsWith(':')) break;
    out.push(changeOf(meta.slice(1), pathOf(Buffer.from(parts[i + 1]!, 'binary')).path));
  }
  return out;
}

/**
 * The entries of the index under `root` (stage 0 only: an unmerged path cannot be committed anyway),
 * limited to the folders given (none: every path). Paths are relative to `root`, in git's order.
 */
export function indexEntries(root: string, folders: readonly string[]): Map<string, IndexEntry> {
  const spec = folders.includes('') ? [] : folders;
  const out = must(root, ['--literal-pathspecs', 'ls-files', '-s', '-z', '--', ...spec]);
  const entries = new Map<string, IndexEntry>();
  // Decoded once (5,000 entries): a name that is not UTF-8 shows as U+FFFD, and only then is each checked.
  const text = out.toString('utf8');
  const lossy = text.includes('\uFFFD');
  let start = 0;
  let byte = 0;
  while (start < text.length) {
    let stop = text.indexOf('\0', start);
    if (stop === -1) stop = text.length;
    // `<mode> <oid> <stage>\t<path>`
    const tab = text.indexOf('\t', start);
    if (tab !== -1 && tab < stop && text.charCodeAt(tab - 1) === 48 /* stage 0 */) {
      const mode = text.slice(start, start + 6);
      const oid = text.slice(start + 7, tab - 2);
      const path = text.slice(tab + 1, stop);
      if (lossy) {
        const end = out.indexOf(0, byte);
        const { bad } = pathOf(out.subarray(out.indexOf(9, byte) + 1, end === -1 ? out.length : end));
        entries.set(path, bad ? { mode, oid, badName: true } : { mode, oid });
      } else entries.set(path, { mode, oid });
    }
    if (lossy) {
      const end = out.indexOf(0, byte);
      byte = end === -1 ? out.length : end + 1;
    }
    start = stop + 1;
  }
  return entries;
}

/** What one blob read gives: its bytes, or only its size when it is larger than the limit asked. */
export type BlobRead = { kind: 'bytes'; bytes: Buffer } | { kind: 'too-large'; size: number } | { kind: 'missing' };

/**
 * Reads blobs: their sizes first (one `cat-file --batch-check`), then the contents of those within
 * their limit (one `cat-file --batch`), so a blob larger than its limit is never read whole. `named`:
 * object names (`HEAD^{tree}`) resolved by the same size check, each set to its object id (null: none).
 */
export function readBlobs(root: string, wanted: ReadonlyMap<string, number>, named?: Map<string, string | null>): Map<string, BlobRead> {
  const result = new Map<string, BlobRead>();
  const names = named ? [...named.keys()] : [];
  if (wanted.size === 0 && names.length === 0) return result;
  const oids = [...wanted.keys()];
  const checked = must(root, ['cat-file', '--batch-check'], `${[...names, ...oids].join('\n')}\n`).toString('latin1').split('\n');
  names.forEach((name, i) => {
    // `<oid> <type> <size>`, or `<name> missing` (or `ambiguous`)
    const [oid, , size] = (checked[i] ?? '').split(' ');
    named!.set(name, oid !== undefined && size !== undefined && /^[0-9a-f]{40,64}$/.test(oid) ? oid : null);
  });
  const fetch: string[] = [];
  oids.forEach((oid, i) => {
    // `<oid> blob <size>`, or `<oid> missing`
    const [, type, size] = (checked[names.length + i] ?? '').split(' ');
    const n = Number(size);
    if (type !== 'blob' || !Number.isInteger(n)) result.set(oid, { kind: 'missing' });
    else if (n > wanted.get(oid)!) result.set(oid, { kind: 'too-large', size: n });
    else fetch.push(oid);
  });
  if (fetch.length === 0) return result;
  const out = must(root, ['cat-file', '--batch'], `${fetch.join('\n')}\n`);
  let at = 0;
  for (const oid of fetch) {
    const nl = out.indexOf(10, at);
    if (nl === -1) break;
    const [, , size] = out.toString('latin1', at, nl).split(' ');
    const n = Number(size);
    if (!Number.isInteger(n)) break;
    result.set(oid, { kind: 'bytes', bytes: out.subarray(nl + 1, nl + 1 + n) });
    at = nl + 1 + n + 1; // the content, then a newline
  }
  for (const oid of fetch) if (!result.has(oid)) result.set(oid, { kind: 'missing' });
  return result;
}
