import type { Analysis, Facts } from './analysis.js';
import { baseName, fileId } from './analysis.js';
import { contentHash, readLimited } from './file-identity.js';
import type { ReadOutcome } from './file-identity.js';
import type { FileRef } from './layout.js';
import { FILE_START, diag } from './position.js';
import type { RuleSet } from './schemas.js';
import { decodeContent, formatBytes } from './text.js';
import type { Diagnostic, Kind } from './types.js';
import { analyzeDocument } from '../engine/analyze-file.js';
import { builtinKind, kindData } from '../kinds/index.js';
import { analyzeSysrs } from '../kinds/sysrs/index.js';

/** Largest file read per kind; larger files are refused by size without being read (SPEC §2.1, §5). */
export const MAX_BYTES: Record<Kind, number> = {
  template: 50 * 1024 - 1,
  framework: 2 * 1024 * 1024,
  process: 2 * 1024 * 1024,
  sysrs: 2 * 1024 * 1024,
};

function emptyFacts(kind: Kind, path: string, lang: string | null): Facts {
  switch (kind) {
    case 'template': return { kind, storeAs: null, placeholders: [] };
    case 'framework': return { kind };
    case 'process': return { kind, name: null };
    case 'sysrs': return { kind, id: null, lang, file: baseName(path) };
  }
}

/** An analysis that stops at a file-level defect (encoding, size, not a file). */
export function fileFailure(ref: Pick<FileRef, 'path' | 'kind' | 'lang'>, diagnostics: Diagnostic[]): Analysis {
  return { path: ref.path, kind: ref.kind, id: fileId(ref.kind, ref.path), diagnostics, facts: emptyFacts(ref.kind, ref.path, ref.lang), doc: null };
}

/** Analyzes one document given as bytes: encoding, then the kind's own rules. Pure: no I/O. */
export function analyzeBytes(ref: Pick<FileRef, 'path' | 'kind' | 'lang'>, bytes: Uint8Array, rules: RuleSet, withBody = true): Analysis {
  const kind = builtinKind(ref.kind);
  if (kind) return analyzeDocument(kind, kindData(kind, rules), ref, bytes, withBody);
  const decoded = decodeContent(bytes);
  if (!decoded.ok) return fileFailure(ref, decoded.diagnostics);
  const file = { path: ref.path, lang: ref.lang, text: decoded.text, size: bytes.length };
  switch (ref.kind) {
    default: throw new Error(`no analyzer for ${ref.kind}`);
    case 'sysrs': return analyzeSysrs(file, rules, withBody);
  }
}

function sizeFailure(ref: FileRef, size: number): Analysis {
  const limit = MAX_BYTES[ref.kind] + 1;
  return fileFailure(ref, [diag(FILE_START, 'file-size', `Unexpected file size ${formatBytes(size)} bytes, expected less than ${formatBytes(limit)} bytes`)]);
}

const PROBLEM_MESSAGES: Record<NonNullable<FileRef['problem']>, [string, string]> = {
  directory: ['file-type', 'Unexpected directory named like a document, expected a regular file'],
  'symlink-outside': ['file-symlink', 'Unexpected symbolic link to a target outside the root, expected a file inside the root'],
  unreadable: ['file-read', 'Unexpected entry that cannot be read (broken link?), expected a readable file'],
};

/** An analysis with what a cache needs to know it is still valid. */
export interface IdentifiedAnalysis {
  analysis: Analysis;
  /** Stat identity of the file read (or of the problem), and the hash of its bytes when they were read. */
  identity: string;
  hash: string | null;
}

/**
 * Reads and analyzes one discovered document. Returns null when the file vanished between discovery
 * and read (it is then omitted, counted nowhere). The size is checked on the open handle before reading.
 */
export function analyzeFileIdentified(ref: FileRef, rules: RuleSet, withBody = true): IdentifiedAnalysis | null {
  if (ref.problem) {
    const [rule, message] = PROBLEM_MESSAGES[ref.problem];
    return { analysis: fileFailure(ref, [diag(FILE_START, rule, message)]), identity: `problem:${ref.problem}`, hash: null };
  }
  return analyzeRead(ref, readLimited(ref.abs, MAX_BYTES[ref.kind]), rules, withBody);
}

/** Analyzes what `readLimited` got for a document; `hash` when the caller hashed the bytes already. */
export function analyzeRead(ref: FileRef, read: ReadOutcome, rules: RuleSet, withBody = true, hash?: string): IdentifiedAnalysis | null {
  switch (read.kind) {
    case 'gone':
      return null;
    case 'error':
      return { analysis: fileFailure(ref, [diag(FILE_START, 'file-read', `Unexpected read error ${read.code}, expected a readable file`)]), identity: `error:${read.code}`, hash: null };
    case 'directory':
      return { analysis: fileFailure(ref, [diag(FILE_START, ...PROBLEM_MESSAGES.directory)]), identity: read.identity, hash: null };
    case 'not-a-file':
      return { analysis: fileFailure(ref, [diag(FILE_START, 'file-read', 'Unexpected special file (FIFO, socket or device), expected a regular file')]), identity: read.identity, hash: null };
    case 'too-large':
      return { analysis: sizeFailure(ref, read.size), identity: read.identity, hash: null };
    case 'bytes':
      return { analysis: analyzeBytes(ref, read.bytes, rules, withBody), identity: read.identity, hash: hash ?? contentHash(read.bytes) };
  }
}

export function analyzeFile(ref: FileRef, rules: RuleSet, withBody = true): Analysis | null {
  return analyzeFileIdentified(ref, rules, withBody)?.analysis ?? null;
}
