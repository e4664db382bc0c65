import { statSync } from 'node:fs';
import { isAbsolute, join, relative, resolve, sep } from 'node:path';
import { analyzeFileIdentified, analyzeRead, maxBytes } from './analyze.js';
import type { IdentifiedAnalysis } from './analyze.js';
import type { Analysis } from './analysis.js';
import { crossFileDiagnostics } from './cross-file.js';
import { contentHash, identityOf, readLimited } from './file-identity.js';
import type { ReadOutcome } from './file-identity.js';
import { discover, reach, refAt } from './layout.js';
import type { FileRef } from './layout.js';
import { LintCache } from './lint-cache.js';
import type { Folders } from './cache-file.js';
import type { CacheEntry } from './cache-rows.js';
import type { ResultsOf } from './lint-cache.js';
import { analyzeInParallel, worthThreads } from './parallel.js';
import type { Split } from './parallel.js';
import { hasError, resultOf } from './result.js';
import { skippedPath } from './named-paths.js';
import { realFolder } from './safe-fs.js';
import { ConfigError } from './schemas.js';
import type { Diagnostic, Kind, ParseFailureResult } from './types.js';
import { Suppressions } from '../engine/directives.js';
import { unexpected } from '../engine/rule.js';
import { unusedDirective, unusedDisableDirective } from '../rules/directives/unused-disable-directive.js';
import { VERSION } from './version.js';
import { loadProject, projectOptions } from '../engine/project.js';
import type { Project, ProjectOptions } from '../engine/project.js';
import type { RuleEntry } from '../kinds/index.js';
import { applySuppressions } from '../engine/baseline.js';
import type { Counts } from '../engine/baseline.js';
import { servedUnderBaseline } from './baseline-doc.js';
import { tally } from './tally.js';

/**
 * The one lint pipeline (SPEC §9): plan what to check from a project's layout, reuse what a memo knows
 * (the lint cache on disk, the MCP server's live memory), read and analyze the rest (in this thread or
 * on worker threads), run the rules across files over every document of the kinds involved, and make
 * the results of the documents selected. `lint` (plain files), `lintFiles` (the CLI: cache and workers)
 * and the MCP server's `Repository` are this pipeline with different memos.
 */

export interface LintOptions extends ProjectOptions {
  root: string;
  /** Files or folders (absolute, or relative to `cwd`); none = the whole root. */
  paths?: readonly string[];
  /** The project, when the caller has loaded it already (else it is loaded from `root`). */
  project?: Project;
}

/** SPEC §4.3 / §8 `json`: what every report format is made from. */
export interface LintReport {
  /** The documents that fail: an error (with their warnings too). */
  results: ParseFailureResult[];
  /** The documents that pass with warnings (the same shape). */
  warnings: ParseFailureResult[];
  filesChecked: number;
  /** Errors and warnings of `results` and `warnings`. */
  problemCount: number;
  errorCount: number;
  warningCount: number;
}

/** The report plus what was checked, for formats that list passing files too (JUnit). */
export interface LintRun extends LintReport {
  root: string;
  checked: Pick<FileRef, 'path' | 'kind'>[];
  /** Every rule of the project by id (kinds of the root's own included): what reports describe rules by. */
  rules?: ReadonlyMap<string, RuleEntry>;
  /** The project's kinds in registry order (JUnit suites). */
  kinds?: readonly string[];
  /** A configuration file is in effect (the json report then carries warnings and counts, SPEC §8). */
  configured?: boolean;
  /** The errors of the documents checked per document and rule, before the baseline dropped any (for the baseline flags). */
  errorCounts?: Counts;
  /** `--fix-dry-run`: root-relative path → the text after every fix, for the documents the fixes would change (SPEC §11). */
  outputs?: ReadonlyMap<string, string>;
}

/** Resolves `--root`: it must exist and be a folder (else a configuration error, exit 2). */
export function resolveRoot(root: string, cwd = process.cwd()): string {
  const abs = resolve(cwd, root);
  let ok = false;
  try {
    ok = statSync(abs).isDirectory();
  } catch {
    ok = false;
  }
  if (!ok) throw new ConfigError(`root ${root} does not exist or is not a folder`);
  return abs;
}

interface Target {
  /** The path as the user gave it. */
  given: string;
  /** Root-relative path with `/` separators ('' = the root itself). */
  rel: string;
  dir: boolean;
  /**
   * Not found by its name, which Node decoded lossily from the command line (a file name that is not
   * valid UTF-8 arrives with U+FFFD): discovery finds it by that lossy name, or it is "no such file".
   */
  lossy?: string;
}

