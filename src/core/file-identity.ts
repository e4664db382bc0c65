import { closeSync, constants, fstatSync, openSync, readSync, statSync } from 'node:fs';
import type { Stats } from 'node:fs';
import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);

/**
 * mtime, ctime (milliseconds with their sub-millisecond fraction), size and inode: a file rewritten in
 * place gets a new identity. (Number stats: BigInt ones cost a sixth of a one-file lint at 10k files.)
 */
export function statIdentity(st: Stats): string {
  return `${st.mtimeMs}:${st.ctimeMs}:${st.size}:${st.ino}`;
}

/** The stat identity of a path, or null when it is gone. */
export function identityOf(abs: string): string | null {
  try {
    const st = statSync(abs, { throwIfNoEntry: false });
    return st ? statIdentity(st) : null;
  } catch {
    return null; // unreadable parent, loop of links, …: treated like a file that is gone
  }
}

/** node:crypto, loaded on first use (≈ 5 ms): a one-file lint that hits the cache hashes nothing. */
function crypto(): typeof import('node:crypto') {
  return require('node:crypto') as typeof import('node:crypto');
}

/** SHA-1 of a file's bytes (the lint cache's content hash). */
export function contentHash(bytes: Uint8Array): string {
  return crypto().createHash('sha1').update(bytes).digest('base64');
}

/** SHA-256 of a text, in hex. */
export function sha256(text: string): string {
  return crypto().createHash('sha256').update(text).digest('hex');
}

export type ReadOutcome =
  | { kind: 'bytes'; bytes: Buffer; identity: string }
  | { kind: 'too-large'; size: number; identity: string }
  | { kind: 'directory'; identity: string }
  | { kind: 'not-a-file'; identity: string }
  | { kind: 'gone' }
  | { kind: 'error'; code: string };

/**
 * Reads a file through one handle: stat first (size limit and identity come from the same handle the
 * bytes come from), then the bytes. A file larger than `maxBytes` is not read at all.
 */
export function readLimited(abs: string, maxBytes: number): ReadOutcome {
  let fd: number;
  try {
    // O_NONBLOCK: a FIFO swapped in after discovery must not block the open (regular files ignore it).
    fd = openSync(abs, constants.O_RDONLY | constants.O_NONBLOCK);
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code ?? 'EIO';
    return code === 'ENOENT' ? { kind: 'gone' } : { kind: 'error', code };
  }
  try {
    const st = fstatSync(fd);
    const identity = statIdentity(st);
    if (st.isDirectory()) return { kind: 'directory', identity };
    if (!st.isFile()) return { kind: 'not-a-file', identity };
    const size = st.size;
    if (size > maxBytes) return { kind: 'too-large', size, identity };
    const bytes = Buffer.allocUnsafe(size);
    let off = 0;
    while (off < size) {
      const n = readSync(fd, bytes, off, size - off, off);
      if (n === 0) break;
      off += n;
    }
    return { kind: 'bytes', bytes: off === size ? bytes : bytes.subarray(0, off), identity };
  } catch (e) {
    return { kind: 'error', code: (e as NodeJS.ErrnoException).code ?? (e as Error).message };
  } finally {
    closeSync(fd);
  }
}
