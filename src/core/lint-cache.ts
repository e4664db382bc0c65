import { createRequire } from 'node:module';
import { dirname } from 'node:path';
import type { Facts } from './analysis.js';
import { builtinLayout, replaceUnderRoot } from './layout.js';
import type { Layout } from './layout.js';
import { MAX_DIAGNOSTICS } from './result.js';
import { isPosition } from '../engine/facts-codec.js';
import type { Directive } from '../engine/directives.js';
import { isInside, readInside, realFolder, resolved, whyUnread } from './safe-fs.js';
import { builtinKind } from '../kinds/index.js';
import type { AnyKind } from '../engine/kind.js';
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
  /** The file's inline directives, and which of them suppressed one of its own diagnostics. */
  directives?: { list: Directive[]; used: boolean[] };
}

/** A kind's entries by path; kept in path order when read from disk. */
type Entries = Map<string, CacheEntry>;

/**
 * One entry on disk: a flat array, so that the section of 5,000 files parses in a few milliseconds
 * (a pre-commit run parses the whole section of its kind for the cross-file facts). What can be
 * derived from the path (kind, a variant's language and file name) is not stored.
 */
type Row = [path: string, identity: string, hash: string | null, flags: number, id: string | 0, diagnostics: Diagnostic[] | 0, facts: unknown, directives?: DirectiveRow[]];
/** A directive in a row: where, its text, its rules (0: every rule), the lines it covers (-1: to the end), used. */
type DirectiveRow = [line: number, column: number, text: string, rules: string[] | 0, from: number, to: number, used: 0 | 1];
const FULL = 1;
const RACY = 2;

/** Where a cache finds the kinds of its sections and their places: a project, or docgate's own layout. */
export interface CacheKinds {
  kind(name: Kind): AnyKind | undefined;
  readonly layout: Layout;
}

let builtinKinds: CacheKinds | undefined;

/** The kinds of the registry where SPEC §1 places them (a cache read without a project: tests, tools). */
function builtin(): CacheKinds {
  return (builtinKinds ??= { kind: builtinKind, layout: builtinLayout() });
}

function kindOf(kinds: CacheKinds, kind: Kind): AnyKind {
  const k = kinds.kind(kind);
  if (!k) throw new BadRow(`no kind ${kind}`);
  return k;
}

/**
 * A cache file is data anyone with write access to the root can change (or a disk can corrupt): every
 * row is checked before it is believed, and a section with one bad row is read as empty (its files are
 * checked again). Positions must be those of a document of at most 2 MiB.
 */
class BadRow extends Error {}

const RULE_ID = /^[a-z][a-z0-9-]*$/;
const DIAGNOSTIC_KEYS: ReadonlySet<string> = new Set(['line', 'column', 'rule', 'message', 'endLine', 'endColumn', 'severity', 'fix']);


function bad(what: string): never {
  throw new BadRow(`invalid cache row: ${what}`);
}

/** A fix as a rule reports it: a range not ending before it starts, and its replacement text. */
function isFix(f: unknown): boolean {
  if (typeof f !== 'object' || f === null || Array.isArray(f)) return false;
  const o = f as Record<string, unknown>;
  if (Object.keys(o).length !== 5 || typeof o['text'] !== 'string') return false;
  const { line, column, endLine, endColumn } = o;
  if (!isPosition(line) || !isPosition(column) || !isPosition(endLine) || !isPosition(endColumn)) return false;
  return endLine > line || (endLine === line && endColumn >= column);
}

function diagnosticsOf(r: unknown): Diagnostic[] {
  if (r === 0) return [];
  // A file's own diagnostics are capped when it is analyzed: more than that was never written.
  if (!Array.isArray(r) || r.length === 0 || r.length > MAX_DIAGNOSTICS) bad('diagnostics');
  for (const d of r as unknown[]) {
    if (typeof d !== 'object' || d === null || Array.isArray(d)) bad('diagnostic');
    const o = d as Record<string, unknown>;
    for (const key in o) if (!DIAGNOSTIC_KEYS.has(key)) bad('diagnostic field');
    if (!isPosition(o['line']) || !isPosition(o['column']) || typeof o['rule'] !== 'string' || !RULE_ID.test(o['rule']) || typeof o['message'] !== 'string') bad('diagnostic');
    if (o['severity'] !== undefined && o['severity'] !== 'warning') bad('diagnostic severity');
    // An end, when given, is not before the start (an endColumn alone ends on the start line, as in SARIF).
    const line = o['line'];
    const { endLine, endColumn } = o;
    if (endLine !== undefined && (!isPosition(endLine) || endLine < line)) bad('diagnostic end');
    if (endColumn !== undefined && (!isPosition(endColumn) || ((endLine ?? line) === line && endColumn < o['column']))) bad('diagnostic end');
    if (o['fix'] !== undefined && !isFix(o['fix'])) bad('diagnostic fix');
  }
  return r as Diagnostic[];
}

