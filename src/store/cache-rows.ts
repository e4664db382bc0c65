/**
 * The rows of docgate's caches (the lint cache and the staged cache): one file's analysis as a flat JSON
 * array, written and read back with every part checked (a cache file is data anyone with write access to
 * the root can change), and the results across files of a kind, by path.
 */
import type { Facts } from '../model/analysis.js';
import { builtinLayout } from '../kinds/index.js';
import type { Layout } from '../io/layout.js';
import { MAX_DIAGNOSTICS } from '../model/result.js';
import { isPosition } from '../engine/facts-codec.js';
import type { Directive } from '../parse/directives.js';
import { builtinKind } from '../kinds/index.js';
import type { AnyKind } from '../engine/kind.js';
import type { Diagnostic, Kind } from '../model/types.js';
import type { FileRef } from '../io/layout.js';
import type { Analysis } from '../model/analysis.js';
import type { Kept } from './store.js';

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

/** A row's entry as a store answers it (store.ts `Kept`). */
export function fromEntry(ref: Pick<FileRef, 'path'>, e: CacheEntry): Kept {
  const analysis: Analysis = { path: ref.path, kind: e.kind, id: e.id, diagnostics: e.diagnostics, facts: e.facts, doc: null };
  if (e.directives) analysis.directives = e.directives;
  return { analysis, version: e.identity, hash: e.hash, full: e.full, racy: e.racy === true };
}

/** What a row keeps of an analysis (its parsed document is never kept). */
export function toEntry(k: Kept): CacheEntry {
  const { kind, id, diagnostics, facts, directives } = k.analysis;
  return {
    kind,
    id,
    hash: k.hash,
    identity: k.version,
    full: k.full,
    diagnostics,
    facts,
    ...(directives ? { directives } : {}),
    ...(k.racy ? { racy: true as const } : {}),
  };
}

/** A kind's entries by path; kept in path order when read from disk. */
export type Entries = Map<string, CacheEntry>;

/**
 * One entry on disk: a flat array, so that the section of 5,000 files parses in a few milliseconds
 * (a pre-commit run parses the whole section of its kind for the cross-file facts). What can be
 * derived from the path (kind, a variant's language and file name) is not stored.
 */
type Row = [
  path: string,
  identity: string,
  hash: string | null,
  flags: number,
  id: string | 0,
  diagnostics: Diagnostic[] | 0,
  facts: unknown,
  directives?: DirectiveRow[],
];
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

/** The kinds of the registry where the default layout places them (a cache read without a project: tests, tools). */
export function builtin(): CacheKinds {
  return (builtinKinds ??= { kind: builtinKind, layout: builtinLayout() });
}

