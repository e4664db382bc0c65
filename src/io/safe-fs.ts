/**
 * The file-system primitives that keep docgate inside its root (docs/reliability.md, issue 11): every read of a
 * document, rule file or cache, every folder listing, and every write goes through here.
 * - Reads open the path with O_NOFOLLOW (a link at the end is not followed by the open) and O_NONBLOCK
 *   (a FIFO does not block the open), then check the opened handle: on Linux /proc/self/fd/<fd> names
 *   where it really is, so a folder on the way swapped for a link is caught too. The check and the read
 *   are one step: whatever was swapped in before the open, the bytes come from the handle that was checked.
 * - Folders are resolved before they are opened (nothing outside the root is opened), then listed through
 *   the checked handle (/proc/self/fd/<fd>), so the folder checked is the folder listed.
 * - Writes create a temporary file exclusively (O_CREAT|O_EXCL, a random name, in the target's folder)
 *   and rename it over the target: a link at the target is replaced, never written through.
 */
import {
  accessSync,
  closeSync,
  constants,
  fchmodSync,
  fchownSync,
  fstatSync,
  fsyncSync,
  linkSync,
  lstatSync,
  mkdirSync,
  openSync,
  readSync,
  readdirSync,
  readlinkSync,
  realpathSync,
  renameSync,
  rmSync,
  rmdirSync,
  statSync,
  writeSync,
} from 'node:fs';
import type { Dirent, Stats } from 'node:fs';
import { basename, dirname, join, sep } from 'node:path';
import { Recent } from '../model/recent.js';

const NOFOLLOW = constants.O_NOFOLLOW ?? 0;
const NONBLOCK = constants.O_NONBLOCK ?? 0;
const DIRECTORY = constants.O_DIRECTORY ?? 0;
const READ = constants.O_RDONLY | NOFOLLOW | NONBLOCK;

/** The error code of a failed system call (`EIO` when there is none). */
export function codeOf(e: unknown): string {
  return (e as NodeJS.ErrnoException).code ?? 'EIO';
}

/** Whether `target` is `dir` or lies below it; both real (resolved) absolute paths. Lexical: no I/O. */
export function isInside(dir: string, target: string): boolean {
  if (target === dir) return true;
  return target.startsWith(dir.endsWith(sep) ? dir : `${dir}${sep}`);
}

const realFolders = new Recent<string, string>(64);

/** The real path of a folder such as the root (resolved once per process), or null when it cannot be resolved. */
export function realFolder(dir: string): string | null {
  let real = realFolders.get(dir);
  if (real === undefined) {
    try {
      real = realpathSync.native(dir);
    } catch {
      return null;
    }
    realFolders.set(dir, real);
  }
  return real;
}

/** The real path of `abs`, or the error code. `realpath(3)`: it looks at each folder on the way, opens nothing. */
export function resolved(abs: string): { real: string } | { code: string } {
  try {
    return { real: realpathSync.native(abs) };
  } catch (e) {
    return { code: codeOf(e) };
  }
}

/** Whether /proc/self/fd names open handles here (Linux); found out on first use. */
let procFd: boolean | undefined;

/**
 * Where an open handle really is, or null on a system without /proc/self/fd (there the checks made
 * before the open stand alone). Throws when /proc works but the handle cannot be named.
 */
function handlePath(fd: number): string | null {
  if (procFd === false) return null;
  try {
    const where = readlinkSync(`/proc/self/fd/${fd}`);
    procFd = true;
    return where;
  } catch (e) {
    if (procFd === true) throw e;
    procFd = false;
    return null;
  }
}

export type Opened = { fd: number } | { outside: true } | { broken: true } | { code: string };

/**
 * Opens a file for reading, inside `realDir` only. A symlink at the end is followed only when it resolves
 * inside `realDir`, by opening its resolved target (again with O_NOFOLLOW). The handle is then checked.
 */