/**
 * Whether a path is one the layout gives `kind`, with no `.`, `..` or empty folder name: a crafted row
 * must not make lint read outside the kind's folders.
 */
/** An empty, `.` or `..` folder name. */
const DOT_SEGMENT = /(?:^|\/)\.{0,2}(?:\/|$)/;

function documentPathCheck(kinds: CacheKinds, kind: Kind): (path: unknown) => path is string {
  const holds = kinds.layout.holder(kind);
  return (path: unknown): path is string => typeof path === 'string' && !path.startsWith('/') && !DOT_SEGMENT.test(path) && holds(path);
}

function factsRow(k: AnyKind, f: Facts): unknown {
  return k.codec.encode(f);
}

/** The facts of a row (throws on a row that is not one: the caller starts the section afresh). */
function factsOf(k: AnyKind, path: string, r: unknown): Facts {
  const facts = k.codec.decode(r, path) as Facts | null;
  return facts ?? bad(`${k.name} facts`);
}

/** The directives of a row (a list of `DirectiveRow`), checked as every other part of a row. */
function directivesOf(r: unknown): { list: Directive[]; used: boolean[] } {
  if (!Array.isArray(r) || r.length === 0 || r.length > 10_000) bad('directives');
  const list: Directive[] = [];
  const used: boolean[] = [];
  for (const d of r as unknown[]) {
    if (!Array.isArray(d) || d.length !== 7) bad('directive');
    const rules = d[3];
    const to = d[5];
    if (!isPosition(d[0]) || !isPosition(d[1]) || typeof d[2] !== 'string' || !isPosition(d[4]) || !(to === -1 || isPosition(to)) || (d[6] !== 0 && d[6] !== 1)) bad('directive');
    if (rules !== 0 && !(Array.isArray(rules) && rules.every((x) => typeof x === 'string' && RULE_ID.test(x)))) bad('directive rules');
    list.push({ at: { line: d[0], column: d[1] }, text: d[2], rules: rules === 0 ? null : (rules as string[]), from: d[4], to: to === -1 ? Infinity : (to as number) });
    used.push(d[6] === 1);
  }
  return { list, used };
}

/** The id a document of this path and facts gets when nothing else names it (stored as 0: most rows). */
function usualId(k: AnyKind, path: string, facts: Facts): string {
  // No optional call: this runs per cache row, mostly unoptimized, and most kinds have no factsId.
  if (k.factsId === undefined) return k.fallbackId(path);
  return k.factsId(facts) ?? k.fallbackId(path);
}

/** A kind's section as text: its rows in path order. */
export function encodeSection(entries: ReadonlyMap<string, CacheEntry>, kinds: CacheKinds = builtin()): string {
  return encodeRows([...entries.keys()].sort().map((path) => [path, entries.get(path)!]), kinds);
}

/** Rows as text, in the order given (a path may appear more than once: the staged cache keeps versions). */
export function encodeRows(list: readonly (readonly [string, CacheEntry])[], kinds: CacheKinds = builtin()): string {
  const rows: Row[] = list.map(([path, e]) => {
    const k = kindOf(kinds, e.kind);
    const id = e.id === usualId(k, path, e.facts) ? 0 : e.id;
    const row: Row = [path, e.identity, e.hash, (e.full ? FULL : 0) | (e.racy ? RACY : 0), id, e.diagnostics.length > 0 ? e.diagnostics : 0, factsRow(k, e.facts)];
    if (e.directives) row.push(e.directives.list.map((d, i) => [d.at.line, d.at.column, d.text, d.rules ?? 0, d.from, d.to === Infinity ? -1 : d.to, e.directives!.used[i] ? 1 : 0]));
    return row;
  });
  return JSON.stringify(rows);
}

