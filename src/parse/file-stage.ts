/**
 * The first layer of every file: how it was found and read, and how its bytes decode. The file rules
 * (file-bom, file-encoding, file-nul, file-size, file-type, file-symlink, file-read, file-unmerged,
 * file-name) report from it; a file with any of these defects but a bad name is not parsed further.
 */
import { Buffer, isUtf8 } from 'node:buffer';
import type { Pos } from '../model/position.js';

/** What stands where readable bytes were expected. */
export type FileProblem =
  | { type: 'directory' }
  | { type: 'symlink-outside' }
  /** A broken link, or an entry that cannot be examined. */
  | { type: 'unreadable' }
  /** A FIFO, socket or device. */
  | { type: 'special' }
  | { type: 'read-error'; code: string }
  | { type: 'too-large'; size: number; limit: number }
  /** A name that is not valid UTF-8 (never opened by its lossy name). */
  | { type: 'bad-name' }
  /** A path in conflict in the git index (stages 1–3): `--staged` has no blob of it to read. */
  | { type: 'unmerged' }
  /** The path is a kind or language folder that resolves outside the root: never listed. */
  | { type: 'folder-outside'; kind: string }
  /** The path is a kind or language folder that cannot be listed. */
  | { type: 'folder-unreadable'; code: string };

/** What decoding the bytes as UTF-8 found (UTF-8, no BOM, no NUL: docs/formats.md, "What every file must be"). */
export interface Decoding {
  bom: boolean;
  /** The first byte that is not valid UTF-8 (null: the file ends inside a sequence). */
  invalid: { at: Pos; byte: number | null } | null;
  /** The first NUL byte (looked for only in valid UTF-8). */
  nul: Pos | null;
}

export interface FileStage {
  /** Root-relative path. */
  path: string;
  problem: FileProblem | null;
  /** Null when the bytes were not read (a problem). */
  decoding: Decoding | null;
  /** The decoded text and the bytes it was decoded from, when they decode cleanly (absent otherwise). */
  text?: string;
  bytes?: Uint8Array;
  /** The kind's file-name rule for this root, or null when the kind has none. */
  fileName: FileNameRule | null;
}

export interface FileNameRule {
  /** Matched against the file name without its extension (a configured pattern runs in linear time). */
  pattern: { test(s: string): boolean };
  /** Words for what a name must look like, e.g. "lowercase letters and digits only, such as `readme.txt`". */
  expected: string;
}

const decoder = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });

/** Byte offset of the first byte that does not start or continue a valid UTF-8 sequence. */
function firstInvalidUtf8(bytes: Uint8Array): number {
  let i = 0;
  while (i < bytes.length) {
    const b = bytes[i]!;
    let need = 0;
    let min = 0;
    if (b < 0x80) {
      i++;
      continue;
    } else if (b >= 0xc2 && b <= 0xdf) {
      need = 1;
      min = 0x80;
    } else if (b >= 0xe0 && b <= 0xef) {
      need = 2;
      min = 0x800;
    } else if (b >= 0xf0 && b <= 0xf4) {
      need = 3;
      min = 0x10000;
    } else return i;
    let cp = b & (0xff >> (need + 2));
    for (let k = 1; k <= need; k++) {
      const c = bytes[i + k];
      if (c === undefined || (c & 0xc0) !== 0x80) return i;
      cp = (cp << 6) | (c & 0x3f);
    }
    if (cp < min || cp > 0x10ffff || (cp >= 0xd800 && cp <= 0xdfff)) return i;
    i += need + 1;
  }
  return bytes.length;
}

/** 1-based line and UTF-16 column of a byte offset whose prefix is valid UTF-8. */
function positionOfByte(bytes: Uint8Array, offset: number): Pos {
  const prefix = decoder.decode(bytes.subarray(0, offset));
  let line = 1;
  for (let i = prefix.indexOf('\n'); i !== -1; i = prefix.indexOf('\n', i + 1)) line++;
  return { line, column: prefix.length - prefix.lastIndexOf('\n') };
}

/**
 * The text of bytes that are UTF-8, a byte order mark kept as the character it is; null otherwise. Once
 * `isUtf8` has passed, Buffer's decoder gives the same text as a fatal TextDecoder, without validating a
 * second time.
 */
export function utf8Text(bytes: Uint8Array): string | null {
  return isUtf8(bytes) ? Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('utf8') : null;
}

/** Decodes a file's bytes: the text when they are clean UTF-8, and what is wrong with them. */
export function decode(bytes: Uint8Array): { decoding: Decoding; text: string | null } {
  const bom = bytes.length >= 3 && bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf;
  const text = utf8Text(bytes);
  if (text === null) {
    const at = firstInvalidUtf8(bytes);
    return { decoding: { bom, invalid: { at: positionOfByte(bytes, at), byte: at < bytes.length ? bytes[at]! : null }, nul: null }, text: null };
  }
  // A NUL is looked for in the text (one search of the string); its byte offset only when there is one.
  const nulAt = text.includes('\u0000') ? bytes.indexOf(0) : -1;
  const nul = nulAt === -1 ? null : positionOfByte(bytes, nulAt);
  const decoding = { bom, invalid: null, nul };
  return { decoding, text: bom || nul ? null : text };
}
