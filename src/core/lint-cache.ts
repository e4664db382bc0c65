import { mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import type { Facts } from './analysis.js';
import type { Diagnostic, Kind } from './types.js';

/** What the cache keeps of one file: enough to replay its diagnostics and feed the cross-file rules. */
export interface CacheEntry {
  kind: Kind;
  id: string;
  /** Hash of the bytes (null for entries that could not be read: they are always re-checked). */
  hash: string | null;
  /** Stat identity when last seen: an unchanged identity lets a file that is not linted feed its facts unread. */
  identity: string;
  /** False when the body was not checked (the file was only needed for its cross-file facts). */
  full: boolean;
  diagnostics: Diagnostic[];
  facts: Facts;
}

interface CacheFile {
  docgate: string;
  rules: string;
  entries: Record<string, CacheEntry>;
}

/**
 * ESLint's `--cache`, for docgate: entries are valid only under the same docgate version and the same
 * rule files (schemas, outline, heading tables); a file is skipped when its content hash is unchanged.
 * A missing, unreadable or foreign cache file is an empty cache, never an error.
 */
export class LintCache {
  private dirty = false;

  private constructor(
    readonly file: string,
    private readonly data: CacheFile,
  ) {}

  static load(file: string, version: string, rulesHash: string): LintCache {
    try {
      const data = JSON.parse(readFileSync(file, 'utf8')) as CacheFile;
      if (data.docgate === version && data.rules === rulesHash && data.entries && typeof data.entries === 'object') return new LintCache(file, data);
    } catch {
      /* no usable cache yet */
    }
    const cache = new LintCache(file, { docgate: version, rules: rulesHash, entries: {} });
    cache.dirty = true;
    return cache;
  }

  get(path: string): CacheEntry | undefined {
    return Object.hasOwn(this.data.entries, path) ? this.data.entries[path] : undefined;
  }

  set(path: string, entry: CacheEntry): void {
    this.data.entries[path] = entry;
    this.dirty = true;
  }

  /** Drops entries of `kinds` whose files no longer exist (entries of other kinds were not looked at). */
  retain(paths: ReadonlySet<string>, kinds: ReadonlySet<Kind>): void {
    for (const [path, entry] of Object.entries(this.data.entries)) {
      if (kinds.has(entry.kind) && !paths.has(path)) {
        delete this.data.entries[path];
        this.dirty = true;
      }
    }
  }

  /** Writes atomically (temporary file + rename); a cache that cannot be written is only a warning. */
  save(): string | null {
    if (!this.dirty) return null;
    const tmp = `${this.file}.${process.pid}.tmp`;
    try {
      mkdirSync(dirname(this.file), { recursive: true });
      writeFileSync(tmp, JSON.stringify(this.data));
      renameSync(tmp, this.file);
      this.dirty = false;
      return null;
    } catch (e) {
      return `cannot write cache ${this.file}: ${(e as Error).message}`;
    }
  }
}
