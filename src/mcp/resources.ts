import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { BUNDLED_SCHEMA_DIR, ruleFile } from '../core/schemas.js';
import { byCodePoint } from './text.js';

export const SCHEMA_URI_PREFIX = 'docgate://schemas/';
const SCHEMA_FILE = /^[A-Za-z0-9][A-Za-z0-9._-]*\.json$/;

export interface SchemaResource {
  uri: string;
  name: string;
  title: string;
  mimeType: 'application/json';
}

function jsonFiles(dir: string): string[] {
  try {
    return readdirSync(dir).filter((n) => SCHEMA_FILE.test(n));
  } catch {
    return [];
  }
}

/** Every `*.json` rule file: docgate's own, and the root's `schemas/` (which overrides ours file by file). */
export function schemaFiles(root: string): string[] {
  return [...new Set([...jsonFiles(BUNDLED_SCHEMA_DIR), ...jsonFiles(join(root, 'schemas'))])].sort(byCodePoint);
}

export function listSchemaResources(root: string): SchemaResource[] {
  return schemaFiles(root).map((name) => ({
    uri: `${SCHEMA_URI_PREFIX}${name}`,
    name,
    title: `docgate rule file ${name}`,
    mimeType: 'application/json',
  }));
}

/** The text of `docgate://schemas/<file>`, or null when no such rule file exists. */
export function readSchemaResource(root: string, uri: string): string | null {
  if (!uri.startsWith(SCHEMA_URI_PREFIX)) return null;
  const name = uri.slice(SCHEMA_URI_PREFIX.length);
  if (!SCHEMA_FILE.test(name) || !schemaFiles(root).includes(name)) return null;
  return readFileSync(ruleFile(root, name), 'utf8');
}