/** A root-relative path with `/` separators, or null when `abs` lies outside `root`. Lexical: no I/O. */
function inside(root: string, abs: string): string | null {
  const rel = relative(root, abs);
  if (rel === '' || (!rel.startsWith('..') && !isAbsolute(rel))) return rel.split(sep).join('/');
  return null;
}

/** Resolves the paths given on the command line to root-relative targets (usage errors: exit 2). */
function targets(project: Project, paths: readonly string[], cwd: string): Target[] {
  const root = project.root;
  const realRoot = realFolder(root) ?? root;
  const classify = (rel: string) => project.layout.classify(rel);
  return paths.map((p) => {
    const abs = resolve(cwd, p);
    // Inside the root or not is decided by the path alone, before anything is looked at, so the answer
    // for a path outside the root is the same whether it exists or not (the MCP validate tool must not
    // tell). A path through the root's real location counts as inside too.
    const rel = inside(root, abs) ?? inside(realRoot, abs);
    if (rel === null) throw new ConfigError(`${p} is outside the root ${root}`);
    // Then folder by folder from the root: the path itself decides, not where a symlink at its end
    // points (a staged link to outside the root is a document that lint reports as file-symlink). Past a
    // folder that resolves outside the root nothing is looked at: discovery reports that folder.
    const r = reach(root, realRoot, rel);
    if (r.kind === 'found') return { given: p, rel, dir: r.dir };
    if (r.kind === 'outside') return { given: p, rel, dir: classify(rel) === null };
    if (rel.includes('\uFFFD') && classify(rel) !== null) return { given: p, rel, dir: false, lossy: p };
    throw new ConfigError(`no such file or folder: ${p}`);
  });
}

/** The kinds a target can hold: a file has at most one; a folder, those whose folders meet it. */
function kindsOf(project: Project, t: Target): Kind[] {
  if (!t.dir) {
    const c = project.layout.classify(t.rel);
    return c ? [c.kind] : [];
  }
  return project.layout.kindsUnder(t.rel);
}

/** The kinds a lint of `paths` needs (every kind of the project when none are given): what a caller may load first. */
export function kindsFor(project: Project, paths: readonly string[] | undefined, cwd: string): Kind[] {
  if (!paths || paths.length === 0) return [...project.layout.kinds];
  const wanted = new Set(targets(project, paths, cwd).flatMap((t) => kindsOf(project, t)));
  return project.layout.kinds.filter((k) => wanted.has(k));
}

/** Whether a document is selected by the targets; a folder's failure also when a target lies inside that folder. */
function isSelected(ref: Pick<FileRef, 'path' | 'problem'>, ts: readonly Target[]): boolean {
  const path = ref.path;
  const folder = ref.problem === 'folder-outside' || ref.problem === 'folder-unreadable';
  return ts.some((t) => t.rel === '' || path === t.rel || (t.dir && path.startsWith(`${t.rel}/`)) || (folder && t.rel.startsWith(`${path}/`)));
}

/** A target named by a lossy name that discovery did not find either: it does not exist after all. */
function checkFound(ts: readonly Target[], selected: ReadonlySet<string>): void {
  for (const t of ts) if (t.lossy !== undefined && !selected.has(t.rel)) throw new ConfigError(`no such file or folder: ${t.lossy}`);
}

export interface Plan {
  /** The documents of the kinds the selection needs (cross-file rules are per kind). */
  needed: FileRef[];
  selected: Set<string>;
  /** The targets given (none: the whole root). */
  targets: Target[];
  /** Warnings for named paths that select no document (ignored, or no document of any kind). */
  skipped: string[];
}

export function byPath<T extends { path: string }>(refs: T[]): T[] {
  // Each kind's list is sorted already: merging a few sorted runs is linear for V8's TimSort.
  return refs.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
}

/** What a run may reuse instead of listing, reading and analyzing. */
export interface Memo {
  /** A kind's documents, when the memo can vouch for them without listing their folders; else null. */
  listing(kind: Kind): FileRef[] | null;
  /** A kind's folders were just listed (with each folder's identity, null for one not listed). */
  listed(kind: Kind, folders: ReadonlyMap<string, string | null>, refs: readonly FileRef[]): void;
  /** What is known of a document: its analysis, still valid; bytes already read to find that out; or nothing. */
  lookup(ref: FileRef, full: boolean): Reuse | null;
  /** A document just analyzed (`full`: with its rules, not only for its facts). */
  remember(ref: FileRef, full: boolean, result: IdentifiedAnalysis): void;
}