export function openInside(abs: string, realDir: string): Opened {
  let fd: number;
  try {
    fd = openSync(abs, READ);
  } catch (e) {
    const code = codeOf(e);
    if (code !== 'ELOOP') return { code };
    const target = resolved(abs);
    if ('code' in target) return target.code === 'ENOENT' ? { broken: true } : target;
    if (!isInside(realDir, target.real)) return { outside: true };
    try {
      fd = openSync(target.real, READ);
    } catch (e2) {
      return { code: codeOf(e2) };
    }
  }
  try {
    const where = handlePath(fd);
    if (where !== null && !isInside(realDir, where)) {
      closeSync(fd);
      return { outside: true };
    }
  } catch (e) {
    closeSync(fd);
    return { code: codeOf(e) };
  }
  return { fd };
}

export type Limited =
  | { kind: 'bytes'; bytes: Buffer; stats: Stats }
  | { kind: 'too-large'; size: number; stats: Stats }
  | { kind: 'directory'; stats: Stats }
  | { kind: 'not-a-file'; stats: Stats }
  | { kind: 'outside' }
  | { kind: 'broken' }
  | { kind: 'gone' }
  | { kind: 'error'; code: string };

/**
 * Reads a regular file inside `realDir` through one checked handle: the size limit and the stats come
 * from the handle the bytes come from; a file larger than `maxBytes`, a folder or a special file is not read.
 */
export function readInside(abs: string, realDir: string, maxBytes: number): Limited {
  const opened = openInside(abs, realDir);
  if ('outside' in opened) return { kind: 'outside' };
  if ('broken' in opened) return { kind: 'broken' };
  if ('code' in opened) return opened.code === 'ENOENT' ? { kind: 'gone' } : { kind: 'error', code: opened.code };
  return readOpened(opened.fd, maxBytes);
}

/** Reads an open handle (a regular file, up to `maxBytes`) and closes it. */
function readOpened(fd: number, maxBytes: number): Limited {
  try {
    const stats = fstatSync(fd);
    if (stats.isDirectory()) return { kind: 'directory', stats };
    if (!stats.isFile()) return { kind: 'not-a-file', stats };
    const size = stats.size;
    if (size > maxBytes) return { kind: 'too-large', size, stats };
    const bytes = Buffer.allocUnsafe(size);
    let off = 0;
    while (off < size) {
      const n = readSync(fd, bytes, off, size - off, off);
      if (n === 0) break;
      off += n;
    }
    return { kind: 'bytes', bytes: off === size ? bytes : bytes.subarray(0, off), stats };
  } catch (e) {
    return { kind: 'error', code: codeOf(e) };
  } finally {
    closeSync(fd);
  }
}

/** Folders pinned at once, at most: each holds a handle. */
const PINNED_MAX = 64;

/**
 * The folders of a batch of reads (a run's documents, a worker's chunk), each opened once and its handle
 * checked to lie inside the root, as `openInside` checks each file's: a file is then opened through its
 * folder's handle (/proc/self/fd/<folder>/<name>, with O_NOFOLLOW), which lies inside the root whatever
 * was swapped in on the way since, so the check of each file's own handle (a `readlink`, a fifth of the
 * reading) is not needed (docs/reliability.md, "Reading inside the root"). A folder is pinned at its
 * second read. A file read this way sees the
 * folder as it was pinned. Where /proc does not name handles, or a folder cannot be pinned, or the file
 * is a link, a read goes the usual way (`readInside`). `close()` when the batch is done.
 */
export class PinnedFolders {
  private readonly handles = new Map<string, number | null>();
  /** Folders read from once, not pinned yet. */
  private readonly seen = new Set<string>();

  constructor(private readonly realRoot: string) {}

