import { isUtf8 } from 'node:buffer';
import type { Diagnostic } from './types.js';

/** Result of turning a file's bytes into text: either the text, or the file-level diagnostics that stop parsing. */
export type DecodeResult = { ok: true; text: string } | { ok: false; diagnostics: Diagnostic[] };

const decoder = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });

/** Byte offset of the first byte that does not start or continue a valid UTF-8 sequence. */
function firstInvalidUtf8(bytes: Uint8Array): number {
  let i = 0;
  while (i < bytes.length) {
    const b = bytes[i]!;
    let need = 0;
    let min = 0;
    if (b < 0x80) { i++; continue; }
    else if (b >= 0xc2 && b <= 0xdf) { need = 1; min = 0x80; }
    else if (b >= 0xe0 && b <= 0xef) { need = 2; min = 0x800; }
    else if (b >= 0xf0 && b <= 0xf4) { need = 3; min = 0x10000; }
    else return i;
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
function positionOfByte(bytes: Uint8Array, offset: number): { line: number; column: number } {
  const prefix = decoder.decode(bytes.subarray(0, offset));
  const lastNl = prefix.lastIndexOf('\n');
  let line = 1;
  for (let i = prefix.indexOf('\n'); i !== -1; i = prefix.indexOf('\n', i + 1)) line++;
  return { line, column: prefix.length - lastNl };
}

/**
 * Checks the encoding rules every kind shares (SPEC §5): UTF-8, no BOM, no NUL bytes.
 * All encoding defects are reported together; any of them stops further parsing of the file.
 */
export function decodeContent(bytes: Uint8Array): DecodeResult {
  const diagnostics: Diagnostic[] = [];
  const hasBom = bytes.length >= 3 && bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf;
  if (hasBom) {
    diagnostics.push({ line: 1, column: 1, rule: 'file-bom', message: 'Unexpected byte order mark (BOM), expected UTF-8 without a BOM' });
  }
  if (!isUtf8(bytes)) {
    const at = firstInvalidUtf8(bytes);
    const pos = positionOfByte(bytes, at);
    const hex = at < bytes.length ? `0x${bytes[at]!.toString(16).padStart(2, '0')}` : 'end of file';
    diagnostics.push({ ...pos, rule: 'file-encoding', message: `Unexpected byte ${hex} that is not valid UTF-8, expected UTF-8 text` });
    return { ok: false, diagnostics };
  }
  const nul = bytes.indexOf(0);
  if (nul !== -1) {
    const pos = positionOfByte(bytes, nul);
    diagnostics.push({ ...pos, rule: 'file-nul', message: 'Unexpected NUL byte, expected text without NUL bytes' });
  }
  if (diagnostics.length > 0) return { ok: false, diagnostics };
  return { ok: true, text: decoder.decode(bytes) };
}

/** Thousands separators for byte sizes in messages and listings (`2,156`). */
export function formatBytes(n: number): string {
  return n.toLocaleString('en-US');
}
