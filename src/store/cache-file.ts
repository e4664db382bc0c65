/**
 * The file of docgate's caches (the lint cache and the staged cache): a header line, then each table's
 * texts by byte range, read and written whole and atomically.
 */
import { dirname } from 'node:path';
import { replaceUnderRoot } from '../io/layout.js';
import { isInside, readInside, realFolder, resolved, whyUnread } from '../io/safe-fs.js';
import type { Kind } from '../model/types.js';
import { BUILD_ID } from '../io/version.js';

/** Stat identity of each folder a kind's documents were listed from (root-relative), when they were listed. */
export type Folders = Record<string, string>;

/**
 * On disk: one header line of JSON (`docgate`, `rules`, the byte range of each kind's section and of its
 * updates), then the sections and updates as JSON, one after the other. A run that lints one process
 * parses only the header and the processes' section and updates; the rest is carried over as bytes.
 * A run that changed a few entries of a kind writes them as that kind's updates (rows that replace the
 * section's rows of the same path) and carries the section over unchanged: re-encoding 5,000 rows for
 * one edited file was a fifth of a pre-commit run. Updates are folded into the section once they grow
 * past MAX_UPDATES rows, or when an entry is dropped.
 */
/** The layout of the file; a cache of another layout is an empty cache (5: diagnostics may carry `fix`). */
const FORMAT = 5;
/** Rows kept as a kind's updates before they are folded into its section (the staged cache too). */
export const MAX_UPDATES = 256;

/**
 * Largest cache file read: the cache of the 10,000-document bench corpus is 1.7 MB, so this leaves room
 * for far larger roots. A larger file is not read (an empty cache, and a warning); the run rewrites it.
 */
export const MAX_CACHE_BYTES = 128 * 1024 * 1024;

/**
 * The folder a cache file must resolve into: the root for a cache inside the root (the default), else
 * the real folder --cache-location names. Null when that folder does not exist yet.
 */
function cacheFolder(root: string, file: string): string | null {
  const realRoot = realFolder(root) ?? root;
  if (isInside(root, file) || isInside(realRoot, file)) return realRoot;
  const dir = resolved(dirname(file));
  return 'real' in dir ? dir.real : null;
}

type Range = [number, number];

interface Header {
  format?: number;
  docgate: string;
  build?: string;
  rules: string;
  sections: Partial<Record<Kind, Range>>;
  updates?: Partial<Record<Kind, Range>>;
  listings?: Partial<Record<Kind, Folders>>;
  trees?: Partial<Record<Kind, Range>>;
  results?: Partial<Record<Kind, Range>>;
  linkFree?: string[];
}

export interface CacheFile {
  docgate: string;
  /** The build that wrote it (src/io/version.ts `BUILD_ID`), when it was a bundled one. */
  build?: string;
  rules: string;
  /** Unparsed section per kind: bytes as read (decoded only when a run needs that kind), or text. */
  kinds: Partial<Record<Kind, string | Buffer>>;
  /** Unparsed updates per kind: rows that replace the section's rows of the same paths. */
  updates?: Partial<Record<Kind, string | Buffer>>;
  /**
   * Per kind, the folders its section's paths were listed from. While they keep their identity, the
   * section's paths are still the kind's documents (see `lintFiles`).
   */
  listings?: Partial<Record<Kind, Folders>>;
  /** Per kind, unparsed: the results across files of whole trees (the staged cache's, see `encodeTrees`). */
  trees?: Partial<Record<Kind, string | Buffer>>;
  /** Per kind, unparsed: the results across files of its rows (the lint cache's, see `encodeResults`). */
  results?: Partial<Record<Kind, string | Buffer>>;
  /** Git trees a whole staged run found without a link where documents are looked for (the staged cache's, newest first). */
  linkFree?: string[];
}

export function parseCacheFile(bytes: Buffer): CacheFile | null {
  const nl = bytes.indexOf(10);
  if (nl === -1) return null;
  const header = JSON.parse(bytes.toString('utf8', 0, nl)) as Header;
  if (
    header.format !== FORMAT ||
    typeof header.docgate !== 'string' ||
    typeof header.rules !== 'string' ||
    typeof header.sections !== 'object' ||
    header.sections === null
  )
    return null;
  const slice = (ranges: Header['sections'] | undefined): CacheFile['kinds'] | null => {
    const out: CacheFile['kinds'] = {};
    for (const [kind, range] of Object.entries(ranges ?? {}) as [Kind, Range][]) {
      const [start, end] = Array.isArray(range) ? range : [NaN, NaN];
      if (!(Number.isInteger(start) && Number.isInteger(end) && nl < start && start <= end && end <= bytes.length)) return null;
      out[kind] = bytes.subarray(start, end);
    }
    return out;
  };
  const kinds = slice(header.sections);
  const updates = slice(header.updates);
  const trees = slice(header.trees);
  const results = slice(header.results);
  if (!kinds || !updates || !trees || !results) return null;
  const listings: CacheFile['listings'] = {};
  for (const [kind, folders] of Object.entries(header.listings ?? {}) as [Kind, Folders][]) {
    if (kinds[kind] !== undefined && isFolders(folders)) listings[kind] = folders;
  }
  const linkFree = Array.isArray(header.linkFree) ? header.linkFree.filter((t): t is string => typeof t === 'string') : [];
  return {
    docgate: header.docgate,
    ...(typeof header.build === 'string' ? { build: header.build } : {}),
    rules: header.rules,
    kinds,
    updates,
    listings,
    ...(header.trees ? { trees } : {}),
    ...(header.results ? { results } : {}),
    ...(linkFree.length > 0 ? { linkFree } : {}),
  };
}