  /** Reads `abs` as `readInside(abs, realRoot, maxBytes)` would, through its folder's pinned handle where it can. */
  read(abs: string, maxBytes: number): Limited {
    const slash = abs.lastIndexOf(sep);
    const folder = slash > 0 ? this.handleOf(abs.slice(0, slash)) : null;
    if (folder === null) return readInside(abs, this.realRoot, maxBytes);
    let fd: number;
    try {
      fd = openSync(`/proc/self/fd/${folder}/${abs.slice(slash + 1)}`, READ);
    } catch (e) {
      const code = codeOf(e);
      // A link at the end (ELOOP) is resolved and checked the usual way.
      if (code === 'ELOOP') return readInside(abs, this.realRoot, maxBytes);
      return code === 'ENOENT' ? { kind: 'gone' } : { kind: 'error', code };
    }
    return readOpened(fd, maxBytes);
  }

  /**
   * The handle of a folder inside the root, opened now or before; null when it cannot be pinned, and at
   * the first read from a folder: a folder read once (a skill's folder holds one SKILL.md) costs less
   * the usual way than opened, checked and closed.
   */
  private handleOf(dir: string): number | null {
    const known = this.handles.get(dir);
    if (known !== undefined) return known;
    if (!this.seen.has(dir)) {
      if (this.seen.size >= PINNED_MAX) this.seen.clear();
      this.seen.add(dir);
      return null;
    }
    if (procFd === false || this.handles.size >= PINNED_MAX) this.close();
    let fd: number | null = null;
    const opened = procFd === false ? null : openFolder(dir, 0);
    if (typeof opened === 'number') {
      try {
        const where = handlePath(opened);
        if (where !== null && isInside(this.realRoot, where)) fd = opened;
      } catch {
        // not named: read the usual way
      }
      if (fd === null) closeSync(opened);
    }
    this.handles.set(dir, fd);
    return fd;
  }

  /** Closes the handles. */
  close(): void {
    for (const fd of this.handles.values()) if (fd !== null) closeSync(fd);
    this.handles.clear();
  }
}

/** Why a rule file or a cache could not be read, as the end of a sentence ("cannot read X: <why>"). */
export function whyUnread(r: Exclude<Limited, { kind: 'bytes' }>, maxBytes: number): string {
  switch (r.kind) {
    case 'outside':
      return 'it resolves outside the root (through a symbolic link)';
    case 'broken':
      return 'it is a broken symbolic link';
    case 'gone':
      return 'it does not exist';
    case 'directory':
      return 'it is a folder, expected a file';
    case 'not-a-file':
      return 'it is not a regular file (FIFO, socket or device)';
    case 'too-large':
      return `its size ${r.size.toLocaleString('en-US')} bytes is over the limit of ${maxBytes.toLocaleString('en-US')} bytes`;
    case 'error':
      return r.code;
  }
}

export type Listing =
  /**
   * `real`: the folder's real path (where its handle lies). `held`: the folder's handle, still open, when
   * the listing was asked to hold it (ListWay.hold); the caller closes it.
   */
  | { kind: 'listed'; entries: Dirent[]; badNames: ReadonlySet<Dirent> | null; stats: Stats; real: string; held?: HeldFolder }
  | { kind: 'absent' }
  | { kind: 'outside' }
  | { kind: 'error'; code: string };

/** A folder inside the root, listed and still open: the folders its listing named are listed through it. */
export interface HeldFolder {
  fd: number;
  /** Its real path. */
  real: string;
}

/** How a folder is listed (listInside). */
export interface ListWay {
  /**
   * Named as a folder (not a link) by a listing of a folder inside the root: where /proc names handles,
   * the check of the handle alone proves where it is, and `realpath` (a `readlink` per folder of the
   * path) is not needed first.
   */
  entry?: boolean;
  /**
   * The held folder whose listing named it (as a folder, `name`): it is opened through that handle,
   * `/proc/self/fd/<parent>/<name>` without following a link at its end, and so lies inside the root
   * with no check of its own handle (docs/reliability.md, "Reading inside the root").
   */
  parent?: { folder: HeldFolder; name: string };
  /** Keep the folder's handle open for the listings below it (`held`; the caller closes it). */
  hold?: boolean;
}

