/** Thousands separators for byte sizes in messages and listings (`2,156`). */
export function formatBytes(n: number): string {
  return n.toLocaleString('en-US');
}
