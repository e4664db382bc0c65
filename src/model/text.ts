/**
 * Thousands separators for byte sizes in messages and listings (`2,156`), as `toLocaleString('en-US')`
 * writes them. Integers are grouped here: the first `toLocaleString` of a process loads ICU's number
 * formatting (~10 ms of a run that reports one body too long); anything else is left to it.
 */
export function formatBytes(n: number): string {
  if (!Number.isSafeInteger(n) || Object.is(n, -0)) return n.toLocaleString('en-US');
  const digits = String(Math.abs(n));
  let out = digits.slice(0, ((digits.length - 1) % 3) + 1);
  for (let i = out.length; i < digits.length; i += 3) out += `,${digits.slice(i, i + 3)}`;
  return n < 0 ? `-${out}` : out;
}