function isFolders(v: unknown): v is Folders {
  return typeof v === 'object' && v !== null && !Array.isArray(v) && Object.values(v).every((id) => typeof id === 'string');
}

export function serializeCacheFile(data: CacheFile): Buffer {
  const bytes = (text: string | Buffer): Buffer => (typeof text === 'string' ? Buffer.from(text, 'utf8') : text);
  const parts = [
    ...(Object.entries(data.kinds) as [Kind, string | Buffer][]).map(([kind, text]) => ({ table: 'sections' as const, kind, buf: bytes(text) })),
    ...(Object.entries(data.updates ?? {}) as [Kind, string | Buffer][]).map(([kind, text]) => ({ table: 'updates' as const, kind, buf: bytes(text) })),
    ...(Object.entries(data.trees ?? {}) as [Kind, string | Buffer][]).map(([kind, text]) => ({ table: 'trees' as const, kind, buf: bytes(text) })),
    ...(Object.entries(data.results ?? {}) as [Kind, string | Buffer][]).map(([kind, text]) => ({ table: 'results' as const, kind, buf: bytes(text) })),
  ];
  // Offsets depend on the header's own length: lay out relative offsets, then shift by it.
  let offset = 0;
  const relative = parts.map((p) => {
    const start = offset;
    offset += p.buf.length;
    return { ...p, start, end: offset };
  });
  let headerLength = 0;
  let header = '';
  for (let i = 0; i < 10; i++) {
    const ranges: Pick<Header, 'sections' | 'updates' | 'trees' | 'results'> = { sections: {}, updates: {}, trees: {}, results: {} };
    for (const r of relative) ranges[r.table]![r.kind] = [headerLength + 1 + r.start, headerLength + 1 + r.end];
    // The tables added later are written only when they hold something.
    const { trees, results, ...rest } = ranges;
    const some = (t: object | undefined): boolean => t !== undefined && Object.keys(t).length > 0;
    header = JSON.stringify({
      format: FORMAT,
      docgate: data.docgate,
      ...(data.build !== undefined ? { build: data.build } : {}),
      rules: data.rules,
      ...rest,
      listings: data.listings ?? {},
      ...(some(data.trees) ? { trees } : {}),
      ...(some(data.results) ? { results } : {}),
      ...(data.linkFree?.length ? { linkFree: data.linkFree } : {}),
    });
    const length = Buffer.byteLength(header);
    if (length === headerLength) break;
    headerLength = length;
  }
  return Buffer.concat([Buffer.from(`${header}\n`, 'utf8'), ...parts.map((p) => p.buf)]);
}

/**
 * Reads a cache file of `root` (the lint cache's layout) made by `version` under `rulesKey`: a regular
 * file of at most MAX_CACHE_BYTES, opened without blocking and without following a link at its end out
 * of the root (nor out of its own folder when a cache location puts it outside the root). Anything else
 * is no data, with `problem` saying why when it is more than a missing or foreign file.
 */
export function readCacheFile(file: string, version: string, rulesKey: string, root: string): { data: CacheFile } | { problem: string | null } {
  try {
    const within = cacheFolder(root, file);
    const read = within === null ? null : readInside(file, within, MAX_CACHE_BYTES);
    if (read?.kind === 'bytes') {
      const data = parseCacheFile(read.bytes);
      // Another build of the same version may check differently: its cache is foreign too.
      if (data && data.docgate === version && (data.build ?? null) === BUILD_ID && data.rules === rulesKey) return { data };
    } else if (read && read.kind !== 'gone' && !(read.kind === 'error' && read.code === 'ENOTDIR')) {
      return { problem: `cache ${file} ignored: ${whyUnread(read, MAX_CACHE_BYTES)}` };
    }
  } catch {
    /* no usable cache yet */
  }
  return { problem: null };
}

/** Writes a cache file (this one, or the staged cache) by `replaceUnderRoot`; one that cannot be written is a warning (returned), never a failure. */
export function writeCacheFile(root: string, file: string, data: CacheFile): string | null {
  try {
    replaceUnderRoot(root, file, serializeCacheFile(data));
    return null;
  } catch (e) {
    return `cannot write cache ${file}: ${(e as Error).message}`;
  }
}