export type Reuse = { analysis: Analysis } | { read: ReadOutcome; hash: string };

/**
 * Finds what to lint. Only the kinds of the selected documents are listed: cross-file rules never
 * cross kinds, so one staged process never lists the SysRS folder.
 */
export function plan(project: Project, paths: readonly string[] | undefined, cwd: string, memo: Memo | null, only?: readonly Kind[]): Plan {
  const list = (kind: Kind): FileRef[] => {
    const known = memo?.listing(kind);
    if (known) return known;
    const folders = new Map<string, string | null>();
    const refs = discover(project.root, new Set([kind]), folders, project.layout);
    memo?.listed(kind, folders, refs);
    return refs;
  };
  if (!paths || paths.length === 0) {
    const all = byPath((only ?? project.layout.kinds).flatMap(list));
    return { needed: all, selected: new Set(all.map((f) => f.path)), targets: [], skipped: [] };
  }
  const ts = targets(project, paths, cwd);
  const needed = byPath([...new Set(ts.flatMap((t) => kindsOf(project, t)))].flatMap(list));
  const selected = new Set(needed.filter((f) => isSelected(f, ts)).map((f) => f.path));
  const kinds = new Set(needed.filter((f) => selected.has(f.path)).map((f) => f.kind));
  checkFound(ts, selected);
  // A file is skipped when it is no document (classify: ignored, or of no kind); a folder when it selected none.
  const selects = (t: Target): boolean => (t.dir ? needed.some((f) => selected.has(f.path) && isSelected(f, [t])) : project.layout.classify(t.rel) !== null);
  const skipped = ts.flatMap((t) => skippedPath(project, t.given, t.rel, t.dir, selects(t)) ?? []);
  return { needed: needed.filter((f) => kinds.has(f.kind)), selected, targets: ts, skipped };
}

/** A document to read and analyze: its place in the plan, and the bytes read already, if any. */
export interface Work {
  ref: FileRef;
  withBody: boolean;
  index: number;
  read?: { outcome: ReadOutcome; hash: string };
}

/** Every needed document: reused from the memo (its slot filled), or work to do. */
export function prepare(p: Plan, memo: Memo | null): { slots: (Analysis | null)[]; work: Work[] } {
  const slots: (Analysis | null)[] = new Array(p.needed.length).fill(null);
  const work: Work[] = [];
  for (let index = 0; index < p.needed.length; index++) {
    const ref = p.needed[index]!;
    const withBody = p.selected.has(ref.path);
    const known = memo?.lookup(ref, withBody) ?? null;
    if (known && 'analysis' in known) slots[index] = known.analysis;
    else if (known) work.push({ ref, withBody, index, read: { outcome: known.read, hash: known.hash } });
    else work.push({ ref, withBody, index });
  }
  return { slots, work };
}

/** One piece of work, in this thread (`hashing: false` when no memo keeps content hashes). */
export function analyzeWork(project: Project, w: Work, hashing = true): IdentifiedAnalysis | null {
  return w.read ? analyzeRead(w.ref, w.read.outcome, project, w.withBody, w.read.hash) : analyzeFileIdentified(w.ref, project, w.withBody, hashing);
}

/** The work, in this thread. */
export function analyzeHere(project: Project, work: readonly Work[]): (IdentifiedAnalysis | null)[] {
  return work.map((w) => analyzeWork(project, w));
}

/** One result into its slot, and into the memo. */
export function fillOne(slots: (Analysis | null)[], w: Work, r: IdentifiedAnalysis | null, memo: Memo | null): void {
  if (!r) return; // vanished between discovery and read: omitted
  slots[w.index] = r.analysis;
  memo?.remember(w.ref, w.withBody, r);
}

/** The results of the work into their slots, and into the memo. */
export function fill(slots: (Analysis | null)[], work: readonly Work[], done: readonly (IdentifiedAnalysis | null)[], memo: Memo | null): void {
  done.forEach((r, i) => fillOne(slots, work[i]!, r, memo));
}