/**
 * Reads a section written by `encodeSection`. Throws on anything else — not JSON, or any row that is
 * not exactly what `encodeSection` writes (see `BadRow`) — and the caller then starts the section afresh.
 */
export function decodeSection(kind: Kind, text: string, kinds: CacheKinds = builtin()): Entries {
  const entries: Entries = new Map();
  decodeRows(kind, text, kinds, (path, entry) => entries.set(path, entry));
  return entries;
}

/** Reads rows written by `encodeRows`, each handed to `each` in order; throws as `decodeSection` does. */
export function decodeRows(kind: Kind, text: string, kinds: CacheKinds, each: (path: string, entry: CacheEntry) => void): void {
  const rows = JSON.parse(text) as unknown;
  if (!Array.isArray(rows)) throw new BadRow('not a cache section');
  const isDocumentPath = documentPathCheck(kinds, kind);
  const k = kindOf(kinds, kind);
  for (let i = 0; i < rows.length; i++) {
    const row = rows[i] as unknown[];
    const entry = rowEntry(row, kind, k, isDocumentPath);
    each(row[0] as string, entry);
  }
}

/** One row's entry, checked; throws on a row that is not one. */
function rowEntry(row: unknown[], kind: Kind, k: AnyKind, isDocumentPath: (path: unknown) => path is string): CacheEntry {
  // Indexed reads, not destructuring: this runs once per file, mostly before V8 optimizes it, and
  // array destructuring goes through the iterator protocol there.
  if (!Array.isArray(row) || (row.length !== 7 && row.length !== 8)) bad('shape');
  const path = row[0];
  if (!isDocumentPath(path)) bad('path');
  const identity = row[1];
  const hash = row[2];
  const flags = row[3];
  const id = row[4];
  if (typeof identity !== 'string' || identity === '' || (hash !== null && (typeof hash !== 'string' || hash === ''))) bad('identity or hash');
  if (flags !== ((flags as number) | 0) || (flags as number) < 0 || (flags as number) > (FULL | RACY)) bad('flags');
  if (id !== 0 && (typeof id !== 'string' || id === '')) bad('id');
  const diagnostics = row[5] === 0 ? [] : diagnosticsOf(row[5]);
  const facts = factsOf(k, path, row[6]);
  const entry: CacheEntry = { kind, id: id === 0 ? usualId(k, path, facts) : (id as string), hash: hash as string | null, identity, full: ((flags as number) & FULL) !== 0, diagnostics, facts };
  if (row.length === 8) entry.directives = directivesOf(row[7]);
  if ((flags as number) & RACY) entry.racy = true;
  return entry;
}

/**
 * The entry of one path in a section parsed as JSON but not checked (rows in path order, as
 * `encodeSection` writes them): found by bisection, and only its row checked. Undefined when absent.
 */
function findRow(rows: readonly unknown[], path: string, kind: Kind, kinds: CacheKinds): CacheEntry | undefined {
  let lo = 0;
  let hi = rows.length - 1;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    const row = rows[mid];
    const at = Array.isArray(row) ? row[0] : undefined;
    if (typeof at !== 'string') bad('path');
    if (at === path) return rowEntry(row as unknown[], kind, kindOf(kinds, kind), documentPathCheck(kinds, kind));
    if (at < path) lo = mid + 1;
    else hi = mid - 1;
  }
  return undefined;
}

/** The results across files of one whole tree of a kind: its diagnostics by path (paths without any left out). */
export type TreeResults = ReadonlyMap<string, readonly Diagnostic[]>;

/** A git object id (SHA-1 or SHA-256), as the staged cache keys trees. */
const OBJECT_ID = /^(?:[0-9a-f]{40}|[0-9a-f]{64})$/;

/** Results as JSON: `[[path, diagnostics], ...]` in path order. */
function resultRows(results: TreeResults): [string, readonly Diagnostic[]][] {
  return [...results].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
}

/** Kept results as text: `[stamp, racyPaths, [[path, diagnostics], ...]]` (`null` without a stamp). */
function encodeKept(stamp: string | null, kept: KeptResults): string {
  return stamp === null ? 'null' : JSON.stringify([stamp, [...kept.racy].sort(), resultRows(kept.results)]);
}

let zlib: typeof import('node:zlib') | null | undefined;

