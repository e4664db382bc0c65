import { statSync } from 'node:fs';
import type { Stats } from 'node:fs';
import { createRequire } from 'node:module';
import { readInside } from './safe-fs.js';
import type { PinnedFolders } from './safe-fs.js';

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

/** How close to a run's start a modification makes a cached stat untrustworthy (coarse file-system clocks). */
export const RACY_WINDOW_MS = 2000;

/**
 * Whether a stat identity (its first field is the mtime) was last changed well before `time`: outside the
 * racy window, a second change in the same timestamp tick can no longer look unchanged.
 */
export function settledBefore(identity: string, time: number): boolean {
  const mtime = Number.parseFloat(identity);
  return Number.isFinite(mtime) && mtime < time - RACY_WINDOW_MS;
}

/** node:crypto, loaded on first use (≈ 5 ms): a one-file lint that hits the cache hashes nothing. */
function crypto(): typeof import('node:crypto') {
  return require('node:crypto') as typeof import('node:crypto');
}

/** SHA-1 of a file's bytes (the lint cache's content hash). */
export function contentHash(bytes: Uint8Array): string {
  return crypto().createHash('sha1').update(bytes).digest('base64');
}

/** SHA-256 of a text or of bytes, in hex. */
export function sha256(data: string | Uint8Array): string {
  return crypto().createHash('sha256').update(data).digest('hex');
}

export type ReadOutcome =
  | { kind: 'bytes'; bytes: Buffer; identity: string }
  | { kind: 'too-large'; size: number; identity: string }
  | { kind: 'directory'; identity: string }
  | { kind: 'not-a-file'; identity: string }
  /** A symlink (at the end, or a folder on the way) that resolves outside the root: never read. */
  | { kind: 'outside' }
  /** A symlink at the end whose target does not exist. */
  | { kind: 'broken' }
  | { kind: 'gone' }
  | { kind: 'error'; code: string };

/**
 * Reads a document through one handle checked to lie inside `realRoot` (safe-fs.ts): stat first (size
 * limit and identity come from the same handle the bytes come from), then the bytes. A file larger than
 * `maxBytes` is not read at all.
 */
export function readLimited(abs: string, maxBytes: number, realRoot: string, pins?: PinnedFolders): ReadOutcome {
  const r = pins ? pins.read(abs, maxBytes) : readInside(abs, realRoot, maxBytes);
  switch (r.kind) {
    case 'bytes':
      return { kind: 'bytes', bytes: r.bytes, identity: statIdentity(r.stats) };
    case 'too-large':
      return { kind: 'too-large', size: r.size, identity: statIdentity(r.stats) };
    case 'directory':
    case 'not-a-file':
      return { kind: r.kind, identity: statIdentity(r.stats) };
    default:
      return r;
  }
}