/**
 * Lists a folder that must lie inside `realRoot`. It is resolved first (a folder outside is never opened,
 * so its names are never seen; `way.entry` and `way.parent`: see ListWay), opened, its handle checked,
 * and listed through that handle. Names are read as text; only when one holds U+FFFD is the folder listed
 * again as bytes, to tell a name that is not valid UTF-8 (in `badNames`, its `name` decoded lossily: it
 * must never be opened by that name).
 */
export function listInside(absDir: string, realRoot: string, way: ListWay = {}): Listing {
  let opened: number | { code: string } | null = null;
  /** The real path found before the open (where the handle is not checked on its own). */
  let checked: string | null = null;
  /** Where it lies when opened through its parent's handle: no check of its own handle is needed. */
  let throughParent: string | null = null;
  // Opened without following a link at its end: a link put there since goes the long way, as every link
  // does (Linux answers ENOTDIR, not ELOOP, for a link opened as a folder without following it).
  const parent = way.parent;
  if (parent !== undefined && procFd === true && NOFOLLOW !== 0) {
    opened = openFolder(`/proc/self/fd/${parent.folder.fd}/${parent.name}`, NOFOLLOW);
    if (typeof opened === 'number') throughParent = `${parent.folder.real}${sep}${parent.name}`;
    else if (opened.code === 'ELOOP' || opened.code === 'ENOTDIR') opened = null;
  } else if (way.entry === true && procFd === true && NOFOLLOW !== 0) {
    opened = openFolder(absDir, NOFOLLOW);
    if (typeof opened !== 'number' && (opened.code === 'ELOOP' || opened.code === 'ENOTDIR')) opened = null;
  }
  if (opened === null) {
    const target = resolved(absDir);
    if ('code' in target) return unlisted(target.code);
    if (!isInside(realRoot, target.real)) return { kind: 'outside' };
    checked = target.real;
    opened = openFolder(absDir, 0);
  }
  if (typeof opened !== 'number') return unlisted(opened.code);
  const fd = opened;
  let hold = false;
  try {
    const where = throughParent ?? handlePath(fd);
    if (where !== null && !isInside(realRoot, where)) return { kind: 'outside' };
    const stats = fstatSync(fd);
    const via = where === null ? absDir : `/proc/self/fd/${fd}`;
    const entries = readdirSync(via, { withFileTypes: true });
    const real = where ?? checked ?? absDir;
    // Held only where /proc names handles: elsewhere a listing below opens its folder by path.
    hold = way.hold === true && where !== null;
    const held = hold ? { held: { fd, real } } : {};
    for (const e of entries) if (e.name.includes('\uFFFD')) return { kind: 'listed', ...byteNames(via), stats, real, ...held };
    return { kind: 'listed', entries, badNames: null, stats, real, ...held };
  } catch (e) {
    hold = false;
    return { kind: 'error', code: codeOf(e) };
  } finally {
    if (!hold) closeSync(fd);
  }
}

function unlisted(code: string): Listing {
  return code === 'ENOENT' ? { kind: 'absent' } : { kind: 'error', code };
}

/** A folder's handle, or the error code of opening it. */
function openFolder(absDir: string, flags: number): number | { code: string } {
  try {
    return openSync(absDir, constants.O_RDONLY | DIRECTORY | NONBLOCK | flags);
  } catch (e) {
    return { code: codeOf(e) };
  }
}

function byteNames(via: string): { entries: Dirent[]; badNames: Set<Dirent> } {
  const raw = readdirSync(via, { withFileTypes: true, encoding: 'buffer' });
  const badNames = new Set<Dirent>();
  const entries = raw.map((d) => {
    const bytes = d.name;
    const name = bytes.toString('utf8');
    // Dirent is a plain class with a writable `name`: the lossy text stands in for the bytes.
    const entry = Object.assign(d, { name }) as unknown as Dirent;
    if (!Buffer.from(name, 'utf8').equals(bytes)) badNames.add(entry);
    return entry;
  });
  return { entries, badNames };
}