/**
 * The CRC-32 of a kind's section and updates as they are on disk: kept results hold for exactly the
 * rows they were computed from, so a row changed in any other way (by hand, by another tool) voids them.
 * Null where this Node lacks `zlib.crc32` (before 20.15): no results are kept there. node:zlib is loaded
 * only by a run that keeps or reads results.
 */
function stampOf(section: string | Buffer | undefined, updates: string | Buffer | undefined): string | null {
  zlib ??= (createRequire(import.meta.url)('node:zlib') as typeof import('node:zlib'));
  if (typeof zlib.crc32 !== 'function') return null;
  return `${zlib.crc32(section ?? '')}:${zlib.crc32(updates ?? '')}`;
}

/** Reads `resultRows` of a kind back; throws on anything else. */
function resultsOf(r: unknown, isDocumentPath: (path: unknown) => path is string): Map<string, Diagnostic[]> {
  if (!Array.isArray(r)) bad('results');
  const results = new Map<string, Diagnostic[]>();
  for (const row of r as unknown[]) {
    if (!Array.isArray(row) || row.length !== 2 || !isDocumentPath(row[0]) || results.has(row[0])) bad('result row');
    results.set(row[0], diagnosticsOf(row[1]));
  }
  return results;
}

/** Trees as text (newest first): `[[treeId, [[path, diagnostics], ...]], ...]`. */
export function encodeTrees(trees: readonly (readonly [string, TreeResults])[]): string {
  return JSON.stringify(trees.map(([tree, results]) => [tree, resultRows(results)]));
}

/** Reads what `encodeTrees` wrote for `kind`; throws on anything else, as `decodeRows` does. */
export function decodeTrees(kind: Kind, text: string, kinds: CacheKinds): [string, TreeResults][] {
  const trees = JSON.parse(text) as unknown;
  if (!Array.isArray(trees)) throw new BadRow('not a list of trees');
  const isDocumentPath = documentPathCheck(kinds, kind);
  return trees.map((t: unknown): [string, TreeResults] => {
    if (!Array.isArray(t) || t.length !== 2 || typeof t[0] !== 'string' || !OBJECT_ID.test(t[0])) bad('tree');
    return [t[0], resultsOf(t[1], isDocumentPath)];
  });
}

/** Whether `encodeTrees` can keep these results: `decodeTrees` reads a file's list up to the cap of its own diagnostics. */
export function keepableTree(results: TreeResults): boolean {
  for (const list of results.values()) if (list.length === 0 || list.length > MAX_DIAGNOSTICS) return false;
  return true;
}

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
  rules: string;
  sections: Partial<Record<Kind, Range>>;
  updates?: Partial<Record<Kind, Range>>;
  listings?: Partial<Record<Kind, Folders>>;
  trees?: Partial<Record<Kind, Range>>;
  results?: Partial<Record<Kind, Range>>;
}

export interface CacheFile {
  docgate: string;
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
}

export function parseCacheFile(bytes: Buffer): CacheFile | null {
  const nl = bytes.indexOf(10);
  if (nl === -1) return null;
  const header = JSON.parse(bytes.toString('utf8', 0, nl)) as Header;
  if (header.format !== FORMAT || typeof header.docgate !== 'string' || typeof header.rules !== 'string' || typeof header.sections !== 'object' || header.sections === null) return null;
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
  return { docgate: header.docgate, rules: header.rules, kinds, updates, listings, ...(header.trees ? { trees } : {}), ...(header.results ? { results } : {}) };
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
    header = JSON.stringify({ format: FORMAT, docgate: data.docgate, rules: data.rules, ...rest, listings: data.listings ?? {}, ...(some(data.trees) ? { trees } : {}), ...(some(data.results) ? { results } : {}) });
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
      if (data && data.docgate === version && data.rules === rulesKey) return { data };
    } else if (read && read.kind !== 'gone' && !(read.kind === 'error' && read.code === 'ENOTDIR')) {
      return { problem: `cache ${file} ignored: ${whyUnread(read, MAX_CACHE_BYTES)}` };
    }
  } catch {
    /* no usable cache yet */
  }
  return { problem: null };
}

/**
 * ESLint's `--cache`, for docgate: entries are valid only under the same docgate version and the same
 * rule files (schemas, outline, heading tables); a file is skipped when its content hash is unchanged.
 * A missing, unreadable or foreign cache file is an empty cache, never an error.
 */