export function kindOf(kinds: CacheKinds, kind: Kind): AnyKind {
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

export function bad(what: string): never {
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
    if (!isPosition(o['line']) || !isPosition(o['column']) || typeof o['rule'] !== 'string' || !RULE_ID.test(o['rule']) || typeof o['message'] !== 'string')
      bad('diagnostic');
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

export function documentPathCheck(kinds: CacheKinds, kind: Kind): (path: unknown) => path is string {
  const holds = kinds.layout.holder(kind);
  return (path: unknown): path is string => typeof path === 'string' && !path.startsWith('/') && !DOT_SEGMENT.test(path) && holds(path);
}

export function factsRow(k: AnyKind, f: Facts): unknown {
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
    if (!isPosition(d[0]) || !isPosition(d[1]) || typeof d[2] !== 'string' || !isPosition(d[4]) || !(to === -1 || isPosition(to)) || (d[6] !== 0 && d[6] !== 1))
      bad('directive');
    if (rules !== 0 && !(Array.isArray(rules) && rules.every((x) => typeof x === 'string' && RULE_ID.test(x)))) bad('directive rules');
    list.push({
      at: { line: d[0], column: d[1] },
      text: d[2],
      rules: rules === 0 ? null : (rules as string[]),
      from: d[4],
      to: to === -1 ? Infinity : (to as number),
    });
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
  return encodeRows(
    [...entries.keys()].sort().map((path) => [path, entries.get(path)!]),
    kinds,
  );
}

/** Rows as text, in the order given (a path may appear more than once: the staged cache keeps versions). */
export function encodeRows(list: readonly (readonly [string, CacheEntry])[], kinds: CacheKinds = builtin()): string {
  const rows: Row[] = list.map(([path, e]) => {
    const k = kindOf(kinds, e.kind);
    const id = e.id === usualId(k, path, e.facts) ? 0 : e.id;
    const row: Row = [
      path,
      e.identity,
      e.hash,
      (e.full ? FULL : 0) | (e.racy ? RACY : 0),
      id,
      e.diagnostics.length > 0 ? e.diagnostics : 0,
      factsRow(k, e.facts),
    ];
    if (e.directives)
      row.push(
        e.directives.list.map((d, i) => [d.at.line, d.at.column, d.text, d.rules ?? 0, d.from, d.to === Infinity ? -1 : d.to, e.directives!.used[i] ? 1 : 0]),
      );
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

/** A section's rows already parsed as JSON (but not checked), decoded as `decodeSection` decodes its text. */
export function decodeParsedRows(kind: Kind, rows: readonly unknown[], kinds: CacheKinds): Entries {
  const entries: Entries = new Map();
  eachRow(kind, rows, kinds, (path, entry) => entries.set(path, entry));
  return entries;
}

/** Reads rows written by `encodeRows`, each handed to `each` in order; throws as `decodeSection` does. */
export function decodeRows(kind: Kind, text: string, kinds: CacheKinds, each: (path: string, entry: CacheEntry) => void): void {
  const rows = JSON.parse(text) as unknown;
  if (!Array.isArray(rows)) throw new BadRow('not a cache section');
  eachRow(kind, rows, kinds, each);
}

function eachRow(kind: Kind, rows: readonly unknown[], kinds: CacheKinds, each: (path: string, entry: CacheEntry) => void): void {
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
  const entry: CacheEntry = {
    kind,
    id: id === 0 ? usualId(k, path, facts) : (id as string),
    hash: hash as string | null,
    identity,
    full: ((flags as number) & FULL) !== 0,
    diagnostics,
    facts,
  };
  if (row.length === 8) entry.directives = directivesOf(row[7]);
  if ((flags as number) & RACY) entry.racy = true;
  return entry;
}

/**
 * The entry of one path in a section parsed as JSON but not checked (rows in path order, as
 * `encodeSection` writes them): found by bisection, and only its row checked. Undefined when absent.
 */
export function findRow(rows: readonly unknown[], path: string, kind: Kind, kinds: CacheKinds): CacheEntry | undefined {
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

/**
 * What the rules across files read of one document: its kind, id and facts, as one string. Two
 * versions of a path with the same key give every document the same results across files.
 */
export function factsKey(kinds: CacheKinds, a: { kind: Kind; id: string; facts: Facts }): string {
  return `${a.kind}\0${a.id}\0${JSON.stringify(factsRow(kindOf(kinds, a.kind), a.facts))}`;
}

/** Adds kept results to a run's results across files (copied: a run's lists are its own). */
export function addResults(into: Map<string, Diagnostic[]>, results: TreeResults): void {
  for (const [path, list] of results) into.set(path, [...list]);
}

/** A git object id (SHA-1 or SHA-256), as the staged cache keys trees. */
const OBJECT_ID = /^(?:[0-9a-f]{40}|[0-9a-f]{64})$/;

/** Results as JSON: `[[path, diagnostics], ...]` in path order. */
export function resultRows(results: TreeResults): [string, readonly Diagnostic[]][] {
  return [...results].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
}

/** Reads `resultRows` of a kind back; throws on anything else. */
export function resultsOf(r: unknown, isDocumentPath: (path: unknown) => path is string): Map<string, Diagnostic[]> {
  if (!Array.isArray(r)) bad('results');
  const results = new Map<string, Diagnostic[]>();
  for (const row of r as unknown[]) {
    if (!Array.isArray(row) || row.length !== 2 || !isDocumentPath(row[0]) || results.has(row[0])) bad('result row');
    results.set(row[0], diagnosticsOf(row[1]));
  }
  return results;
}

/** A git tree's results across files for a kind, under the digest of its documents (src/lint/digest.ts). */
export interface TreeEntry {
  tree: string;
  digest: string;
  results: TreeResults;
}

/** Trees as text (newest first): `[[treeId, digest, [[path, diagnostics], ...]], ...]`. */
export function encodeTrees(trees: readonly TreeEntry[]): string {
  return JSON.stringify(trees.map((t) => [t.tree, t.digest, resultRows(t.results)]));
}

/** Reads what `encodeTrees` wrote for `kind`; throws on anything else, as `decodeRows` does. */
export function decodeTrees(kind: Kind, text: string, kinds: CacheKinds): TreeEntry[] {
  const trees = JSON.parse(text) as unknown;
  if (!Array.isArray(trees)) throw new BadRow('not a list of trees');
  const isDocumentPath = documentPathCheck(kinds, kind);
  return trees.map((t: unknown): TreeEntry => {
    if (!Array.isArray(t) || t.length !== 3 || typeof t[0] !== 'string' || !OBJECT_ID.test(t[0]) || typeof t[1] !== 'string' || t[1] === '') bad('tree');
    return { tree: t[0], digest: t[1], results: resultsOf(t[2], isDocumentPath) };
  });
}

/** Whether `encodeTrees` can keep these results: `decodeTrees` reads a file's list up to the cap of its own diagnostics. */
export function keepableTree(results: TreeResults): boolean {
  for (const list of results.values()) if (list.length === 0 || list.length > MAX_DIAGNOSTICS) return false;
  return true;
}