/** The work done: rules across files, and the results. */
function complete(project: Project, p: Plan, slots: (Analysis | null)[], work: readonly Work[], done: readonly (IdentifiedAnalysis | null)[], memo: Memo | null): LintRun {
  fill(slots, work, done, memo);
  return finish(project, slots.filter((a): a is Analysis => a !== null), p.selected);
}

/** One document of a kind with its analysis and its result: what MCP tools serve. */
export interface KindEntry {
  ref: FileRef;
  analysis: Analysis;
  /** Own and cross-file diagnostics when one is an error; null when the document passes (then `analysis.doc` or `analysis.row` is set). */
  failure: ParseFailureResult | null;
  /** The diagnostics of a document that passes with warnings only (SPEC §8: it is served, with them). */
  warnings: ParseFailureResult | null;
}

/** Every document of one kind through the pipeline, each with its result (the MCP server's view of a kind). */
export function lintKind(project: Project, kind: Kind, memo: Memo | null): KindEntry[] {
  const { p, slots, work } = planKind(project, kind, memo);
  fill(slots, work, analyzeHere(project, work), memo);
  return kindEntries(project, p, slots, memo);
}

/** `lintKind`'s first half: the kind's documents, those the memo knows, and the work left to analyze. */
export function planKind(project: Project, kind: Kind, memo: Memo | null): { p: Plan; slots: (Analysis | null)[]; work: Work[] } {
  const p = plan(project, undefined, project.root, memo, [kind]);
  return { p, ...prepare(p, memo) };
}

/** `lintKind`'s second half, once every slot is filled (`fill`): rules across files, and each document's result. */
export function kindEntries(project: Project, p: Plan, slots: readonly (Analysis | null)[], memo: Memo | null): KindEntry[] {
  const entries: { ref: FileRef; analysis: Analysis }[] = [];
  slots.forEach((analysis, i) => {
    if (analysis) entries.push({ ref: p.needed[i]!, analysis });
  });
  const cross = crossFileDiagnostics(project.kinds, entries.map((e) => e.analysis), project.severityFor);
  return entries.map((e) => {
    const { result: r, analysis } = servedUnderBaseline(project, e.ref, e.analysis, resultOf(e.analysis, othersOf(project, e.analysis, cross.get(e.analysis.path))), memo);
    const failing = r !== null && hasError(r.diagnostics);
    return { ref: e.ref, analysis, failure: failing ? r : null, warnings: failing ? null : r };
  });
}

/**
 * The run of one document as if it held `read` (MCP check_content, SPEC §11): every other document of its
 * kind as it is on disk (through `memo`, the server's live memory), this one analyzed from the bytes
 * given, then the same finish as lint (rules across files, directives, baseline). For the bytes on disk
 * its result is lint's, byte for byte.
 */
export function lintProposed(project: Project, ref: FileRef, read: ReadOutcome, memo: Memo | null): LintRun {
  const p = plan(project, undefined, project.root, memo, [ref.kind]);
  const others = p.needed.map((r, i) => ({ r, i })).filter(({ r }) => r.path !== ref.path);
  const slots: (Analysis | null)[] = new Array(p.needed.length).fill(null);
  const work: Work[] = [];
  for (const { r, i } of others) {
    const known = memo?.lookup(r, true) ?? null;
    if (known && 'analysis' in known) slots[i] = known.analysis;
    else work.push(known ? { ref: r, withBody: true, index: i, read: { outcome: known.read, hash: known.hash } } : { ref: r, withBody: true, index: i });
  }
  fill(slots, work, analyzeHere(project, work), memo);
  // The proposed text is never remembered: the memo holds what is on disk.
  const proposed = analyzeRead(ref, read, project, true, '')?.analysis ?? null;
  const at = p.needed.findIndex((r) => r.path === ref.path);
  const analyses = slots.filter((a): a is Analysis => a !== null);
  if (proposed) {
    // In its place by path, as lint orders documents (the first of two duplicates keeps its name).
    const after = analyses.findIndex((a) => a.path > ref.path);
    analyses.splice(at >= 0 ? slots.slice(0, at).filter((a) => a !== null).length : after === -1 ? analyses.length : after, 0, proposed);
  }
  return finish(project, analyses, new Set([ref.path]));
}

/**
 * The diagnostics a document gets besides its own: those of the rules across files, less what its inline
 * directives suppress, and one for each directive that suppressed nothing at all.
 */