/**
 * What a run that looks up a few paths of a kind holds instead of the kind's decoded section: the
 * section parsed as JSON but not checked row by row (5,000 rows checked and made entries cost more than a
 * one-file lint's other work), its updates decoded (few), the rows found, and the entries set.
 */
interface Light {
  rows: readonly unknown[];
  updates: Entries;
  found: Map<string, CacheEntry | undefined>;
  sets: Entries;
}

/** Look-ups of one kind answered without decoding its section; past this, the section is decoded whole. */
const LIGHT_LOOKUPS = 64;

/** A kind's rows' results across files: computed by the caller from the rows (see `LintCache.save`). */
export type ResultsOf = (kind: Kind, entries: ReadonlyMap<string, CacheEntry>) => TreeResults;

/**
 * The results across files of a kind's rows, kept beside them, and the paths whose rows are racy: a run
 * whose listing is trusted checks those files again (see `CacheMemo.lookup`), so the results hold for a
 * run only when it checks every one of them itself.
 */
export interface KeptResults {
  racy: Set<string>;
  results: TreeResults;
}

export class LintCache {
  private readonly parsed = new Map<Kind, Entries>();
  /** Kinds looked up or set without decoding their section (see `Light`). */
  private readonly light = new Map<Kind, Light>();
  /** Per kind, the paths set since the section was read, plus those already in its updates. */
  private readonly updated = new Map<Kind, Set<string>>();
  /** Kinds whose section must be written whole (an entry dropped, or the section unreadable). */
  private readonly rewrite = new Set<Kind>();
  /** Kinds with an entry set or dropped in this run. */
  private readonly touched = new Set<Kind>();
  /** Kinds where a path came or went, or an id or facts changed: the results across files kept for them no longer hold. */
  private readonly factsChanged = new Set<Kind>();
  private readonly kept = new Map<Kind, KeptResults | null>();

  private fresh = false;
  private headerDirty = false;
  private lightMode = false;
  /** Why the cache file on disk was not used (a warning), or null. */
  problem: string | null = null;

  private constructor(
    readonly file: string,
    private readonly root: string,
    private readonly data: CacheFile,
    private readonly kinds: CacheKinds,
  ) {}

  /**
   * Reads the cache of `root` from `file`: a regular file of at most MAX_CACHE_BYTES, opened without
   * blocking and without following a link at its end out of the root (nor out of its own folder when
   * --cache-location puts it outside the root). Anything else is an empty cache, with `problem` saying why.
   */
  static load(file: string, version: string, rulesKey: string, root: string, kinds: CacheKinds = builtin()): LintCache {
    const read = readCacheFile(file, version, rulesKey, root);
    if ('data' in read) return new LintCache(file, root, read.data, kinds);
    const cache = new LintCache(file, root, { docgate: version, rules: rulesKey, kinds: {} }, kinds);
    cache.fresh = true;
    cache.problem = read.problem;
    return cache;
  }

  private section(kind: Kind): Entries {
    let entries = this.parsed.get(kind);
    if (!entries) {
      entries = new Map();
      const updated = new Set<string>();
      const text = this.data.kinds[kind];
      const updates = this.data.updates?.[kind];
      try {
        if (text !== undefined) entries = decodeSection(kind, String(text), this.kinds);
        if (updates !== undefined) {
          for (const [path, entry] of decodeSection(kind, String(updates), this.kinds)) {
            entries.set(path, entry);
            updated.add(path);
          }
        }
      } catch {
        // Unreadable or with a bad row: the kind starts afresh, and its recorded listing (the section's
        // paths) goes with it.
        entries = new Map();
        this.rewrite.add(kind);
        this.touched.add(kind);
        this.factsChanged.add(kind);
        if (this.data.listings?.[kind] !== undefined) {
          delete this.data.listings[kind];
          this.headerDirty = true;
        }
      }
      // What was set before the section was decoded is newer than its rows.
      for (const [path, entry] of this.light.get(kind)?.sets ?? []) {
        entries.set(path, entry);
        updated.add(path);
      }
      this.light.delete(kind);
      this.parsed.set(kind, entries);
      this.updated.set(kind, updated);
    }
    return entries;
  }

  /**
   * Within `fn`, look-ups and sets leave the sections of their kinds undecoded (see `Light`): for a run
   * that asks the cache about a few named files only (`CacheMemo.few`). Outside, a kind is decoded whole
   * when first asked about, as every other run asks about all of its files.
   */
  lightly<T>(fn: () => T): T {
    this.lightMode = true;
    try {
      return fn();
    } finally {
      this.lightMode = false;
    }
  }

