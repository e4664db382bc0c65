/**
 * Where an editor's document lies in the root: a `file:` URI to a root-relative path with `/`
 * separators, and back. A document outside the root, of another scheme (an unsaved buffer), or of no
 * kind is no document of the project: it gets no diagnostics and no error.
 */
import { isAbsolute, join, relative, sep } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { realFolder } from '../io/safe-fs.js';

/** A root-relative path, or null when `abs` lies outside `base`. */
function under(base: string, abs: string): string | null {
  const rel = relative(base, abs);
  return rel !== '' && !rel.startsWith('..') && !isAbsolute(rel) ? rel.split(sep).join('/') : null;
}

export class RootPaths {
  private readonly realRoot: string;

  constructor(readonly root: string) {
    this.realRoot = realFolder(root) ?? root;
  }

  /** The root-relative path of a document URI, or null (not a file, or outside the root). */
  pathOf(uri: string): string | null {
    if (!uri.startsWith('file:')) return null;
    let abs: string;
    try {
      abs = fileURLToPath(uri);
    } catch {
      return null;
    }
    return under(this.root, abs) ?? under(this.realRoot, abs);
  }

  /** The URI of a root-relative path (or of an absolute one, as a configuration problem may name it). */
  uriOf(path: string): string {
    return pathToFileURL(isAbsolute(path) ? path : join(this.root, path)).href;
  }
}
