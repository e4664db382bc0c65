import type { Analysis, Facts } from './analysis.js';
import { baseName, fileId } from './analysis.js';
import { contentHash, readLimited } from './file-identity.js';
import type { ReadOutcome } from './file-identity.js';
import { realRootOf } from './layout.js';
import type { FileRef, Problem } from './layout.js';
import { FILE_START, diag } from './position.js';
import type { RuleSet } from './schemas.js';
import { capDiagnostics } from './result.js';
import { decodeContent, formatBytes } from './text.js';
import type { Diagnostic, Kind } from './types.js';
import { analyzeFramework } from '../kinds/framework.js';
import { analyzeProcess } from '../kinds/process.js';
import { analyzeSysrs } from '../kinds/sysrs/index.js';
import { analyzeTemplate } from '../kinds/template.js';

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

/**
 * Analyzes one document given as bytes: encoding, then the kind's own rules. Pure: no I/O. Its own
 * diagnostics are capped here to the ones its result can show (see `capDiagnostics`).
 */
export function analyzeBytes(ref: Pick<FileRef, 'path' | 'kind' | 'lang'>, bytes: Uint8Array, rules: RuleSet, withBody = true): Analysis {
  const analysis = analyzeText(ref, bytes, rules, withBody);
  analysis.diagnostics = capDiagnostics(analysis.diagnostics);
  return analysis;
}

function analyzeText(ref: Pick<FileRef, 'path' | 'kind' | 'lang'>, bytes: Uint8Array, rules: RuleSet, withBody: boolean): Analysis {
  const decoded = decodeContent(bytes);
  if (!decoded.ok) return fileFailure(ref, decoded.diagnostics);
  const file = { path: ref.path, lang: ref.lang, text: decoded.text, size: bytes.length };
  switch (ref.kind) {
    case 'template': return analyzeTemplate(file, rules);
    case 'framework': return analyzeFramework(file);
    case 'process': return analyzeProcess(file, rules);
    case 'sysrs': return analyzeSysrs(file, rules, withBody);
  }
}

function sizeFailure(ref: FileRef, size: number): Analysis {
  const limit = MAX_BYTES[ref.kind] + 1;
  return fileFailure(ref, [diag(FILE_START, 'file-size', `Unexpected file size ${formatBytes(size)} bytes, expected less than ${formatBytes(limit)} bytes`)]);
}

/** The rule and message of an entry that is not read (layout.ts `Problem`). */
function problemMessage(ref: FileRef, problem: Problem): [string, string] {
  switch (problem) {
    case 'directory': return ['file-type', 'Unexpected directory named like a document, expected a regular file'];
    case 'symlink-outside': return ['file-symlink', 'Unexpected symbolic link to a target outside the root, expected a file inside the root'];
    case 'unreadable': return ['file-read', 'Unexpected entry that cannot be read (broken link?), expected a readable file'];
    case 'special': return ['file-read', 'Unexpected special file (FIFO, socket or device), expected a regular file'];
    case 'bad-name': return ['file-name', 'Unexpected file name that is not valid UTF-8, expected a UTF-8 file name'];
    case 'folder-outside': return ['file-symlink', `Unexpected folder that resolves outside the root (through a symbolic link), expected the ${ref.kind} folder inside the root`];
    case 'folder-unreadable': return ['file-read', `Unexpected folder that cannot be listed (${ref.code ?? 'EIO'}), expected a readable folder`];
  }
}

function problemFailure(ref: FileRef, problem: Problem): Analysis {
  return fileFailure(ref, [diag(FILE_START, ...problemMessage(ref, problem))]);
}

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
  if (ref.problem) return { analysis: problemFailure(ref, ref.problem), identity: `problem:${ref.problem}`, hash: null };
  return analyzeRead(ref, readLimited(ref.abs, MAX_BYTES[ref.kind], realRootOf(ref)), rules, withBody);
}

/** Analyzes what `readLimited` got for a document; `hash` when the caller hashed the bytes already. */
export function analyzeRead(ref: FileRef, read: ReadOutcome, rules: RuleSet, withBody = true, hash?: string): IdentifiedAnalysis | null {
  switch (read.kind) {
    case 'gone':
      return null;
    case 'error':
      return { analysis: fileFailure(ref, [diag(FILE_START, 'file-read', `Unexpected read error ${read.code}, expected a readable file`)]), identity: `error:${read.code}`, hash: null };
    case 'directory':
      return { analysis: problemFailure(ref, 'directory'), identity: read.identity, hash: null };
    case 'not-a-file':
      return { analysis: problemFailure(ref, 'special'), identity: read.identity, hash: null };
    case 'outside':
      return { analysis: problemFailure(ref, 'symlink-outside'), identity: 'problem:symlink-outside', hash: null };
    case 'broken':
      return { analysis: problemFailure(ref, 'unreadable'), identity: 'problem:unreadable', hash: null };
    case 'too-large':
      return { analysis: sizeFailure(ref, read.size), identity: read.identity, hash: null };
    case 'bytes':
      return { analysis: analyzeBytes(ref, read.bytes, rules, withBody), identity: read.identity, hash: hash ?? contentHash(read.bytes) };
  }
}

export function analyzeFile(ref: FileRef, rules: RuleSet, withBody = true): Analysis | null {
  return analyzeFileIdentified(ref, rules, withBody)?.analysis ?? null;
}
