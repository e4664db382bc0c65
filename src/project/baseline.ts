/**
 * The baseline (docs/formats.md, "The baseline file"): ESLint 9's bulk suppressions, in its words and its file format. A file
 * `docgate-suppressions.json` at the root records, per document and rule, how many errors are accepted:
 * `{ "<root-relative path>": { "<rule>": { "count": n } } }`. While a document has at most that many
 * errors of the rule they are dropped from its result; with more, every one of them is reported. Warnings
 * are never suppressed. The file is loaded with the project (its text is part of the project's key) and
 * applied in the core, so lint, every report format, the hook and every MCP tool see the same results.
 */
import { isAbsolute, join, relative, resolve, sep } from 'node:path';
import { existsAsDirectory } from '../io/layout.js';
import { LineIndex } from '../model/position.js';
import { failureOf } from '../model/result.js';
import { readInside, realFolder, whyUnread } from '../io/safe-fs.js';
import { ConfigError } from '../model/errors.js';
import type { ParseFailureResult } from '../model/types.js';

export const SUPPRESSIONS_FILE = 'docgate-suppressions.json';

/** Errors per document (root-relative path) and rule, as the file keeps them. */
export type Counts = Record<string, Record<string, { count: number }>>;

export interface Suppressions {
  /** Where the file is (absolute). */
  file: string;
  /** The file as messages name it: root-relative inside the root, else absolute. */
  shown: string;
  /** Its text; null when there is no file (nothing is suppressed). Part of the project's key. */
  text: string | null;
  counts: Counts;
}

/**
 * A baseline of 100,000 documents with five rules each (500,000 entries, 28 MB as --suppress-all writes
 * it) stays below both bounds; parsing that many takes ~0.5 s and ~170 MB. The entries are counted
 * before the file is parsed, so a larger one costs nothing but its read (docs/reliability.md,
 * "Baselines").
 */
const MAX_BYTES = 32 * 1024 * 1024;
export const MAX_ENTRIES = 500_000;

/** An upper bound of the entries a text holds: each one has a `"count"` key. */
function entriesAtMost(text: string): number {
  let n = 0;
  for (let i = text.indexOf('"count"'); i !== -1; i = text.indexOf('"count"', i + 7)) n++;
  return n;
}

/**
 * The suppressions file of a root: `--suppressions-location` (relative to `cwd`; an existing folder, or
 * one written with a trailing `/`, gets docgate-suppressions.json inside it, as ESLint does), else the
 * one at the root.
 */
export function suppressionsPath(root: string, location: string | undefined, cwd: string): string {
  if (location === undefined) return join(root, SUPPRESSIONS_FILE);
  const abs = resolve(cwd, location);
  return /[\\/]$/.test(location) || existsAsDirectory(abs) ? join(abs, SUPPRESSIONS_FILE) : abs;
}

function shownPath(root: string, abs: string): string {
  const rel = relative(root, abs);
  return rel !== '' && !rel.startsWith('..') && !isAbsolute(rel) ? rel.split(sep).join('/') : abs;
}

/**
 * An object without a prototype: paths and rule ids come from a file in a repository docgate may not
 * trust, and a key `__proto__` must stay a key, never reach Object.prototype.
 */
function dict<T>(): Record<string, T> {
  return Object.create(null) as Record<string, T>;
}

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** The counts a file's text holds; a ConfigError (exit 2) naming the file when it is not what --suppress-all writes. */
function parseCounts(text: string, shown: string): Counts {
  if (entriesAtMost(text) > MAX_ENTRIES)
    throw new ConfigError(
      `${shown}: Unexpected baseline of more than ${MAX_ENTRIES.toLocaleString('en-US')} entries, expected at most ${MAX_ENTRIES.toLocaleString('en-US')} (remove the file, then record a new one with docgate lint --suppress-all)`,
    );
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch (e) {
    const message = (e as Error).message;
    const at = /at position (\d+)/.exec(message);
    const pos = new LineIndex(text).pos(at ? Number(at[1]) : 0);
    throw new ConfigError(
      `${shown}:${pos.line}:${pos.column} Unexpected text that is not JSON (${message.replace(/ in JSON at position \d+.*$/, '')}), expected the JSON that docgate lint --suppress-all writes`,
    );
  }
  const wrong = (what: string, expected: string): never => {
    throw new ConfigError(`${shown}: Unexpected ${what}, expected ${expected} (the JSON that docgate lint --suppress-all writes)`);
  };
  if (!isObject(data))
    wrong(`${JSON.stringify(data) === undefined ? 'value' : Array.isArray(data) ? 'list' : typeof data} at the top`, 'an object of documents');
  const counts: Counts = dict();
  for (const [path, rules] of Object.entries(data as Record<string, unknown>)) {
    if (!isObject(rules)) wrong(`value of \`${path}\``, 'an object of rule ids');
    counts[path] = dict();
    for (const [rule, entry] of Object.entries(rules as Record<string, unknown>)) {
      const count = isObject(entry) ? entry.count : undefined;
      if (!isObject(entry) || Object.keys(entry).length !== 1 || typeof count !== 'number' || !Number.isSafeInteger(count) || count < 1) {
        wrong(`value of \`${path}\` › \`${rule}\``, '`{ "count": n }` with a whole number n of at least 1');
      }
      counts[path]![rule] = { count: count as number };
    }
  }
  return counts;
}

/**
 * Reads the suppressions file of a root (no file: nothing suppressed). A file inside the root is read
 * only inside it (a link to elsewhere is refused, as for every file docgate reads from a repository);
 * one the user named outside the root is read where it is.
 */
