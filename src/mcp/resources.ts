import type { Dirent } from 'node:fs';
import { join } from 'node:path';
import { isInside, listInside, realFolder, resolved } from '../io/safe-fs.js';
import { BUNDLED_SCHEMA_DIR, ownSchemaDir, readBundledRuleFile, readRuleFile } from '../project/rule-files.js';
import { byCodePoint } from './text.js';

export const SCHEMA_URI_PREFIX = 'docgate://schemas/';
const SCHEMA_FILE = /^[A-Za-z0-9][A-Za-z0-9._-]*\.json$/;

export interface SchemaResource {
  uri: string;
  name: string;
  title: string;
  mimeType: 'application/json';
}

/**
 * The `*.json` files of a rule folder that may be served: regular files, and links that resolve inside
 * `realTop` (the root, or docgate's own folder). A link to elsewhere is not listed: its name would
 * announce a resource whose text docgate will not read.
 */
function jsonFiles(dir: string | null, top: string): string[] {
  if (dir === null) return [];
  const realTop = realFolder(top) ?? top;
  const listing = listInside(dir, realTop);
  if (listing.kind !== 'listed') return [];
  const servable = (e: Dirent): boolean => {
    if (e.isFile()) return true;
    if (!e.isSymbolicLink()) return false;
    const target = resolved(join(dir, e.name));
    return 'real' in target && isInside(realTop, target.real);
  };
  return listing.entries.filter((e) => SCHEMA_FILE.test(e.name) && servable(e)).map((e) => e.name);
}

/**
 * The root's rule folder (the configuration's `schemas`, `schemas` by default), or null when it has none,
 * it resolves outside the root, or the configuration does not load (`folder` null): then only ours are
 * served, never a folder lint does not read.
 */
function ownDir(root: string, folder: string | null): string | null {
  if (folder === null) return null;
  try {
    return ownSchemaDir(root, folder);
  } catch {
    return null;
  }
}

/** Every `*.json` rule file: docgate's own, and the root's rule folder (which overrides ours file by file). */
export function schemaFiles(root: string, folder: string | null): string[] {
  return [...new Set([...jsonFiles(BUNDLED_SCHEMA_DIR, BUNDLED_SCHEMA_DIR), ...jsonFiles(ownDir(root, folder), root)])].sort(byCodePoint);
}

export function listSchemaResources(root: string, folder: string | null): SchemaResource[] {
  return schemaFiles(root, folder).map((name) => ({
    uri: `${SCHEMA_URI_PREFIX}${name}`,
    name,
    title: `docgate rule file ${name}`,
    mimeType: 'application/json',
  }));
}

/**
 * The text of `docgate://schemas/<file>`, or null when no such rule file exists. A rule file that cannot
 * be read (it resolves outside the root, is no regular file, is too large) throws a ConfigError that
 * names it, never its content.
 */
export function readSchemaResource(root: string, uri: string, folder: string | null): string | null {
  if (!uri.startsWith(SCHEMA_URI_PREFIX)) return null;
  const name = uri.slice(SCHEMA_URI_PREFIX.length);
  if (!SCHEMA_FILE.test(name) || !schemaFiles(root, folder).includes(name)) return null;
  return folder === null ? readBundledRuleFile(name) : readRuleFile(root, name, folder);
}
