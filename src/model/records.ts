/**
 * Mappings whose keys come from content (frontmatter keys, POWER fields, outline section keys): objects
 * without a prototype, so that `__proto__`, `constructor` and `toString` are keys like any other — one
 * set, not swallowed; one absent, not found on Object.prototype (docs/reliability.md, "Key names").
 */

/** An empty mapping without a prototype. */
export function record<T>(): Record<string, T> {
  return Object.create(null) as Record<string, T>;
}

function isPlainMapping(v: unknown): v is Record<string, unknown> {
  if (typeof v !== 'object' || v === null || Array.isArray(v)) return false;
  const proto = Object.getPrototypeOf(v) as unknown;
  return proto === Object.prototype || proto === null;
}

/**
 * The same data with every mapping made anew without a prototype (arrays kept as arrays). A value met
 * twice (a YAML alias) is converted once and shared, as it was.
 */
export function withoutPrototypes<T>(value: T): T {
  const done = new Map<object, unknown>();
  const convert = (v: unknown): unknown => {
    if (typeof v !== 'object' || v === null) return v;
    const seen = done.get(v);
    if (seen !== undefined) return seen;
    if (Array.isArray(v)) {
      const out: unknown[] = [];
      done.set(v, out);
      for (const x of v) out.push(convert(x));
      return out;
    }
    if (!isPlainMapping(v)) return v;
    const out = record<unknown>();
    done.set(v, out);
    // Own keys, `__proto__` among them where the parser defined it as an own property.
    for (const k of Object.keys(v)) out[k] = convert(v[k]);
    return out;
  };
  return convert(value) as T;
}
