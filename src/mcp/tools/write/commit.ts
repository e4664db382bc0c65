/**
 * How the write tools write (docs/mcp.md, "Validated writes"): one writer at a time per root; the
 * current bytes read through a folder pinned below the root (no link anywhere on the way); the new text
 * validated as check_content validates it; written atomically by safe-fs (temporary file and rename in
 * the same folder, mode and owner kept) only while the file still holds the bytes read; then the
 * repository told, so that every tool sees the new text at once.
 */
import { lstatSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import { sha256 } from '../../../io/file-identity.js';
import type { FileRef } from '../../../io/layout.js';
import { WriteRefused, pinFolder, publishNew, readInside, realFolder, rewriteFile, unmake } from '../../../io/safe-fs.js';
import type { PinnedFolder } from '../../../io/safe-fs.js';
import { maxBytes } from '../../../lint/analyze.js';
import type { Diagnostic, ParseFailureResult } from '../../../model/types.js';
import { renderError } from '../../../model/result.js';
import { verdictOf } from '../../proposal.js';
import type { Verdict } from '../../proposal.js';
import { ToolError, jsonOutput } from '../../tool.js';
import type { ToolContext, ToolOutput } from '../../tool.js';

/** The writes queued per root: each runs once the one before it has ended. */
const queues = new Map<string, Promise<unknown>>();

/**
 * Runs `task` after every write of this root queued before it: one writer at a time per root, in this
 * process (the repository thread runs every write tool call of a server).
 */
function oneAtATime<T>(root: string, task: () => Promise<T>): Promise<T> {
  const run = (queues.get(root) ?? Promise.resolve()).then(task);
  const tail = run.then(
    () => undefined,
    () => undefined,
  );
  queues.set(root, tail);
  void tail.then(() => {
    if (queues.get(root) === tail) queues.delete(root);
  });
  return run;
}

/** The folder and name of a root-relative path. */
function split(path: string): { dir: string; name: string } {
  const slash = path.lastIndexOf('/');
  return slash === -1 ? { dir: '', name: path } : { dir: path.slice(0, slash), name: path.slice(slash + 1) };
}

function realRootOf(ctx: ToolContext): string {
  const real = realFolder(ctx.root);
  if (real === null) throw new ToolError(`the root ${ctx.root} cannot be resolved`);
  return real;
}

/** Pins a document's folder, or says why the write goes nowhere. */
function pin(tool: string, ref: FileRef, realRoot: string, create: boolean): PinnedFolder {
  try {
    return pinFolder(realRoot, split(ref.path).dir, create);
  } catch (e) {
    if (e instanceof WriteRefused) throw new ToolError(`${tool} wrote nothing: ${e.message}.`);
    throw e;
  }
}

/** The errors of a result (warnings never block a write). */
function errorsOf(failure: ParseFailureResult | null): Diagnostic[] {
  return (failure?.diagnostics ?? []).filter((d) => d.severity !== 'warning');
}

const keyOf = (d: Diagnostic): string => `${d.rule}\u0000${d.message}`;

/**
 * The errors of `after` that `before` did not have, compared by rule and message, positions ignored (an
 * edit above an old error moves it), as a multiset: a second copy of an old error is a new one.
 */
function introduced(after: ParseFailureResult, before: ParseFailureResult | null): Diagnostic[] {
  const left = new Map<string, number>();
  for (const d of errorsOf(before)) left.set(keyOf(d), (left.get(keyOf(d)) ?? 0) + 1);
  return errorsOf(after).filter((d) => {
    const n = left.get(keyOf(d)) ?? 0;
    if (n > 0) left.set(keyOf(d), n - 1);
    return n === 0;
  });
}

/** The answer of a proposal refused: its ParseFailureResult and fixed text, as check_content gives them, and what is new. */
function refusal(verdict: Verdict & { failure: ParseFailureResult }, fresh: Diagnostic[] | null): ToolOutput {
  return jsonOutput({
    written: false,
    ...verdict.failure,
    ...(verdict.fixed === null ? {} : { fixed_content: verdict.fixed }),
    ...(fresh === null ? {} : { new_errors: renderError(fresh) }),
  });
}

/** One line on stderr per write, straight to fd 2 as the server's own lines (a full stderr drops it). */
function logWrite(path: string, hash: string): void {
  try {
    writeSync(2, `docgate mcp: wrote ${path} (sha256 ${hash})\n`);
  } catch {
    // best effort
  }
}

function written(ctx: ToolContext, ref: FileRef, hash: string, verdict: Verdict, changed: boolean): ToolOutput {
  if (changed) {
    ctx.repo.wrote(ref);
    logWrite(ref.path, hash);
  }
  const remaining = errorsOf(verdict.failure);
  return jsonOutput({
    written: true,
    path: ref.path,
    sha256: hash,
    warnings: verdict.warnings ?? '',
    ...(remaining.length > 0 ? { remaining_errors: renderError(remaining) } : {}),
  });
}

/** The bytes of an existing document, read through its pinned folder; never through a link. */
function readCurrent(tool: string, ref: FileRef, folder: PinnedFolder, realRoot: string, limit: number): Buffer {
  const file = join(folder.via, split(ref.path).name);
  const st = lstatSync(file, { throwIfNoEntry: false });
  if (!st) throw new ToolError(`${tool} wrote nothing: ${ref.path} does not exist (create_document makes a new document).`);
  if (st.isSymbolicLink())
    throw new ToolError(`${tool} wrote nothing: ${ref.path} is a symbolic link (a write never goes through one; change the file it points to).`);
  if (!st.isFile()) throw new ToolError(`${tool} wrote nothing: ${ref.path} is not a regular file.`);
  const read = readInside(file, realRoot, limit);
  if (read.kind === 'too-large') throw new ToolError(`${tool} wrote nothing: ${ref.path} is over the size limit of ${limit.toLocaleString('en-US')} bytes.`);
  if (read.kind !== 'bytes') throw new ToolError(`${tool} wrote nothing: ${ref.path} could not be read (${read.kind}).`);
  return read.bytes;
}

/**
 * Changes an existing document: `change` makes the new text from the current bytes (throwing ToolError
 * when its arguments do not fit them). Written when the new text has no error, or no error the current
 * text did not have; refused with the new text's ParseFailureResult otherwise.
 */
export function changeDocument(
  tool: string,
  ctx: ToolContext,
  ref: FileRef,
  expected: string | undefined,
  change: (current: Buffer) => Buffer,
): Promise<ToolOutput> {
  return oneAtATime(ctx.root, async () => {
    const realRoot = realRootOf(ctx);
    const folder = pin(tool, ref, realRoot, false);
    try {
      const current = readCurrent(tool, ref, folder, realRoot, maxBytes(ctx.project(), ref.kind));
      const hash = sha256(current);
      if (expected !== undefined && expected.toLowerCase() !== hash)
        throw new ToolError(
          `${tool} wrote nothing: ${ref.path} does not have the expected sha256; it is now ${hash}. Read it again, then retry with that hash.`,
        );
      const next = change(current);
      const verdict = await verdictOf(ctx, ref, next, tool);
      if (verdict.failure !== null) {
        const before = (await verdictOf(ctx, ref, current, tool)).failure;
        const fresh = introduced(verdict.failure, before);
        if (before === null || fresh.length > 0) return refusal({ ...verdict, failure: verdict.failure }, before === null ? null : fresh);
      }
      const nextHash = sha256(next);
      if (nextHash === hash) return written(ctx, ref, hash, verdict, false);
      try {
        rewriteFile(join(folder.via, split(ref.path).name), realRoot, current, next, folder.stillThere);
      } catch (e) {
        if (!(e instanceof WriteRefused)) throw e;
        const why = e.message === 'it changed on disk during the run' ? 'it changed on disk since it was read' : e.message;
        throw new ToolError(`${tool} wrote nothing: ${ref.path}: ${why}. Read it again and retry.`);
      }
      return written(ctx, ref, nextHash, verdict, true);
    } finally {
      folder.close();
    }
  });
}

/** Creates a document: written when its text has no error, and nothing is at its path yet. */
export function createDocument(ctx: ToolContext, ref: FileRef, content: Buffer): Promise<ToolOutput> {
  const tool = 'create_document';
  return oneAtATime(ctx.root, async () => {
    const realRoot = realRootOf(ctx);
    const exists = (): ToolError => new ToolError(`${tool} wrote nothing: ${ref.path} exists; change it with update_document or edit_document.`);
    if (lstatSync(ref.abs, { throwIfNoEntry: false })) throw exists();
    const verdict = await verdictOf(ctx, ref, content, tool);
    if (verdict.failure !== null) return refusal({ ...verdict, failure: verdict.failure }, null);
    const folder = pin(tool, ref, realRoot, true);
    try {
      publishNew(join(folder.via, split(ref.path).name), content, folder.stillThere);
    } catch (e) {
      unmake(folder.made);
      if (e instanceof WriteRefused && e.message === 'it exists') throw exists();
      if (e instanceof WriteRefused) throw new ToolError(`${tool} wrote nothing: ${ref.path}: ${e.message}.`);
      throw e;
    } finally {
      folder.close();
    }
    return written(ctx, ref, sha256(content), verdict, true);
  });
}
