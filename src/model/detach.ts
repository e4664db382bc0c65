/**
 * A copy of what outlives a document's analysis that holds no part of the file's text. V8 keeps a
 * string cut from a longer one (13 characters or more) as a view into it, so a 36-character id taken
 * from a 20 KB file keeps all 20 KB alive for as long as the id lives: at 100,000 documents, most of the
 * bytes read. What a run keeps of each document (its id, facts, diagnostics, directives) goes through
 * here, so memory grows with the facts, not with the files (docs/performance.md, "Scale (issue 17)").
 */
export function detached<T>(value: T): T {
  if (typeof value === 'string') return flat(value) as T;
  if (typeof value !== 'object' || value === null) return value;
  if (Array.isArray(value)) return value.map(detached) as T;
  // A mapping of content keys has no prototype (src/model/records.ts), and keeps none; a key
  // `__proto__` is defined, not assigned, so that it stays a key in either.
  const out: Record<string, unknown> = Object.getPrototypeOf(value) === null ? (Object.create(null) as Record<string, unknown>) : {};
  for (const [k, v] of Object.entries(value)) {
    if (k === '__proto__') Object.defineProperty(out, k, { value: detached(v), enumerable: true, writable: true, configurable: true });
    else out[k] = detached(v);
  }
  return out as T;
}

/** The string in memory of its own: the concatenation is flattened into a new string before the cut. */
function flat(s: string): string {
  return s.length < 13 ? s : (' ' + s).slice(1);
}
