import type { Doc } from '../core/analysis.js';
import type { Entry } from '../core/repository.js';
import type { ParseFailureResult } from '../core/types.js';

/** An entry's parsed document, or its ParseFailureResult (the core sets exactly one of them). */
export function outcome<T extends Doc>(e: Entry): { doc: T; failure: null } | { doc: null; failure: ParseFailureResult } {
  if (e.failure) return { doc: null, failure: e.failure };
  if (e.analysis.doc) return { doc: e.analysis.doc as T, failure: null };
  throw new Error(`internal: ${e.ref.path} has neither a document nor a failure`);
}
