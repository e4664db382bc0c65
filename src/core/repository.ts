import { analyzeFile } from './analyze.js';
import type { Analysis } from './analysis.js';
import { crossFileDiagnostics } from './cross-file.js';
import { identityOf } from './file-identity.js';
import { discover } from './layout.js';
import type { FileRef } from './layout.js';
import { resultOf } from './result.js';
import { loadRuleSet } from './schemas.js';
import type { ParseFailureResult, Kind } from './types.js';

/** One document as it is on disk now: its analysis and, when it fails, its ParseFailureResult. */
export interface Entry {
  ref: FileRef;
  analysis: Analysis;
  /** Own and cross-file diagnostics; null when the document passes (then `analysis.doc` is set). */
  failure: ParseFailureResult | null;
}

interface Cached {
  identity: string;
  analysis: Analysis;
}

/**
 * Live, cached access to the documents of a root for long-running frontends (the MCP server).
 * Every call looks at the disk again — new, changed and deleted files are seen at once — but a file whose
 * identity (stat + rule files) is unchanged is not read or parsed again. Cross-file rules are applied per
 * call over the whole kind, so a document's failure is the same whichever tool asks first.
 */
export class Repository {
  private readonly cache = new Map<string, Cached>();

  constructor(readonly root: string) {}

  /** Every document of `kind`, sorted by path (code point order). */
  entries(kind: Kind): Entry[] {
    const rules = loadRuleSet(this.root);
    const refs = discover(this.root, new Set([kind]));
    const analyses: Analysis[] = [];
    const live: FileRef[] = [];
    const seen = new Set<string>();
    for (const ref of refs) {
      seen.add(ref.path);
      const stat = ref.problem ? `problem:${ref.problem}` : identityOf(ref.abs);
      if (stat === null) continue; // vanished since discovery
      const identity = `${stat}:${rules.hash}`;
      const hit = this.cache.get(ref.path);
      let analysis = hit && hit.identity === identity ? hit.analysis : null;
      if (!analysis) {
        analysis = analyzeFile(ref, rules);
        if (!analysis) {
          this.cache.delete(ref.path);
          continue;
        }
        this.cache.set(ref.path, { identity, analysis });
      }
      analyses.push(analysis);
      live.push(ref);
    }
    for (const path of this.cache.keys()) {
      if (!seen.has(path) && this.cache.get(path)!.analysis.kind === kind) this.cache.delete(path);
    }
    const cross = crossFileDiagnostics(analyses);
    return analyses.map((analysis, i) => ({ ref: live[i]!, analysis, failure: resultOf(analysis, cross.get(analysis.path)) }));
  }
}