function othersOf(project: Project, a: Analysis, cross: readonly Diagnostic[] | undefined): readonly Diagnostic[] | undefined {
  if (!a.directives) return cross;
  const s = new Suppressions(a.directives.list, a.directives.used);
  const kept = (cross ?? []).filter((d) => !s.suppresses(d.line, d.rule));
  const level = project.severityFor(a.path)(unusedDisableDirective.id);
  if (level === 'off') return kept;
  for (const d of s.unused()) {
    const u = unusedDirective(d);
    const diagnostic: Diagnostic = { line: u.at.line, column: u.at.column, rule: unusedDisableDirective.id, message: unexpected(u.found, u.expected) };
    if (level === 'warning') diagnostic.severity = 'warning';
    kept.push(diagnostic);
  }
  return kept;
}

/** Rules across files over every analysis, then the results of the selected documents under the baseline. */
export function finish(project: Project, analyses: readonly Analysis[], selected: ReadonlySet<string>, cross = crossFileDiagnostics(project.kinds, analyses, project.severityFor)): LintRun {
  const found: ParseFailureResult[] = [];
  const checked: LintRun['checked'] = [];
  for (const a of analyses) {
    if (!selected.has(a.path)) continue;
    checked.push({ path: a.path, kind: a.kind });
    // Inline directives first (in `othersOf` and at analysis), then the baseline, as ESLint applies them.
    const r = resultOf(a, othersOf(project, a, cross.get(a.path)));
    if (r) found.push(r);
  }
  const { results, found: errorCounts } = applySuppressions(project.suppressions, found);
  return {
    root: project.root,
    ...tally(results),
    filesChecked: checked.length,
    checked,
    rules: project.rules,
    kinds: project.kinds.map((k) => k.name),
    configured: project.config.file !== null,
    errorCounts,
  };
}

/**
 * Lints a root (or some of its documents) in this thread: every document read from disk, or reused
 * from `memo` (the MCP server's memory). Cross-file rules always see the whole kind: documents not
 * selected are analyzed for their cross-file facts only.
 */
export function lint(options: LintOptions, memo: Memo | null = null): LintRun {
  const project = options.project ?? loadProject(options.root, options);
  const p = plan(project, options.paths, options.cwd ?? process.cwd(), memo);
  const { slots, work } = prepare(p, memo);
  return complete(project, p, slots, work, analyzeHere(project, work), memo);
}

export interface RunOptions extends LintOptions {
  /** Cache file (`--cache`); undefined = no cache. */
  cacheFile?: string;
  /** Use worker threads when there is enough to do (default true). */
  parallel?: boolean;
}

/**
 * The CLI's lint: the same pipeline, with ESLint-style `--cache` as its memo (see `CacheMemo`) and
 * worker threads for large runs. Notices: a cache that cannot be read or written.
 */