/** Sleeps a few milliseconds in a synchronous loop (a FIFO reader that is slow to drain). */
function pause(ms: number): void {
  Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);
}

function writeAll(fd: number, data: Uint8Array): void {
  let off = 0;
  while (off < data.length) {
    try {
      off += writeSync(fd, data, off, data.length - off);
    } catch (e) {
      // A non-blocking FIFO whose reader has not caught up yet.
      if (codeOf(e) !== 'EAGAIN') throw e;
      pause(5);
    }
  }
}

/** A problem writing a file, as the end of a sentence ("cannot write X: <message>"). */
export class WriteRefused extends Error {}

/**
 * A new temporary file beside `file` (same folder: the rename over it is atomic), open for writing.
 * O_EXCL refuses any existing entry, a planted link included: another random name is tried.
 */
function createTemp(file: string, mode: number): { fd: number; tmp: string } {
  const dir = dirname(file);
  for (let attempt = 0; ; attempt++) {
    const tmp = join(dir, `.${basename(file).replace(/^\./, '')}.${process.pid}.${Math.random().toString(36).slice(2, 10)}.tmp`);
    try {
      return { fd: openSync(tmp, constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | NOFOLLOW, mode), tmp };
    } catch (e) {
      if (codeOf(e) !== 'EEXIST' || attempt >= 8) throw e;
    }
  }
}

/**
 * Writes `data` to `file` by a temporary file created exclusively beside it and renamed over it: the
 * target is replaced, and a symlink at it (to anything) is replaced as a link, its target untouched.
 * An existing target that is neither a regular file nor a link (a folder, FIFO, device) is refused.
 * A regular file replaced keeps its permissions.
 */
export function replaceFile(file: string, data: Uint8Array): void {
  const existing = lstatSync(file, { throwIfNoEntry: false });
  if (existing?.isDirectory()) throw new WriteRefused('it is a folder, expected a file');
  if (existing && !existing.isFile() && !existing.isSymbolicLink()) throw new WriteRefused('it is not a regular file (FIFO, socket or device)');
  const dir = dirname(file);
  mkdirSync(dir, { recursive: true });
  const { fd: opened, tmp } = createTemp(file, 0o666);
  let fd = opened;
  try {
    if (existing?.isFile()) fchmodSync(fd, existing.mode & 0o777);
    writeAll(fd, data);
    closeSync(fd);
    fd = -1;
    renameSync(tmp, file);
  } catch (e) {
    if (fd >= 0) closeSync(fd);
    rmSync(tmp, { force: true });
    throw e;
  }
}

/**
 * A fault injected by tests only (`DOCGATE_TEST_FAULT`): `after-temp-write` kills this process with
 * SIGKILL between the temporary file and the rename (what a crash or a power cut there does);
 * `pause-before-write=<file>` waits, before a rewrite looks at its target, until `<file>` exists, so
 * that a test can change, remove or lock the target in the middle of a run.
 */
function testFault(point: 'after-temp-write' | 'pause-before-write'): void {
  const fault = process.env.DOCGATE_TEST_FAULT;
  if (fault === undefined) return;
  if (point === 'after-temp-write' && fault === point) process.kill(process.pid, 'SIGKILL');
  if (point === 'pause-before-write' && fault.startsWith(`${point}=`)) {
    const go = fault.slice(point.length + 1);
    process.stderr.write('docgate: test: paused before writing\n');
    while (lstatSync(go, { throwIfNoEntry: false }) === undefined) pause(10);
  }
}

