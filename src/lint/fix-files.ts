/**
 * `lint --fix` and `--fix-dry-run` over the documents of a lint run (docs/formats.md, "Fixes"): each document that has
 * a finding is fixed from its bytes on disk (src/lint/fix.ts), and, under `--fix`, rewritten atomically
 * (safe-fs `rewriteFile`). Only documents the run checked are looked at, so ignored files never are.
 */
import { fixDocument } from './fix.js';
import { readLimited } from '../io/file-identity.js';
import { realRootOf, refAt } from '../io/layout.js';
import type { LintRun } from './run.js';
import { WriteRefused, rewriteFile } from '../io/safe-fs.js';
import { allResults } from './tally.js';
import { maxBytes } from './analyze.js';
import type { Project } from '../project/project.js';
import { UNREAD_RULES } from '../rules/file/index.js';

export interface FixOutcome {
  /** Root-relative path → the text after every fix, for each document the fixes change. */
  outputs: Map<string, string>;
  /** The text each of `outputs` was made from, as read. */
  inputs: Map<string, string>;
  /** Paths written (`--fix`). */
  written: string[];
  /** Documents that could not be fixed or written, and why (`<path>: not fixed: <why>`). */
  notices: string[];
}

/** Fixes the documents of a run with findings; writes them when `write` (else only computes `outputs`). */
export function fixRun(project: Project, run: LintRun, write: boolean): FixOutcome {
  const out: FixOutcome = { outputs: new Map(), inputs: new Map(), written: [], notices: [] };
  for (const r of allResults(run)) {
    // What lint did not read (a link to a file git ignores is a broken link) is not read to be fixed either.
    if (r.diagnostics.some((d) => UNREAD_RULES.has(d.rule))) continue;
    const ref = refAt(project.root, r.path, r.kind, project.layout);
    const read = readLimited(ref.abs, maxBytes(project, ref.kind), realRootOf(ref));
    // A document that cannot be read now (gone, a folder, too large) has nothing to fix; a vanished one is said.
    if (read.kind !== 'bytes') {
      if (read.kind === 'gone' && r.diagnostics.some((d) => d.fix)) out.notices.push(`${r.path}: not fixed: it vanished during the run`);
      continue;
    }
    const fixed = fixDocument(ref, read.bytes, project);
    if (fixed === null) continue;
    out.outputs.set(r.path, fixed.toString('utf8'));
    out.inputs.set(r.path, read.bytes.toString('utf8'));
    if (!write) continue;
    try {
      rewriteFile(ref.abs, realRootOf(ref), read.bytes, fixed);
      out.written.push(r.path);
    } catch (e) {
      out.notices.push(`${r.path}: not fixed: ${e instanceof WriteRefused ? e.message : `cannot write it (${(e as Error).message})`}`);
    }
  }
  return out;
}
