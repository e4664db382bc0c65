/**
 * The git index as a store of documents (docs/decisions.md, "`docgate lint --staged`"): what `git` itself reports, through its plumbing
 * commands, so that `docgate lint --staged` sees the snapshot about to be committed. Paths, modes and
 * blob ids come from `git ls-files -s`; what changed since HEAD from `git diff-index --cached`; blob
 * sizes from one `git cat-file --batch-check` and contents from one `git cat-file --batch`. Nothing here
 * looks at the working tree.
 */
import { createRequire } from 'node:module';
import { ConfigError } from '../model/errors.js';

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
  /** The path is unmerged (index stages 1–3, a conflict): no blob of it can be committed yet. */
  unmerged?: true;
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
  const [srcMode, dstMode, srcOid, dstOid, status] = meta.split(' ');
  const side = (mode: string | undefined, oid: string | undefined): IndexEntry | null =>
    mode === undefined || oid === undefined || /^0+$/.test(mode) ? null : { mode, oid };
  // An unmerged path (`U`) has no index side git can name: it is there, but in conflict.
  const index: IndexEntry | null = status === 'U' ? { mode: dstMode ?? '000000', oid: dstOid ?? '', unmerged: true } : side(dstMode, dstOid);
  return { path, head: side(srcMode, srcOid), index };
}

/** The object ids of the empty blob (SHA-1 and SHA-256 repositories): what `git add -N` records. */
const EMPTY_BLOBS = new Set(['e69de29bb2d1d6434b8b29ae775ad8c2e48c5391', '473a0f4c3be8a93681a267e3b1e9a7dcda1185436fe141f7749120a303721813']);

function parseChanges(out: Buffer): StagedChange[] {
  const changes: StagedChange[] = [];
  const parts = out.toString('binary').split('\0');
  for (let i = 0; i + 1 < parts.length; i += 2) {
    const meta = parts[i]!;
    if (!meta.startsWith(':')) break;
    changes.push(changeOf(meta.slice(1), pathOf(Buffer.from(parts[i + 1]!, 'binary')).path));
  }
  return changes;
}

/** What the index holds that differs from HEAD, and the paths it holds that no commit would (`git add -N`). */
export interface StagedDiff {
  changes: StagedChange[];
  /** Intent-to-add entries: listed by `ls-files` as the empty blob, but not part of the commit. */
  intentToAdd: Set<string>;
}

/**
 * What the index changes against HEAD (against the empty tree before the first commit), with paths
 * relative to `root` and limited to it (`--relative`). Renames are a deletion and an addition.
 * Intent-to-add entries are no change: they are shown (`--ita-visible-in-index`) as additions of the
 * empty blob, and only when there is such an addition is git asked again without them (a real empty
 * file added looks the same in one listing).
 */
export function stagedChanges(root: string): StagedDiff {
  const args = ['diff-index', '--cached', '--raw', '-z', '--no-renames', '--relative'];
  let base = 'HEAD';
  let r = run(root, [...args, '--ita-visible-in-index', base, '--']);
  if ('error' in r) {
    gitDirOf(root); // not a work tree: a usage error that says so
    // No commit yet: everything staged is an addition.
    base = must(root, ['hash-object', '-t', 'tree', '--stdin'], '').toString('utf8').trim();
    r = { out: must(root, [...args, '--ita-visible-in-index', base, '--']) };
  }
  const changes = parseChanges(r.out);
  const intentToAdd = new Set<string>();
  const empty = changes.filter((c) => c.head === null && c.index !== null && EMPTY_BLOBS.has(c.index.oid)).map((c) => c.path);
  if (empty.length > 0) {
    const real = new Set(parseChanges(must(root, ['--literal-pathspecs', ...args, '--ita-invisible-in-index', base, '--', ...empty])).map((c) => c.path));
    for (const path of empty) if (!real.has(path)) intentToAdd.add(path);
  }
  return { changes: intentToAdd.size === 0 ? changes : changes.filter((c) => !intentToAdd.has(c.path)), intentToAdd };
}

/**
 * The index under `root`, listed once (`git ls-files -s -z`, every path: a link's target may lie
 * anywhere) and parsed as each part is asked for. Paths are relative to `root`, in git's order. A path
 * in conflict (stages 1–3) is one entry marked `unmerged`; intent-to-add entries are left out.
 */
export class IndexListing {
  private readonly text: string;
  /** A name that is not UTF-8 shows as U+FFFD: only then is each path checked against its bytes. */
  private readonly lossy: boolean;
  private everything: Map<string, IndexEntry> | undefined;

  private constructor(
    private readonly out: Buffer,
    private readonly absent: ReadonlySet<string>,
  ) {
    this.text = out.toString('utf8');
    this.lossy = this.text.includes('\uFFFD');
  }

  static read(root: string, absent: ReadonlySet<string>): IndexListing {
    return new IndexListing(must(root, ['ls-files', '-s', '-z']), absent);
  }