/** Whether a file still holds exactly `bytes` (read through a checked handle inside `realDir`). */
function holds(file: string, realDir: string, bytes: Uint8Array): boolean {
  const now = readInside(file, realDir, bytes.length);
  return now.kind === 'bytes' && Buffer.compare(now.bytes, bytes) === 0;
}

/**
 * Rewrites a document in place, atomically (`lint --fix`): only while it still holds `original` (a file
 * changed on disk since it was read is not overwritten), never through a link, never a file without write
 * permission. The new text goes to a temporary file beside it (same folder, so the rename is atomic), with
 * the file's mode, flushed to disk (fsync), then renamed over it: the file is at every moment either
 * all old or all new. `stillThere` is asked right before the rename (a pinned folder still where it was
 * pinned: `PinnedFolder.stillThere`). Throws WriteRefused saying why it was not written.
 */
export function rewriteFile(file: string, realDir: string, original: Uint8Array, data: Uint8Array, stillThere: () => boolean = () => true): void {
  testFault('pause-before-write');
  const st = lstatSync(file, { throwIfNoEntry: false });
  if (!st) throw new WriteRefused('it vanished during the run');
  if (st.isSymbolicLink()) throw new WriteRefused('it is a symbolic link; fix the file it points to');
  if (!st.isFile()) throw new WriteRefused('it is not a regular file');
  // Without write permission for anyone it is read-only, even to root (who would pass access(2)).
  let writable = (st.mode & 0o222) !== 0;
  try {
    accessSync(file, constants.W_OK);
  } catch {
    writable = false;
  }
  if (!writable) throw new WriteRefused('it is read-only');
  if (!holds(file, realDir, original)) throw new WriteRefused('it changed on disk during the run');
  const dir = dirname(file);
  const { fd: opened, tmp } = createTemp(file, 0o600);
  let fd = opened;
  try {
    keepOwner(fd, st);
    // The permission bits only: a rewrite never carries a set-user-id, set-group-id or sticky bit
    // (docs/reliability.md, "Writes keep the owner").
    fchmodSync(fd, st.mode & 0o777);
    writeAll(fd, data);
    fsyncSync(fd);
    closeSync(fd);
    fd = -1;
    testFault('after-temp-write');
    // Checked again right before the rename: an editor that saved meanwhile keeps its bytes.
    if (!holds(file, realDir, original)) throw new WriteRefused('it changed on disk during the run');
    if (!stillThere()) throw new WriteRefused('its folder was moved during the run');
    renameSync(tmp, file);
  } catch (e) {
    if (fd >= 0) closeSync(fd);
    rmSync(tmp, { force: true });
    throw e;
  }
  syncFolder(dir);
}

/**
 * Gives the temporary file the owner and group of the file it replaces, where this process may (root
 * may; a user may give a file to a group of theirs). Where it may not, the rewrite is refused: renaming
 * a file of this user's over someone else's would hand their file to this user.
 */
function keepOwner(fd: number, st: Stats): void {
  const { uid, gid } = fstatSync(fd);
  if (uid === st.uid && gid === st.gid) return;
  try {
    fchownSync(fd, st.uid, st.gid);
  } catch {
    throw new WriteRefused(`it belongs to ${uid === st.uid ? `group ${st.gid}` : `user ${st.uid}`}, and a rewrite by this user cannot keep that`);
  }
}

/** Flushes a folder's entries (the rename) to disk; not every file system allows it, so it is best effort. */
function syncFolder(dir: string): void {
  let fd = -1;
  try {
    fd = openSync(dir, constants.O_RDONLY | DIRECTORY);
    fsyncSync(fd);
  } catch {
    // best effort
  } finally {
    if (fd >= 0) closeSync(fd);
  }
}

/**
 * Creates `file` with `data`, or refuses: an existing entry of that name (a file, a link planted there)
 * is never written over nor followed (O_EXCL with O_NOFOLLOW). For files docgate makes new, such as the
 * configuration `docgate init` writes.
 */
