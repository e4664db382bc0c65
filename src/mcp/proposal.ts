import type { FileRef } from '../io/layout.js';
import { maxBytes } from '../lint/analyze.js';
import { fixDocument } from '../lint/fix.js';
import { ConfigError } from '../model/errors.js';
import type { ParseFailureResult } from '../model/types.js';
import { ToolError } from './tool.js';
import type { ToolContext } from './tool.js';

/** What lint would say of a document if its file held some bytes: its failure or its warnings, and the fixed text. */
export interface Verdict {
  failure: ParseFailureResult | null;
  /** The `error` text of its warnings, when it passes with warnings. */
  warnings: string | null;
  /** The text after every fix that applies (null when none does, or the bytes are over the kind's limit). */
  fixed: string | null;
}

/**
 * Checks proposed bytes for the document at `ref` as `docgate lint` would if the file held them: every
 * rule, the rules across files against the live repository (check_content and the write tools).
 * `tool` names the caller in the message of a configuration that does not load.
 */
export async function verdictOf(ctx: ToolContext, ref: FileRef, bytes: Buffer, tool: string): Promise<Verdict> {
  const project = ctx.project();
  let run: Awaited<ReturnType<typeof ctx.repo.check>>;
  try {
    // The kind as the list tools load it (a large one on worker threads), then this text laid over it.
    run = await ctx.repo.check(ref, bytes);
  } catch (e) {
    if (e instanceof ConfigError) throw new ToolError(`${tool} cannot run: ${e.message}`);
    throw e;
  }
  const failure = run.results.find((r) => r.path === ref.path) ?? null;
  const warnings = run.warnings.find((r) => r.path === ref.path)?.error ?? null;
  const fixed = bytes.length <= maxBytes(project, ref.kind) ? fixDocument(ref, bytes, project) : null;
  return { failure, warnings, fixed: fixed === null ? null : fixed.toString('utf8') };
}