export async function lintFiles(options: RunOptions): Promise<LintRun & { notices: string[]; timing: Timing }> {
  const started = performance.now();
  const project = options.project ?? loadProject(options.root, options);
  /** What the run itself met (a cache that cannot be read or written): warnings on stderr, never failures. */
  const notices: string[] = [];
  const cache = options.cacheFile ? LintCache.load(options.cacheFile, VERSION, project.key, options.root, project) : null;
  if (cache?.problem) notices.push(cache.problem);
  const memo = cache ? new CacheMemo(project, cache, options.paths !== undefined && options.paths.length > 0) : null;
  const cwd = options.cwd ?? process.cwd();
  const few = memo && options.paths && options.paths.length > 0 ? memo.few(targets(project, options.paths, cwd)) : null;
  if (few) {
    const planned = performance.now();
    const run = finish(project, few.analyses, new Set(few.analyses.map((a) => a.path)), few.cross);
    const problem = memo!.saveFew();
    if (problem) notices.push(problem);
    const timing: Timing = { loadAndPlanMs: planned - started, analyzeMs: 0, finishMs: performance.now() - planned, here: 0, inWorkers: 0, workers: 0, kept: 'few' };
    return { ...run, notices, timing };
  }
  let p = plan(project, options.paths, cwd, memo);
  // A named file missing from a trusted listing means the listing is stale after all: list again.
  if (memo && p.targets.some((t) => !t.dir && memo.isTrusted(project.layout.classify(t.rel)?.kind) && !p.selected.has(t.rel))) {
    memo.distrust();
    p = plan(project, options.paths, cwd, memo);
  }
  notices.push(...p.skipped);
  const { slots, work } = prepare(p, memo);
  const planned = performance.now();
  const parallel = options.parallel !== false && worthThreads(work.length);
  // Each result goes to its slot as it comes, reduced to what the rest of the run reads (SPEC §13: memory
  // grows with the documents' facts only): no parsed document, and the strings the plan holds already.
  const take = (i: number, r: IdentifiedAnalysis | null): void => {
    const w = work[i]!;
    if (r) {
      r.analysis.doc = null;
      r.analysis.path = w.ref.path;
      r.analysis.kind = w.ref.kind;
    }
    fillOne(slots, w, r, memo);
  };
  const hashing = memo !== null;
  let split: Split = { here: work.length, inWorkers: 0, workers: 0 };
  if (parallel) {
    // Workers read their files themselves: bytes are not sent to them.
    const items = work.map((w) => ({ ref: w.ref, withBody: w.withBody }));
    split = await analyzeInParallel(options.root, projectOptions({ ...options, cwd }), { items, here: (i) => analyzeWork(project, work[i]!, hashing), done: take }, { hashing });
  } else {
    work.forEach((w, i) => take(i, analyzeWork(project, w, hashing)));
  }
  const analyzed = performance.now();
  // Nothing analyzed: every document is its row, and the results across files kept with the rows hold.
  const kept = work.length === 0 ? memo?.keptResults(p.needed) : null;
  const run = finish(project, slots.filter((a): a is Analysis => a !== null), p.selected, ...(kept ? [kept] : []));
  const problem = memo?.save(p.needed, slots);
  if (problem) notices.push(problem);
  const timing: Timing = { loadAndPlanMs: planned - started, analyzeMs: analyzed - planned, finishMs: performance.now() - analyzed, ...split, ...(kept ? { kept: 'all' as const } : {}) };
  return { ...run, notices, timing };
}

/** Where a lint's time went (`DOCGATE_TIMING=1`, docs/performance.md): the main thread's phases, and who analyzed what. */
export interface Timing extends Split {
  /** Configuration, rules, listing, and the cache's look-ups. */
  loadAndPlanMs: number;
  /** Reading and analyzing (in this thread and the workers). */
  analyzeMs: number;
  /** Rules across files, results, baseline, writing the cache. */
  finishMs: number;
  /**
   * The results across files came from the cache: for the named files alone (`few`: the rest of their
   * kinds not decoded), or for every document, each taken from its row (`all`).
   */
  kept?: 'few' | 'all';
}

/**
 * ESLint's `--cache` as the pipeline's memo. A file whose content hash is unchanged is not analyzed
 * again, and a file that is not linted feeds the cross-file rules its cached facts, unread: in a
 * whole-root run while its stat identity is unchanged; in a run over some paths (a pre-commit hook),
 * while its kind's folders are unchanged — without a stat per file, which would cost more than the rest
 * of the run at 10,000 files. A file edited in place since the last run therefore keeps its cached facts
 * for other files' rules until it is linted itself or the whole root is (docs/decisions.md). Linted
 * files are always checked.
 */
class CacheMemo implements Memo {
  private readonly started = Date.now();
  private readonly realRoot: string;
  /** Kinds whose listing came from the cache (its folders unchanged). */
  private readonly trusted = new Set<Kind>();
  private readonly folders = new Map<Kind, ReadonlyMap<string, string | null>>();
  /** Bytes of changed files read for the cache check and kept for their analysis (see KEEP_READ_BYTES). */
  private kept = 0;

  constructor(
    private readonly project: Project,
    private readonly cache: LintCache,
    /** A run over some paths may reuse the cached listing of a kind. */
    private readonly reuseListings: boolean,
  ) {
    this.realRoot = realFolder(project.root) ?? project.root;
  }

  isTrusted(kind: Kind | undefined): boolean {
    return kind !== undefined && this.trusted.has(kind);
  }

  distrust(): void {
    this.trusted.clear();
  }

  /**
   * The listing of a kind kept in the cache, while every folder it was listed from keeps its stat
   * identity: no document was added, removed or renamed there since (git checkouts and editors that save
   * through a temporary file replace files, which changes the folder too). Null when it cannot be trusted.
   */
  listing(kind: Kind): FileRef[] | null {
    if (!this.reuseListings) return null;
    const folders = this.cache.folders(kind);
    if (!folders) return null;
    for (const [rel, identity] of Object.entries(folders)) if (identityOf(join(this.project.root, rel)) !== identity) return null;
    this.trusted.add(kind);
    return this.cache.paths(kind).map((path) => refAt(this.project.root, path, kind, this.project.layout));
  }

