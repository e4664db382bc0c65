/** A canonical UUID in lowercase: the ids of SysRS documents and of the bullets of outline list sections. */
export const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/** The same shape in any case (to tell an uppercase UUID from something else). */
export const UUID_ANY_CASE = new RegExp(UUID.source, 'i');

/**
 * `UUID.test(s)` without a regular expression: the outline rules ask it of every bullet of every SysRS,
 * and the loop is several times cheaper (docs/performance.md, "Where the time goes").
 */
export function isLowercaseUuid(s: string): boolean {
  if (s.length !== 36) return false;
  for (let i = 0; i < 36; i++) {
    const c = s.charCodeAt(i);
    if (i === 8 || i === 13 || i === 18 || i === 23) {
      if (c !== 0x2d) return false;
    } else if (!((c >= 0x30 && c <= 0x39) || (c >= 0x61 && c <= 0x66))) return false;
  }
  return true;
}