export function loadSuppressions(root: string, location: string | undefined, cwd: string): Suppressions {
  const file = suppressionsPath(root, location, cwd);
  const shown = shownPath(root, file);
  const realRoot = realFolder(root) ?? root;
  const inRoot = shown !== file;
  const r = readInside(file, inRoot ? realRoot : (realFolder(resolve(file, '..')) ?? resolve(file, '..')), MAX_BYTES);
  if (r.kind === 'gone') return { file, shown, text: null, counts: dict() };
  if (r.kind !== 'bytes') throw new ConfigError(`cannot read suppressions file ${shown}: ${whyUnread(r, MAX_BYTES)}`);
  const text = r.bytes.toString('utf8');
  // The MCP server loads the project at every call: the same text is not parsed again.
  if (lastParsed?.text !== text || lastParsed.shown !== shown) lastParsed = { text, shown, counts: parseCounts(text, shown) };
  return { file, shown, text, counts: lastParsed.counts };
}

let lastParsed: { text: string; shown: string; counts: Counts } | undefined;

/** The errors (never warnings) of some results, per document and rule. */
export function errorCounts(results: readonly ParseFailureResult[]): Counts {
  const out: Counts = dict();
  for (const r of results) {
    for (const d of r.diagnostics) {
      if (d.severity === 'warning') continue;
      const rules = (out[r.path] ??= dict());
      (rules[d.rule] ??= { count: 0 }).count++;
    }
  }
  return out;
}

/**
 * One document's result under the baseline: the errors of each rule whose number is within the recorded
 * count dropped, the rest kept (its `error` text rendered again by the one renderer). `result` is null
 * when nothing is left; `suppressed` names the rules dropped.
 */
export function suppressIn(counts: Counts, r: ParseFailureResult): { result: ParseFailureResult | null; suppressed: string[] } {
  const recorded = counts[r.path];
  if (recorded === undefined) return { result: r, suppressed: [] };
  const found = errorCounts([r])[r.path] ?? {};
  const suppressed = Object.keys(found).filter((rule) => found[rule]!.count <= (recorded[rule]?.count ?? 0));
  if (suppressed.length === 0) return { result: r, suppressed };
  const kept = r.diagnostics.filter((d) => d.severity === 'warning' || !suppressed.includes(d.rule));
  return { result: kept.length === 0 ? null : failureOf(r, kept), suppressed };
}

/** The results of a run under a baseline (in the same order), and the errors found before it. */
export function applySuppressions(
  suppressions: Pick<Suppressions, 'counts'>,
  results: readonly ParseFailureResult[],
): { results: ParseFailureResult[]; found: Counts } {
  const found = errorCounts(results);
  const kept: ParseFailureResult[] = [];
  for (const r of results) {
    const { result } = suppressIn(suppressions.counts, r);
    if (result) kept.push(result);
  }
  return { results: kept, found };
}

/**
 * The recorded errors that no longer occur: per document and rule, how many fewer there are than the
 * count. Only documents in `scope` are judged (a run over some paths says nothing of the others); a
 * run over the whole root (`scope` null) judges every entry, so a document deleted, renamed or ignored
 * since has all its entries unused.
 */
export function unusedSuppressions(counts: Counts, found: Counts, scope: ReadonlySet<string> | null): Counts {
  const out: Counts = dict();
  for (const [path, rules] of Object.entries(counts)) {
    if (scope !== null && !scope.has(path)) continue;
    for (const [rule, { count }] of Object.entries(rules)) {
      const actual = found[path]?.[rule]?.count ?? 0;
      if (actual < count) (out[path] ??= dict())[rule] = { count: count - actual };
    }
  }
  return out;
}

/** `--suppress-all` (`rules` null) or `--suppress-rule`: the errors found recorded with their counts now, every other entry kept. */
export function recordSuppressions(counts: Counts, found: Counts, rules: readonly string[] | null): Counts {
  const out: Counts = dict();
  for (const [path, byRule] of Object.entries(counts)) {
    out[path] = dict();
    for (const [rule, { count }] of Object.entries(byRule)) out[path][rule] = { count };
  }
  for (const [path, byRule] of Object.entries(found)) {
    for (const [rule, { count }] of Object.entries(byRule)) {
      if (rules === null || rules.includes(rule)) (out[path] ??= dict())[rule] = { count };
    }
  }
  return out;
}

/** `--prune-suppressions`: the counts lowered by what no longer occurs; entries left at 0 removed. */
export function pruneSuppressions(counts: Counts, unused: Counts): Counts {
  const out: Counts = dict();
  for (const [path, rules] of Object.entries(counts)) {
    for (const [rule, { count }] of Object.entries(rules)) {
      const left = count - (unused[path]?.[rule]?.count ?? 0);
      if (left > 0) (out[path] ??= dict())[rule] = { count: left };
    }
  }
  return out;
}

const byCodePoint = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);

/** The file's text: documents and rules sorted, two-space JSON, a final newline (stable to diff). */
export function serializeSuppressions(counts: Counts): string {
  const sorted: Counts = dict();
  for (const path of Object.keys(counts).sort(byCodePoint)) {
    const rules = counts[path]!;
    const names = Object.keys(rules).sort(byCodePoint);
    if (names.length === 0) continue;
    sorted[path] = dict();
    for (const rule of names) sorted[path][rule] = { count: rules[rule]!.count };
  }
  return `${JSON.stringify(sorted, null, 2)}\n`;
}

/** How many errors, in how many documents, a baseline suppresses. */
export function suppressionTotals(counts: Counts): { errors: number; files: number } {
  let errors = 0;
  let files = 0;
  for (const rules of Object.values(counts)) {
    const n = Object.values(rules).reduce((sum, r) => sum + r.count, 0);
    if (n > 0) files++;
    errors += n;
  }
  return { errors, files };
}