export function createNew(file: string, data: Uint8Array, mode: number): void {
  const fd = openSync(file, constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | NOFOLLOW, mode);
  try {
    writeAll(fd, data);
  } finally {
    closeSync(fd);
  }
}

/**
 * Writes to what the user named directly: a FIFO or a character device (/dev/null, a terminal), or a
 * name for one of this process's descriptors (/dev/stdout, a process substitution's /dev/fd/N). Opened
 * without blocking and without creating anything: a FIFO with no reader is an error, not a hang.
 */
export function writeDirect(file: string, data: Uint8Array): void {
  let fd: number;
  try {
    fd = openSync(file, constants.O_WRONLY | constants.O_TRUNC | NONBLOCK | (constants.O_NOCTTY ?? 0));
  } catch (e) {
    if (codeOf(e) === 'ENXIO') throw new WriteRefused('it is a FIFO with no reader');
    throw e;
  }
  try {
    if (fstatSync(fd).isDirectory()) throw new WriteRefused('it is a folder, expected a file');
    writeAll(fd, data);
  } finally {
    closeSync(fd);
  }
}

/**
 * Whether a symlink names a device or one of this process's descriptors rather than a file: it resolves
 * to a FIFO or character device, or into /proc (/dev/stdout -> /proc/self/fd/1, /dev/fd/N).
 */
export function namesDevice(file: string): boolean {
  try {
    const st = statSync(file);
    if (st.isFIFO() || st.isCharacterDevice()) return true;
  } catch {
    return false;
  }
  let link = '';
  try {
    link = readlinkSync(file);
  } catch {
    link = '';
  }
  const dir = resolved(dirname(file));
  return link.startsWith('/proc/') || ('real' in dir && dir.real.startsWith('/proc/'));
}

/**
 * Appends to a file that must be a regular file, not reached through a link at its end (the CI runner's
 * GITHUB_STEP_SUMMARY): created when absent, never a FIFO that blocks or a link to elsewhere.
 */
export function appendRegular(file: string, text: string): void {
  let fd: number;
  try {
    fd = openSync(file, constants.O_WRONLY | constants.O_APPEND | constants.O_CREAT | NOFOLLOW | NONBLOCK, 0o666);
  } catch (e) {
    const code = codeOf(e);
    if (code === 'ELOOP') throw new WriteRefused('it is a symbolic link, expected a regular file');
    if (code === 'ENXIO') throw new WriteRefused('it is not a regular file (FIFO, socket or device)');
    throw e;
  }
  try {
    if (!fstatSync(fd).isFile()) throw new WriteRefused('it is not a regular file (FIFO, socket or device)');
    writeAll(fd, Buffer.from(text, 'utf8'));
  } finally {
    closeSync(fd);
  }
}

/**
 * A folder below the root opened one name at a time, never through a link (the write tools of `docgate
 * mcp`, docs/mcp.md "Validated writes"). On Linux `via` is `/proc/self/fd/<fd>`: every path below it is
 * looked up in the very folder that was opened, so a folder on the way swapped for a link after the walk
 * (GHSA-53mr-w429-c597) redirects nothing. Elsewhere `via` is the folder's real path, each name checked
 * by an open without following links. Close it with `close()`.
 */
export interface PinnedFolder {
  via: string;
  /** The folder's real path when it was pinned. */
  real: string;
  /** Folders the walk created (outermost first), for `unmake()` when nothing was written into them. */
  made: string[];
  /** Whether the folder is still where it was pinned (its handle names the same path). */
  stillThere(): boolean;
  close(): void;
}

const FOLDER = constants.O_RDONLY | DIRECTORY | NOFOLLOW | NONBLOCK;

