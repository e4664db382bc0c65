/** Root-relative `/` paths: the pieces kinds name documents by. */

export function baseName(path: string): string {
  return path.slice(path.lastIndexOf('/') + 1);
}

/** The file name without its extension (`code-review` of `processes/code-review.md`). */
export function stem(path: string): string {
  const b = baseName(path);
  const dot = b.lastIndexOf('.');
  return dot > 0 ? b.slice(0, dot) : b;
}