  /** The kind's section parsed but not decoded, for a few look-ups; null once (or when) it must be decoded whole. */
  private lightOf(kind: Kind): Light | null {
    if (this.parsed.has(kind)) return null;
    let l = this.light.get(kind);
    if (l) return this.lightMode && l.found.size < LIGHT_LOOKUPS ? l : null;
    if (!this.lightMode || this.data.kinds[kind] === undefined) return null;
    try {
      const text = this.data.kinds[kind];
      const updates = this.data.updates?.[kind];
      const rows = text === undefined ? [] : (JSON.parse(String(text)) as unknown);
      if (!Array.isArray(rows)) return null;
      l = { rows, updates: updates === undefined ? new Map() : decodeSection(kind, String(updates), this.kinds), found: new Map(), sets: new Map() };
    } catch {
      return null; // decoded whole, which finds the section bad and starts the kind afresh
    }
    this.light.set(kind, l);
    return l;
  }

  private changed(kind: Kind): Set<string> {
    this.section(kind);
    return this.updated.get(kind)!;
  }

  get(path: string, kind: Kind): CacheEntry | undefined {
    const l = this.lightOf(kind);
    if (!l) return this.section(kind).get(path);
    if (l.sets.has(path)) return l.sets.get(path);
    if (l.updates.has(path)) return l.updates.get(path);
    if (!l.found.has(path)) {
      try {
        l.found.set(path, findRow(l.rows, path, kind, this.kinds));
      } catch {
        return this.section(kind).get(path); // a bad row: the whole section is judged
      }
    }
    return l.found.get(path);
  }

  /** The recorded folders of a kind's listing, if its section was recorded with one. */
  folders(kind: Kind): Folders | undefined {
    this.section(kind); // a section that does not decode has no listing to trust
    return this.data.listings?.[kind];
  }

  /**
   * The recorded folders of a kind's listing, its section not decoded: for a run that takes no document
   * of the kind from the section but those it looks up (see `results`).
   */
  keptFolders(kind: Kind): Folders | undefined {
    return this.data.listings?.[kind];
  }

  /**
   * The results across files of the kind's documents as its rows hold them (every row read back unread,
   * as a run whose listing is trusted takes them), kept by the run that wrote the rows; null when none
   * were kept or they no longer hold.
   */
  results(kind: Kind): KeptResults | null {
    return this.factsChanged.has(kind) ? null : this.keptOf(kind);
  }

  private keptOf(kind: Kind): KeptResults | null {
    if (!this.kept.has(kind)) {
      const text = this.data.results?.[kind];
      let kept: KeptResults | null = null;
      try {
        const r = text === undefined ? null : (JSON.parse(String(text)) as unknown);
        if (Array.isArray(r) && r.length === 3 && r[0] === this.stamp(kind) && Array.isArray(r[1])) {
          const isDocumentPath = documentPathCheck(this.kinds, kind);
          const racy = new Set<string>();
          for (const path of r[1] as unknown[]) racy.add(isDocumentPath(path) ? path : bad('racy path'));
          kept = { racy, results: resultsOf(r[2], isDocumentPath) };
        }
      } catch {
        kept = null;
      }
      this.kept.set(kind, kept);
    }
    return this.kept.get(kind) ?? null;
  }

  private stamp(kind: Kind): string | null {
    return stampOf(this.data.kinds[kind], this.data.updates?.[kind]);
  }

  /** How many rows a kind has (its section decoded whole). */
  size(kind: Kind): number {
    return this.section(kind).size;
  }

  /** The paths of a kind's section, sorted (code point order, as discovery sorts). */
  paths(kind: Kind): string[] {
    const paths = Array.from(this.section(kind).keys());
    // Sections are written in path order; only entries added since (by `set`) can be out of place.
    for (let i = 1; i < paths.length; i++) if (paths[i - 1]! > paths[i]!) return paths.sort();
    return paths;
  }

  /** Records (or, with null, forgets) the folders a kind's section was just listed from. */
  setListing(kind: Kind, folders: Folders | null): void {
    const listings = (this.data.listings ??= {});
    const before = listings[kind];
    if (folders) listings[kind] = folders;
    else delete listings[kind];
    if (JSON.stringify(before) !== JSON.stringify(folders ?? undefined)) this.headerDirty = true;
  }

