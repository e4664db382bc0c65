import { analyzeFileIdentified } from './analyze.js';
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

interface Memo {
  fingerprint: string;
  entries: Entry[];
}

/**
 * Live, cached access to the documents of a root for long-running frontends (the MCP server).
 * Every call looks at the disk again (a listing and a stat per file) — new, changed and deleted files are
 * seen at once — but a file whose identity (stat + rule files) is unchanged is not read or parsed again,
 * and when nothing of a kind changed, its entries (with cross-file rules applied) are returned as they
 * were. Cross-file rules always cover the whole kind, so a document's failure is the same whichever tool
 * asks first.
 */
export class Repository {
  private readonly cache = new Map<string, Cached>();
  private readonly memo = new Map<Kind, Memo>();

  constructor(readonly root: string) {}

  /** Every document of `kind`, sorted by path (code point order). */
  entries(kind: Kind): Entry[] {
    const rules = loadRuleSet(this.root);
    const refs = discover(this.root, new Set([kind]));
    const stats = refs.map((ref) => (ref.problem ? `problem:${ref.problem}` : identityOf(ref.abs)));
    let fingerprint = rules.hash;
    refs.forEach((ref, i) => (fingerprint += `\n${ref.path}\0${stats[i] ?? '-'}`));
    const memo = this.memo.get(kind);
    if (memo && memo.fingerprint === fingerprint) return memo.entries;

    const analyses: Analysis[] = [];
    const live: FileRef[] = [];
    const seen = new Set<string>();
    refs.forEach((ref, i) => {
      seen.add(ref.path);
      const stat = stats[i];
      if (stat === null || stat === undefined) return; // vanished since discovery
      const hit = this.cache.get(ref.path);
      let analysis = hit && hit.identity === `${stat}:${rules.hash}` ? hit.analysis : null;
      if (!analysis) {
        const fresh = analyzeFileIdentified(ref, rules);
        if (!fresh) {
          this.cache.delete(ref.path);
          return;
        }
        analysis = fresh.analysis;
        // The identity of the handle the bytes came from: a change after our stat is seen next time.
        this.cache.set(ref.path, { identity: `${fresh.identity}:${rules.hash}`, analysis });
      }
      analyses.push(analysis);
      live.push(ref);
    });
    for (const [path, cached] of this.cache) {
      if (!seen.has(path) && cached.analysis.kind === kind) this.cache.delete(path);
    }
    const cross = crossFileDiagnostics(analyses);
    const entries = analyses.map((analysis, i) => ({ ref: live[i]!, analysis, failure: resultOf(analysis, cross.get(analysis.path)) }));
    this.memo.set(kind, { fingerprint, entries });
    return entries;
  }
}
