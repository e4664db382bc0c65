/**
 * Where a root's rule files are and how they are read: the root's rule folder overrides docgate's own
 * `schemas/` file by file; every read stays inside the folder's root and under MAX_RULE_BYTES.
 */
import { existsSync, lstatSync } from 'node:fs';
import type { Stats } from 'node:fs';
import { dirname, isAbsolute, join, relative, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { isInside, listInside, readInside, realFolder, resolved, whyUnread } from '../io/safe-fs.js';
import { ConfigError } from '../model/errors.js';

/** docgate's own `schemas/` folder (next to `dist/` and `src/`). */
export const BUNDLED_SCHEMA_DIR = resolve(dirname(fileURLToPath(import.meta.url)), '../../schemas');

/** The JSON Schema of every outline file (docgate's own; a root cannot override it). */
export const OUTLINE_SCHEMA_FILE = 'outline.schema.json';

/** A rule file as messages name it: root-relative (`schemas/x.json`), or docgate's own by its full path. */
export function shownPath(root: string, file: string): string {
  const rel = relative(root, file);
  return rel !== '' && !rel.startsWith('..') && !isAbsolute(rel) ? rel.split(sep).join('/') : file;
}

/** Largest rule file read: schemas, outlines and heading tables are a few kilobytes. */
export const MAX_RULE_BYTES = 1024 * 1024;

/**
 * The root's own rule folder, or null when it has none. It must resolve inside the root: a `schemas`
 * link to elsewhere is a configuration error (its files are never looked at, not even listed).
 */
export function ownSchemaDir(root: string, folder = 'schemas'): string | null {
  const dir = join(root, folder);
  let st: Stats | undefined;
  try {
    st = lstatSync(dir, { throwIfNoEntry: false });
  } catch {
    return null;
  }
  if (!st) return null;
  // A plain folder of the root lies inside it; only a link needs resolving.
  if (!st.isSymbolicLink()) return dir;
  const target = resolved(dir);
  if ('code' in target) return null;
  if (!isInside(realFolder(root) ?? root, target.real))
    throw new ConfigError(`cannot read rule folder ${dir}: it resolves outside the root (through a symbolic link)`);
  return dir;
}

/** The file that holds rule file `name` for `root`: the root's own `schemas/` overrides ours file by file. */
export function ruleFile(root: string, name: string, folder = 'schemas'): string {
  const dir = ownSchemaDir(root, folder);
  if (dir !== null) {
    const own = join(dir, name);
    try {
      // Any entry by that name is the root's (a broken link or a FIFO too: an error, never our file instead).
      if (lstatSync(own, { throwIfNoEntry: false })) return own;
    } catch {
      /* not reachable as a file: ours */
    }
  }
  const bundled = join(BUNDLED_SCHEMA_DIR, name);
  // A file docgate does not ship either is one the root was meant to have: named where the root keeps it.
  if (!existsSync(bundled)) return join(root, folder, name);
  return bundled;
}

/** Where the rules of rule folder `dir` must resolve into (real path): docgate's own `schemas/`, or the root of `<root>/schemas`. */
function ruleRoot(dir: string): string {
  const top = isInside(BUNDLED_SCHEMA_DIR, dir) ? BUNDLED_SCHEMA_DIR : dirname(dir);
  return realFolder(top) ?? top;
}

/**
 * Reads a rule file as a regular file of at most MAX_RULE_BYTES, inside the root (or docgate's own
 * folder), without blocking on a FIFO; anything else is a configuration error naming the file, never
 * quoting what is in it.
 */
export function readRule(path: string): string {
  const r = readInside(path, ruleRoot(dirname(path)), MAX_RULE_BYTES);
  if (r.kind !== 'bytes') throw new ConfigError(`cannot read rule file ${path}: ${whyUnread(r, MAX_RULE_BYTES)}`);
  return r.bytes.toString('utf8');
}

/** The text of rule file `name` for `root` (an MCP resource); a ConfigError when it cannot be read. */
export function readRuleFile(root: string, name: string, folder = 'schemas'): string {
  return readRule(ruleFile(root, name, folder));
}

/** The text of one of docgate's own rule files. */
export function readBundledRuleFile(name: string): string {
  return readRule(join(BUNDLED_SCHEMA_DIR, name));
}

/** Heading tables in a rule folder, listed through a handle checked to lie inside the folder's root. */
export function listTables(dir: string, pattern: RegExp, into: Map<string, string>): void {
  const listing = listInside(dir, ruleRoot(dir));
  if (listing.kind === 'absent' || (listing.kind === 'error' && listing.code === 'ENOTDIR')) return;
  if (listing.kind !== 'listed')
    throw new ConfigError(
      `cannot read rule folder ${dir}: ${listing.kind === 'outside' ? 'it resolves outside the root (through a symbolic link)' : listing.code}`,
    );
  for (const entry of listing.entries) {
    const m = pattern.exec(entry.name);
    if (m) into.set(m[1]!, join(dir, entry.name));
  }
}
