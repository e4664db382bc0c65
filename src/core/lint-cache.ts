import { mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
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
  /** Modified around the time it was cached: its stat identity alone does not prove it unchanged. */
  racy?: true;
  diagnostics: Diagnostic[];
  facts: Facts;
}

type Entries = Record<string, CacheEntry>;

/**
 * On disk: one header line of JSON (`docgate`, `rules`, and the byte range of each kind's section),
 * then each kind's entries as JSON, one after the other. A run that lints one process parses only the
 * header and the processes' section; the other sections are carried over as bytes.
 */
interface Header {
  docgate: string;
  rules: string;
  sections: Partial<Record<Kind, [number, number]>>;
}

export interface CacheFile {
  docgate: string;
  rules: string;
  /** Unparsed section per kind: bytes as read (decoded only when a run needs that kind), or text. */
  kinds: Partial<Record<Kind, string | Buffer>>;
}

export function parseCacheFile(bytes: Buffer): CacheFile | null {
  const nl = bytes.indexOf(10);
  if (nl === -1) return null;
  const header = JSON.parse(bytes.toString('utf8', 0, nl)) as Header;
  if (typeof header.docgate !== 'string' || typeof header.rules !== 'string' || typeof header.sections !== 'object' || header.sections === null) return null;
  const kinds: CacheFile['kinds'] = {};
  for (const [kind, range] of Object.entries(header.sections) as [Kind, [number, number]][]) {
    const [start, end] = range;
    if (!(Number.isInteger(start) && Number.isInteger(end) && nl < start && start <= end && end <= bytes.length)) return null;
    kinds[kind] = bytes.subarray(start, end);
  }
  return { docgate: header.docgate, rules: header.rules, kinds };
}

export function serializeCacheFile(data: CacheFile): Buffer {
  const parts = (Object.entries(data.kinds) as [Kind, string | Buffer][]).map(([kind, text]) => [kind, typeof text === 'string' ? Buffer.from(text, 'utf8') : text] as const);
  const sections: Header['sections'] = {};
  // Offsets depend on the header's own length: lay out relative offsets, then shift by it.
  let offset = 0;
  const relative: [Kind, number, number][] = parts.map(([kind, buf]) => {
    const range: [Kind, number, number] = [kind, offset, offset + buf.length];
    offset += buf.length;
    return range;
  });
  let headerLength = 0;
  let header = '';
  for (let i = 0; i < 10; i++) {
    for (const [kind, start, end] of relative) sections[kind] = [headerLength + 1 + start, headerLength + 1 + end];
    header = JSON.stringify({ docgate: data.docgate, rules: data.rules, sections });
    const length = Buffer.byteLength(header);
    if (length === headerLength) break;
    headerLength = length;
  }
  return Buffer.concat([Buffer.from(`${header}\n`, 'utf8'), ...parts.map(([, buf]) => buf)]);
}

/**
 * ESLint's `--cache`, for docgate: entries are valid only under the same docgate version and the same
 * rule files (schemas, outline, heading tables); a file is skipped when its content hash is unchanged.
 * A missing, unreadable or foreign cache file is an empty cache, never an error.
 */
export class LintCache {
  private readonly parsed = new Map<Kind, Entries>();
  private readonly dirty = new Set<Kind>();
  private fresh = false;

  private constructor(
    readonly file: string,
    private readonly data: CacheFile,
  ) {}

  static load(file: string, version: string, rulesHash: string): LintCache {
    try {
      const data = parseCacheFile(readFileSync(file));
      if (data && data.docgate === version && data.rules === rulesHash) return new LintCache(file, data);
    } catch {
      /* no usable cache yet */
    }
    const cache = new LintCache(file, { docgate: version, rules: rulesHash, kinds: {} });
    cache.fresh = true;
    return cache;
  }

  private section(kind: Kind): Entries {
    let entries = this.parsed.get(kind);
    if (!entries) {
      entries = {};
      const text = this.data.kinds[kind];
      if (text !== undefined) {
        try {
          entries = JSON.parse(typeof text === 'string' ? text : text.toString('utf8')) as Entries;
        } catch {
          entries = {};
          this.dirty.add(kind);
        }
      }
      this.parsed.set(kind, entries);
    }
    return entries;
  }

  get(path: string, kind: Kind): CacheEntry | undefined {
    const entries = this.section(kind);
    return Object.hasOwn(entries, path) ? entries[path] : undefined;
  }

  set(path: string, entry: CacheEntry): void {
    this.section(entry.kind)[path] = entry;
    this.dirty.add(entry.kind);
  }

  /** Drops entries of `kinds` whose files no longer exist (entries of other kinds were not looked at). */
  retain(paths: ReadonlySet<string>, kinds: ReadonlySet<Kind>): void {
    for (const kind of kinds) {
      const entries = this.section(kind);
      for (const path of Object.keys(entries)) {
        if (!paths.has(path)) {
          delete entries[path];
          this.dirty.add(kind);
        }
      }
    }
  }

  /** Writes atomically (temporary file + rename); a cache that cannot be written is only a warning. */
  save(): string | null {
    if (!this.fresh && this.dirty.size === 0) return null;
    for (const kind of this.dirty) this.data.kinds[kind] = JSON.stringify(this.parsed.get(kind) ?? {});
    const tmp = `${this.file}.${process.pid}.tmp`;
    try {
      mkdirSync(dirname(this.file), { recursive: true });
      writeFileSync(tmp, serializeCacheFile(this.data));
      renameSync(tmp, this.file);
      this.dirty.clear();
      this.fresh = false;
      return null;
    } catch (e) {
      try {
        rmSync(tmp, { force: true });
      } catch {
        /* the folder itself is unusable: nothing was left in it */
      }
      return `cannot write cache ${this.file}: ${(e as Error).message}`;
    }
  }
}
