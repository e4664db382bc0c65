/**
 * Files docgate keeps for itself between runs in the user's cache folder, outside every repository
 * (docs/reliability.md, "Compiled root schemas"): `$XDG_CACHE_HOME/docgate/<area>/`, else
 * `~/.cache/docgate/<area>/`. Only the user can write there, so what is read back is docgate's own
 * output: a repository cannot plant a file in it, as it could anywhere under the root (or in its
 * `node_modules`). Each file holds a header line naming its key and the SHA-256 of its content; a file
 * of another key, another content (a torn or corrupted write) or another owner, a link, a folder that
 * others may write to: all are misses. A folder that cannot be made or written is no cache at all,
 * silently: what is kept only saves time, it never changes an output.
 */
import { lstatSync, mkdirSync, readdirSync, renameSync, rmSync } from 'node:fs';
import type { Stats } from 'node:fs';
import { createRequire } from 'node:module';
import { homedir } from 'node:os';
import { isAbsolute, join } from 'node:path';
import { createNew, readInside, realFolder } from './safe-fs.js';

/** The first bytes of every kept file, then its key and the hash of what follows the header line. */
const MAGIC = 'docgate-kept 1';
/**
 * Files kept per area: past this, a write removes the least recently written. A server whose rule file
 * is edited 1,000 times compiles 1,000 schemas; only the last few are ever asked for again.
 */
const MAX_KEPT_FILES = 64;
/** Largest kept file read (a compiled validator of a large schema is a few hundred KB). */
const MAX_KEPT_BYTES = 16 * 1024 * 1024;

/** The user's cache folder for `area` (not made yet), or null when there is no home to put it in. */
export function userCacheDir(area: string): string | null {
  const xdg = process.env.XDG_CACHE_HOME;
  let base: string;
  if (xdg !== undefined && isAbsolute(xdg)) base = xdg;
  else {
    let home: string;
    try {
      home = homedir();
    } catch {
      return null;
    }
    if (!isAbsolute(home)) return null;
    base = join(home, '.cache');
  }
  return join(base, 'docgate', area);
}

const require = createRequire(import.meta.url);

/** The SHA-256 of the parts, each followed by a NUL, hex. node:crypto is loaded on first use: a lint without a root schema never needs it. */
export function sha256(...parts: (string | Uint8Array)[]): string {
  const h = (require('node:crypto') as typeof import('node:crypto')).createHash('sha256');
  for (const p of parts) h.update(p).update('\0');
  return h.digest('hex');
}

/** Owned by this user and writable by nobody else (where Node knows users: not on Windows). */
function ownOnly(st: Stats): boolean {
  const uid = process.getuid?.();
  return uid === undefined || (st.uid === uid && (st.mode & 0o022) === 0);
}

/** The folder of `area`, made if needed (only the user may enter it); null when it cannot be used. */
function usableDir(area: string, make: boolean): string | null {
  const dir = userCacheDir(area);
  if (dir === null) return null;
  try {
    if (make) mkdirSync(dir, { recursive: true, mode: 0o700 });
    const st = lstatSync(dir);
    if (!st.isDirectory() || !ownOnly(st)) return null;
    return realFolder(dir) === null ? null : dir;
  } catch {
    return null;
  }
}

/** The kept text of `key` in `area`, when a file of docgate's holds it whole; else null (a miss). */
export function readKept(area: string, key: string): string | null {
  const dir = usableDir(area, false);
  if (dir === null) return null;
  const real = realFolder(dir);
  if (real === null) return null;
  const read = readInside(join(real, `${key}.kept`), real, MAX_KEPT_BYTES);
  if (read.kind !== 'bytes' || !ownOnly(read.stats)) return null;
  const nl = read.bytes.indexOf(10);
  if (nl < 0) return null;
  const [magic, version, hashedKey, hash] = read.bytes.toString('utf8', 0, nl).split(' ');
  const body = read.bytes.subarray(nl + 1);
  if (`${magic} ${version}` !== MAGIC || hashedKey !== key || hash !== sha256(body)) return null;
  return body.toString('utf8');
}

/** Keeps `text` under `key` in `area`, atomically (a temporary file renamed over it); false when it cannot. */
export function writeKept(area: string, key: string, text: string): boolean {
  const dir = usableDir(area, true);
  if (dir === null) return false;
  const body = Buffer.from(text, 'utf8');
  const data = Buffer.concat([Buffer.from(`${MAGIC} ${key} ${sha256(body)}\n`, 'utf8'), body]);
  // Created exclusively (never through a link), readable by the user only, then renamed over the key's
  // file: a reader sees the old file or the new one whole, and two runs writing the same key agree.
  const tmp = join(dir, `.${key}.${process.pid}.${Math.random().toString(36).slice(2, 10)}.tmp`);
  try {
    createNew(tmp, data, 0o600);
    renameSync(tmp, join(dir, `${key}.kept`));
    prune(dir);
    return true;
  } catch {
    rmSync(tmp, { force: true });
    return false;
  }
}

/** Removes the least recently written kept files of `dir` past MAX_KEPT_FILES (best effort). */
function prune(dir: string): void {
  try {
    const names = readdirSync(dir).filter((n) => n.endsWith('.kept'));
    if (names.length <= MAX_KEPT_FILES) return;
    const dated = names.map((n) => ({ n, t: lstatSync(join(dir, n), { throwIfNoEntry: false })?.mtimeMs ?? 0 })).sort((a, b) => a.t - b.t);
    for (const { n } of dated.slice(0, names.length - MAX_KEPT_FILES)) rmSync(join(dir, n), { force: true });
  } catch {
    /* kept as they are: the next write tries again */
  }
}