  listed(kind: Kind, folders: ReadonlyMap<string, string | null>): void {
    this.folders.set(kind, folders);
  }

  lookup(ref: FileRef, full: boolean): Reuse | null {
    const entry = this.cache.get(ref.path, ref.kind);
    if (!entry || entry.hash === null || entry.kind !== ref.kind || ref.problem || (!entry.full && full)) return null;
    // Unchanged stat identity proves unchanged content, except for a file modified around the time it
    // was cached (git's "racily clean" case): then its content hash decides. An unlinted file of a
    // kind whose listing is trusted is taken as cached without a stat.
    if (!entry.racy && ((!full && this.trusted.has(ref.kind)) || identityOf(ref.abs) === entry.identity)) return { analysis: fromCache(ref, entry) };
    const read = readLimited(ref.abs, maxBytes(this.project, ref.kind), this.realRoot);
    if (read.kind !== 'bytes') return null;
    const hash = contentHash(read.bytes);
    if (hash === entry.hash) {
      // The new identity is recorded, and the racy mark goes unless the file is still racy now.
      const { racy: _wasRacy, ...settled } = entry;
      this.cache.set(ref.path, { ...settled, identity: read.identity, ...racy(read.identity, this.started) });
      return { analysis: fromCache(ref, entry) };
    }
    // A changed file read for the check is analyzed without a second read, up to KEEP_READ_BYTES in all:
    // after a checkout that changed thousands of files, the rest are read again rather than held.
    return (this.kept += read.bytes.length) <= KEEP_READ_BYTES ? { read, hash } : null;
  }

  remember(ref: FileRef, full: boolean, r: IdentifiedAnalysis): void {
    const { kind, id, diagnostics, facts, directives } = r.analysis;
    this.cache.set(ref.path, { kind, id, hash: r.hash, identity: r.identity, full, diagnostics, facts, ...(directives ? { directives } : {}), ...racy(r.identity, this.started) });
  }

  /**
   * A run over a few named files, answered without the rest of their kinds: when each kind's listing is
   * trusted, its rows' results across files were kept (see `LintCache.results`) and each racy row is a
   * named file's, the named files are checked as `lookup` checks them, analyzed when changed, and as long
   * as each keeps the id and facts of its row, the kept results are what the rules across files give.
   * Null when any of that does not hold: the whole pipeline runs (and keeps the results for next time).
   */
  few(ts: readonly Target[]): { analyses: Analysis[]; cross: Map<string, Diagnostic[]> } | null {
    if (!this.reuseListings || ts.length > MAX_FEW) return null;
    return this.cache.lightly(() => this.fewLightly(ts));
  }

  private fewLightly(ts: readonly Target[]): { analyses: Analysis[]; cross: Map<string, Diagnostic[]> } | null {
    const byKind = new Map<Kind, Map<string, FileRef>>();
    for (const t of ts) {
      const c = t.dir || t.lossy !== undefined ? null : this.project.layout.classify(t.rel);
      if (!c) return null;
      const refs = byKind.get(c.kind) ?? new Map<string, FileRef>();
      byKind.set(c.kind, refs.set(t.rel, refAt(this.project.root, t.rel, c.kind, this.project.layout)));
    }
    const analyses: Analysis[] = [];
    const cross = new Map<string, Diagnostic[]>();
    for (const [kind, refs] of byKind) {
      const folders = this.cache.keptFolders(kind);
      if (!folders || Object.entries(folders).some(([rel, identity]) => identityOf(join(this.project.root, rel)) !== identity)) return null;
      const kept = this.cache.results(kind);
      if (!kept || [...kept.racy].some((path) => !refs.has(path))) return null;
      for (const ref of refs.values()) {
        const a = this.named(ref);
        if (!a) return null;
        analyses.push(a);
      }
      for (const [path, list] of kept.results) cross.set(path, [...list]);
    }
    return { analyses: byPath(analyses), cross };
  }