  /**
   * The entries in or below `folders` ('' = every path). git lists the index sorted by path bytes, so
   * the entries below a folder are one run: found by a search, then read while they stay below it.
   */
  under(folders: readonly string[]): Map<string, IndexEntry> {
    if (this.everything || this.lossy || folders.includes('')) return this.all();
    const entries = new Map<string, IndexEntry>();
    for (const f of new Set(folders)) {
      const at = this.entryNamed(`\t${f}\0`);
      if (at !== -1) this.read(at, entries);
      for (let start = this.entryNamed(`\t${f}/`); start !== -1 && start < this.text.length; ) {
        const next = this.read(start, entries, `${f}/`);
        if (next === -1) break;
        start = next;
      }
    }
    return entries;
  }

  /** Every entry. */
  all(): Map<string, IndexEntry> {
    if (this.everything) return this.everything;
    const entries = new Map<string, IndexEntry>();
    if (this.lossy) return (this.everything = this.parseLossy(entries));
    for (let start = 0; start !== -1 && start < this.text.length; ) start = this.read(start, entries);
    return (this.everything = entries);
  }

  /** The symbolic links (mode 120000), found by their mode at the start of an entry (entries end in NUL). */
  links(): Map<string, IndexEntry> {
    const entries = new Map<string, IndexEntry>();
    if (this.lossy) {
      for (const [path, e] of this.all()) if (e.mode === SYMLINK_MODE) entries.set(path, e);
      return entries;
    }
    const { text } = this;
    if (text.startsWith(`${SYMLINK_MODE} `)) this.read(0, entries);
    for (let nul = text.indexOf(`\0${SYMLINK_MODE} `); nul !== -1; nul = text.indexOf(`\0${SYMLINK_MODE} `, nul + 1)) this.read(nul + 1, entries);
    return entries;
  }

  /** Where the entry whose tab is followed by `needle` (a path, or its start) starts, or -1: a tab inside a path is no match. */
  private entryNamed(needle: string): number {
    const { text } = this;
    for (let at = text.indexOf(needle); at !== -1; at = text.indexOf(needle, at + 1)) {
      const start = text.lastIndexOf('\0', at) + 1;
      // The first tab of an entry ends its `<mode> <oid> <stage>`.
      if (text.indexOf('\t', start) === at) return start;
    }
    // The last entry's path may end the listing without its NUL.
    const last = needle.endsWith('\0') && text.endsWith(needle.slice(0, -1)) ? text.length - needle.length + 1 : -1;
    if (last !== -1 && text.indexOf('\t', text.lastIndexOf('\0', last) + 1) === last) return text.lastIndexOf('\0', last) + 1;
    return -1;
  }

  /**
   * Reads the entry at `start` into `entries` (when its path starts with `prefix`): where the next
   * entry starts, or -1 when this one is not below `prefix` (the end of a run).
   */
  private read(start: number, entries: Map<string, IndexEntry>, prefix = ''): number {
    const { text } = this;
    let stop = text.indexOf('\0', start);
    if (stop === -1) stop = text.length;
    // `<mode> <oid> <stage>\t<path>`
    const tab = text.indexOf('\t', start);
    if (tab === -1 || tab > stop) return stop + 1;
    if (prefix !== '' && !text.startsWith(prefix, tab + 1)) return -1;
    const path = text.slice(tab + 1, stop);
    if (!this.absent.has(path) && !entries.has(path)) entries.set(path, this.entryOf(start, tab));
    return stop + 1;
  }

  private entryOf(start: number, tab: number): IndexEntry {
    const { text } = this;
    const entry: IndexEntry = { mode: text.slice(start, start + 6), oid: text.slice(start + 7, tab - 2) };
    if (text.charCodeAt(tab - 1) !== 48 /* stage 0 */) {
      entry.oid = '';
      entry.unmerged = true;
    }
    return entry;
  }

  /** Every entry of a listing with a name that is not UTF-8: each path checked against its bytes. */
  private parseLossy(entries: Map<string, IndexEntry>): Map<string, IndexEntry> {
    const { text, out } = this;
    let start = 0;
    let byte = 0;
    while (start < text.length) {
      let stop = text.indexOf('\0', start);
      if (stop === -1) stop = text.length;
      const tab = text.indexOf('\t', start);
      const end = out.indexOf(0, byte);
      if (tab !== -1 && tab < stop) {
        const path = text.slice(tab + 1, stop);
        if (!this.absent.has(path) && !entries.has(path)) {
          const entry = this.entryOf(start, tab);
          if (pathOf(out.subarray(out.indexOf(9, byte) + 1, end === -1 ? out.length : end)).bad) entry.badName = true;
          entries.set(path, entry);
        }
      }
      byte = end === -1 ? out.length : end + 1;
      start = stop + 1;
    }
    return entries;
  }
}

const SYMLINK_MODE = '120000';

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
  const checked = must(root, ['cat-file', '--batch-check'], `${[...names, ...oids].join('\n')}\n`)
    .toString('latin1')
    .split('\n');
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