/** Why a name on the way to a folder cannot be walked through, as the end of a sentence. */
function unwalkable(at: string, rel: string, code: string): WriteRefused | null {
  if (code === 'ELOOP') return new WriteRefused(`${rel} is a symbolic link (a write never goes through one)`);
  if (code === 'ENOTDIR') {
    const st = lstatSync(at, { throwIfNoEntry: false });
    return new WriteRefused(st?.isSymbolicLink() ? `${rel} is a symbolic link (a write never goes through one)` : `${rel} is not a folder`);
  }
  if (code === 'ENOENT') return new WriteRefused(`its folder ${rel} does not exist`);
  return null;
}

/**
 * Opens the folder `rel` (root-relative, `/` separators, already checked to hold no `..`) below the real
 * root, refusing a link anywhere on the way; `create` makes the folders that are missing. Throws
 * WriteRefused saying why not.
 */
export function pinFolder(realRoot: string, rel: string, create: boolean): PinnedFolder {
  let fd = openSync(realRoot, constants.O_RDONLY | DIRECTORY);
  let real = realRoot;
  const made: string[] = [];
  try {
    const proc = handlePath(fd) !== null;
    const names = rel === '' ? [] : rel.split('/');
    for (let i = 0; i < names.length; i++) {
      const at = join(proc ? `/proc/self/fd/${fd}` : real, names[i]!);
      const shown = names.slice(0, i + 1).join('/');
      let child: number;
      try {
        child = openSync(at, FOLDER);
      } catch (e) {
        const code = codeOf(e);
        if (code !== 'ENOENT' || !create) throw unwalkable(at, shown, code) ?? e;
        mkdirSync(at, 0o777);
        made.push(join(real, names[i]!));
        child = openSync(at, FOLDER);
      }
      closeSync(fd);
      fd = child;
      real = join(real, names[i]!);
    }
    const where = handlePath(fd);
    if (where !== null && where !== real) throw new WriteRefused(`${rel} moved while it was opened`);
  } catch (e) {
    closeSync(fd);
    unmake(made);
    throw e;
  }
  const pinned = fd;
  let open = true;
  return {
    via: handlePath(pinned) === null ? real : `/proc/self/fd/${pinned}`,
    real,
    made,
    stillThere: () => {
      const where = handlePath(pinned);
      return where === null ? lstatSync(real, { throwIfNoEntry: false })?.isDirectory() === true : where === real;
    },
    close: () => {
      if (open) closeSync(pinned);
      open = false;
    },
  };
}

/** Removes folders a walk made, innermost first, while they are empty (best effort). */
export function unmake(made: readonly string[]): void {
  for (const dir of [...made].reverse()) {
    try {
      rmdirSync(dir);
    } catch {
      return;
    }
  }
}

/**
 * Creates `file` holding `data`, atomically and only if nothing is at its name: the bytes go to a
 * temporary file beside it (flushed), which is then hard-linked at the name (link(2) refuses any
 * existing entry, a link planted there included, in every process) and removed. A file system without
 * hard links gets the rename instead, after a look that the name is free. Never leaves the temporary file.
 */
export function publishNew(file: string, data: Uint8Array, stillThere: () => boolean = () => true): void {
  const { fd: opened, tmp } = createTemp(file, 0o666);
  let fd = opened;
  try {
    writeAll(fd, data);
    fsyncSync(fd);
    closeSync(fd);
    fd = -1;
    if (!stillThere()) throw new WriteRefused('its folder was moved during the run');
    try {
      linkSync(tmp, file);
    } catch (e) {
      const code = codeOf(e);
      if (code === 'EEXIST') throw new WriteRefused('it exists');
      if (code !== 'EPERM' && code !== 'ENOTSUP' && code !== 'EOPNOTSUPP') throw e;
      if (lstatSync(file, { throwIfNoEntry: false })) throw new WriteRefused('it exists');
      renameSync(tmp, file);
    }
  } finally {
    if (fd >= 0) closeSync(fd);
    rmSync(tmp, { force: true });
  }
  syncFolder(dirname(file));
}