  /**
   * The results across files of the documents of a run that took every one of them from its row: the
   * kept results of each kind, when its rows are exactly those documents (as many rows as documents, each
   * document found in a row). Null when a kind has none that hold.
   */
  keptResults(needed: readonly FileRef[]): Map<string, Diagnostic[]> | null {
    const count = new Map<Kind, number>();
    for (const ref of needed) count.set(ref.kind, (count.get(ref.kind) ?? 0) + 1);
    const cross = new Map<string, Diagnostic[]>();
    for (const [kind, n] of count) {
      const kept = this.cache.size(kind) === n ? this.cache.results(kind) : null;
      if (!kept) return null;
      for (const [path, list] of kept.results) cross.set(path, [...list]);
    }
    return cross;
  }

  /** A named file of `few`: its row's analysis, or its new one when it keeps the row's id and facts. */
  private named(ref: FileRef): Analysis | null {
    const entry = this.cache.get(ref.path, ref.kind);
    if (!entry || entry.hash === null || !entry.full) return null;
    const known = this.lookup(ref, true);
    if (!known || 'analysis' in known) return known?.analysis ?? null;
    const done = analyzeRead(ref, known.read, this.project, true, known.hash);
    if (!done || done.analysis.kind !== ref.kind || !this.cache.sameFacts(entry, { ...entry, id: done.analysis.id, facts: done.analysis.facts })) return null;
    this.remember(ref, true, done);
    done.analysis.doc = null; // as lintFiles keeps its results: nothing reads the parsed document after
    return done.analysis;
  }

  /** Writes what `few` set. */
  saveFew(): string | null {
    return this.cache.save(this.resultsOf);
  }

  /** A kind's results across files from its rows alone, as a run whose listing is trusted reads them. */
  private readonly resultsOf: ResultsOf = (_kind, entries) => {
    const analyses = [...entries].map(([path, e]) => fromCache({ path }, e));
    return crossFileDiagnostics(this.project.kinds, byPath(analyses), this.project.severityFor);
  };

  /** Drops entries of files gone, records the listings that can be reused, writes the cache. */
  save(needed: readonly FileRef[], slots: readonly (Analysis | null)[]): string | null {
    const kinds = new Set(needed.map((f) => f.kind));
    // A trusted kind's listing is its section's paths: nothing to drop there.
    const listedKinds = new Set([...kinds].filter((k) => !this.trusted.has(k)));
    if (listedKinds.size > 0) this.cache.retain(new Set(needed.filter((f) => listedKinds.has(f.kind)).map((f) => f.path)), listedKinds);
    for (const [kind, folders] of this.folders) {
      if (kinds.has(kind)) this.cache.setListing(kind, listingToKeep(kind, folders, needed, slots, this.started));
    }
    return this.cache.save(this.resultsOf);
  }
}

export function fromCache(ref: Pick<FileRef, 'path'>, e: CacheEntry): Analysis {
  const a: Analysis = { path: ref.path, kind: e.kind, id: e.id, diagnostics: e.diagnostics, facts: e.facts, doc: null };
  if (e.directives) a.directives = e.directives;
  return a;
}

/**
 * The folders to record for a kind just listed, or null when its listing must not be reused: a folder
 * changed around the time it was listed (its identity might not move again for an entry added in the
 * same clock tick), a document that is a link or not a regular file (re-examined every run), or one
 * that vanished before it was read (the section lacks it).
 */
function listingToKeep(kind: Kind, folders: ReadonlyMap<string, string | null>, needed: readonly FileRef[], slots: readonly (Analysis | null)[], started: number): Folders | null {
  const out: Folders = {};
  for (const [rel, identity] of folders) {
    if (identity === null || racy(identity, started).racy) return null;
    out[rel] = identity;
  }
  for (let i = 0; i < needed.length; i++) {
    const ref = needed[i]!;
    if (ref.kind === kind && (ref.problem || ref.link || slots[i] === null)) return null;
  }
  return out;
}

/** At most this many bytes of changed files read for the cache check are kept for their analysis. */
const KEEP_READ_BYTES = 16 * 1024 * 1024;

/** Named files answered from the kept results across files at most (see `CacheMemo.few`); more run whole. */
const MAX_FEW = 32;

/** How close to a run's start a modification makes a cached stat untrustworthy (coarse file-system clocks). */
export const RACY_WINDOW_MS = 2000;

/** `{ racy: true }` when the file's mtime (the first field of its identity) is near or after the run's start. */
function racy(identity: string, started: number): { racy?: true } {
  const mtime = Number.parseFloat(identity);
  return Number.isFinite(mtime) && mtime < started - RACY_WINDOW_MS ? {} : { racy: true };
}
