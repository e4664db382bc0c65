import type { Analysis } from '../model/analysis.js';
import { contentHash, readLimited } from '../io/file-identity.js';
import type { ReadOutcome } from '../io/file-identity.js';
import { realRootOf } from '../io/layout.js';
import type { FileRef, Problem } from '../io/layout.js';
import type { PinnedFolders } from '../io/safe-fs.js';
import { capDiagnostics } from '../model/result.js';
import { detached } from '../model/detach.js';
import type { Kind } from '../model/types.js';
import { analyzeDocument, fileFailure, parseDocument } from '../engine/analyze-file.js';
import type { FileProblem } from '../parse/file-stage.js';
import type { AnyKind } from '../engine/kind.js';
import type { Project } from '../project/project.js';

function kindOf(project: Project, name: Kind): AnyKind {
  const kind = project.kind(name);
  if (!kind) throw new Error(`no kind ${name} in the project`);
  return kind;
}

/** Largest file read of a kind; larger files are refused by size without being read (docs/formats.md, "What every file must be"). */
export function maxBytes(project: Project, kind: Kind): number {
  return kindOf(project, kind).maxBytes;
}

/** An analysis that stops at a file-level defect: what stood where readable bytes were expected. */
export function problemFailure(ref: Pick<FileRef, 'path' | 'kind' | 'lang'>, problem: FileProblem, project: Project): Analysis {
  const kind = kindOf(project, ref.kind);
  return fileFailure(kind, project.data(kind), ref, problem, undefined, project.severityFor(ref.path));
}

/**
 * Analyzes one document given as bytes: encoding, then the kind's own rules. Pure: no I/O. Its own
 * diagnostics are capped here to the ones its result can show (see `capDiagnostics`).
 */
export function analyzeBytes(ref: Pick<FileRef, 'path' | 'kind' | 'lang'>, bytes: Uint8Array, project: Project, withBody = true, keepDoc = true): Analysis {
  const kind = kindOf(project, ref.kind);
  const analysis = analyzeDocument(kind, project.data(kind), ref, bytes, withBody, project.severityFor(ref.path), keepDoc);
  // What memos and the rules across files keep, detached from the file's text (the parsed document,
  // served by MCP, is left as it is: it lives only as long as the text does).
  analysis.diagnostics = detached(capDiagnostics(analysis.diagnostics));
  analysis.id = detached(analysis.id);
  analysis.facts = detached(analysis.facts);
  if (analysis.directives) analysis.directives = { list: detached(analysis.directives.list), used: analysis.directives.used };
  return analysis;
}

/**
 * The parsed document of a file whose analysis passed, read and parsed again (the MCP server keeps rows,
 * not documents: src/lint/row.ts). Null when it cannot be read now or no longer parses into a document.
 */
export function documentOf(ref: FileRef, project: Project): unknown {
  if (ref.problem) return null;
  const read = readLimited(ref.abs, maxBytes(project, ref.kind), realRootOf(ref));
  if (read.kind !== 'bytes') return null;
  const kind = kindOf(project, ref.kind);
  return parseDocument(kind, project.data(kind), ref, read.bytes);
}

/** What discovery found instead of a file (layout.ts `Problem`). */
function discoveryProblem(ref: FileRef, problem: Problem): FileProblem {
  switch (problem) {
    case 'folder-unreadable':
      return { type: 'folder-unreadable', code: ref.code ?? 'EIO' };
    case 'folder-outside':
      return { type: 'folder-outside', kind: ref.kind };
    default:
      return { type: problem };
  }
}

/** An analysis with what a cache needs to know it is still valid. */
export interface IdentifiedAnalysis {
  analysis: Analysis;
  /** Stat identity of the file read (or of the problem), and the hash of its bytes when they were read. */
  identity: string;
  hash: string | null;
}

/** The analysis of a document discovery found to be no readable file (a folder, a link out of the root, …). */
export function discoveryFailure(ref: FileRef, problem: Problem, project: Project): IdentifiedAnalysis {
  return { analysis: problemFailure(ref, discoveryProblem(ref, problem), project), identity: `problem:${problem}`, hash: null };
}

/** How a document is analyzed (analyzeRead, analyzeFileIdentified); a flag left out is true. */
export interface AnalysisWay {
  /** Its body too, not only what its facts need (a document the run reports). */
  withBody?: boolean;
  /** Its content hash is made (false when nothing will keep it: a lint without a cache; it is then null). */
  hashing?: boolean;
  /** The hash of its bytes, when the caller made it already. */
  hash?: string;
  /** Its parsed document is made (false when nothing reads it: a lint drops it). */
  keepDoc?: boolean;
  /** The folders pinned for a batch of reads (safe-fs.ts `PinnedFolders`). */
  pins?: PinnedFolders;
}

/**
 * Reads and analyzes one discovered document. Returns null when the file vanished between discovery
 * and read (it is then omitted, counted nowhere). The size is checked on the open handle before reading.
 */
export function analyzeFileIdentified(ref: FileRef, project: Project, way: AnalysisWay = {}): IdentifiedAnalysis | null {
  if (ref.problem) return discoveryFailure(ref, ref.problem, project);
  return analyzeRead(ref, readLimited(ref.abs, maxBytes(project, ref.kind), realRootOf(ref), way.pins), project, way);
}

/** Analyzes what `readLimited` got for a document. */
export function analyzeRead(ref: FileRef, read: ReadOutcome, project: Project, way: AnalysisWay = {}): IdentifiedAnalysis | null {
  switch (read.kind) {
    case 'gone':
      return null;
    case 'error':
      return { analysis: problemFailure(ref, { type: 'read-error', code: read.code }, project), identity: `error:${read.code}`, hash: null };
    case 'directory':
      return { analysis: problemFailure(ref, { type: 'directory' }, project), identity: read.identity, hash: null };
    case 'not-a-file':
      return { analysis: problemFailure(ref, { type: 'special' }, project), identity: read.identity, hash: null };
    case 'outside':
      return { analysis: problemFailure(ref, { type: 'symlink-outside' }, project), identity: 'problem:symlink-outside', hash: null };
    case 'broken':
      return { analysis: problemFailure(ref, { type: 'unreadable' }, project), identity: 'problem:unreadable', hash: null };
    case 'too-large':
      return {
        analysis: problemFailure(ref, { type: 'too-large', size: read.size, limit: maxBytes(project, ref.kind) + 1 }, project),
        identity: read.identity,
        hash: null,
      };
    case 'bytes':
      return {
        analysis: analyzeBytes(ref, read.bytes, project, way.withBody ?? true, way.keepDoc ?? true),
        identity: read.identity,
        hash: way.hash ?? (way.hashing === false ? null : contentHash(read.bytes)),
      };
  }
}

export function analyzeFile(ref: FileRef, project: Project, withBody = true): Analysis | null {
  return analyzeFileIdentified(ref, project, { withBody })?.analysis ?? null;
}