  set(path: string, entry: CacheEntry): void {
    const kind = entry.kind;
    if (!this.factsChanged.has(kind)) {
      const before = this.get(path, kind);
      // An unread file (no hash) is analyzed again by every run: its row says nothing certain.
      if (!before || before.hash === null || entry.hash === null || !this.sameFacts(before, entry)) this.factsChanged.add(kind);
      else {
        const kept = this.keptOf(kind);
        if (kept && entry.racy) kept.racy.add(path);
        else if (kept) kept.racy.delete(path);
      }
    }
    const l = this.lightOf(kind);
    if (l) l.sets.set(path, entry);
    else {
      this.section(kind).set(path, entry);
      this.changed(kind).add(path);
    }
    this.touched.add(kind);
  }

  /** Whether two entries of a path give the rules across files the same: the same id and facts. */
  sameFacts(a: CacheEntry, b: CacheEntry): boolean {
    const k = kindOf(this.kinds, a.kind);
    return a.kind === b.kind && a.id === b.id && JSON.stringify(factsRow(k, a.facts)) === JSON.stringify(factsRow(k, b.facts));
  }

  /** Drops entries of `kinds` whose files no longer exist (entries of other kinds were not looked at). */
  retain(paths: ReadonlySet<string>, kinds: ReadonlySet<Kind>): void {
    for (const kind of kinds) {
      const entries = this.section(kind);
      for (const path of entries.keys()) {
        if (!paths.has(path)) {
          entries.delete(path);
          this.rewrite.add(kind);
          this.touched.add(kind);
          this.factsChanged.add(kind);
        }
      }
    }
  }

  /**
   * Writes atomically (safe-fs `replaceFile`); a cache that cannot be written is only a warning. With
   * `resultsOf`, the results across files of each kind decoded whole are kept beside its rows when they
   * are missing or no longer hold (as `null` when they cannot be: a row of a file not read).
   */
  save(resultsOf?: ResultsOf): string | null {
    const results = (this.data.results ??= {});
    const due = resultsOf ? [...this.parsed.keys()].filter((k) => this.factsChanged.has(k) || results[k] === undefined) : [];
    const stale = [...this.factsChanged].filter((k) => results[k] !== undefined);
    if (!this.fresh && !this.headerDirty && this.touched.size === 0 && due.length === 0 && stale.length === 0) return null;
    // Results that still hold for rows about to be written again: stamped again once they are.
    const carried = new Map<Kind, KeptResults>();
    for (const kind of this.touched) {
      const kept = this.results(kind);
      if (kept) carried.set(kind, kept);
    }
    const updates = (this.data.updates ??= {});
    for (const kind of this.touched) {
      const l = this.light.get(kind);
      if (l && l.updates.size + l.sets.size <= MAX_UPDATES) {
        // The section is carried over as read; the updates hold the rows set since it was written.
        updates[kind] = encodeSection(new Map([...l.updates, ...l.sets]), this.kinds);
        continue;
      }
      const entries = this.section(kind);
      const changed = this.updated.get(kind)!;
      if (this.rewrite.has(kind) || this.data.kinds[kind] === undefined || changed.size > MAX_UPDATES) {
        this.data.kinds[kind] = encodeSection(entries, this.kinds);
        delete updates[kind];
        changed.clear();
      } else {
        updates[kind] = encodeSection(new Map([...changed].map((path) => [path, entries.get(path)!])), this.kinds);
      }
    }
    for (const kind of stale) delete results[kind];
    for (const [kind, kept] of carried) results[kind] = encodeKept(this.stamp(kind), kept);
    for (const kind of due) {
      const entries = this.parsed.get(kind)!;
      let read = true;
      const racy = new Set<string>();
      for (const [path, e] of entries) {
        if (e.hash === null) read = false;
        if (e.racy) racy.add(path);
      }
      const found = read ? resultsOf!(kind, entries) : null;
      results[kind] = found && keepableTree(found) ? encodeKept(this.stamp(kind), { racy, results: found }) : 'null';
    }
    const problem = writeCacheFile(this.root, this.file, this.data);
    if (problem !== null) return problem;
    this.touched.clear();
    this.rewrite.clear();
    this.factsChanged.clear();
    this.kept.clear();
    this.fresh = false;
    this.headerDirty = false;
    return null;
  }
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
