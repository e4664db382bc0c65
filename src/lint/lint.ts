import { byPath } from './memo.js';
import type { Memo, Target } from './memo.js';
import type { LintRun } from './run.js';
import { statSync } from 'node:fs';
import { isAbsolute, relative, resolve, sep } from 'node:path';
import { analyzeFileIdentified, analyzeRead } from './analyze.js';
import type { IdentifiedAnalysis } from './analyze.js';
import type { Analysis } from '../model/analysis.js';
import { crossFileDiagnostics } from '../engine/cross-file.js';
import type { ReadOutcome } from '../io/file-identity.js';
import { discover, gitIgnoredFor, gitIgnoresPath, reach, realPathIn } from '../io/layout.js';
import type { GitIgnored } from '../io/git-ignored.js';
import type { FileRef } from '../io/layout.js';
import { CacheMemo } from './cache-memo.js';
import { LintCache } from '../store/lint-cache.js';
import { analyzeInParallel, worthThreads } from './parallel.js';
import type { Split } from './parallel.js';
import { hasError, resultOf } from '../model/result.js';
import { skippedPath } from '../project/named-paths.js';
import { realFolder } from '../io/safe-fs.js';
import { ConfigError } from '../model/errors.js';
import type { Diagnostic, Kind, ParseFailureResult } from '../model/types.js';
import { Suppressions } from '../parse/directives.js';
import { unexpected } from '../engine/rule.js';
import { unusedDirective, unusedDisableDirective } from '../rules/directives/unused-disable-directive.js';
import { VERSION } from '../io/version.js';
import { loadProject, projectOptions } from '../project/project.js';
import type { Project, ProjectOptions } from '../project/project.js';
import { applySuppressions } from '../project/baseline.js';
import { servedUnderBaseline } from './baseline-doc.js';
import { tally } from './tally.js';

/**
 * The one lint pipeline (docs/architecture.md, "The pipeline"): plan what to check from a project's layout, reuse what a memo knows
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

/**
 * Finds what to lint. Only the kinds of the selected documents are listed: cross-file rules never
 * cross kinds, so one staged process never lists the SysRS folder.
 */
export function plan(project: Project, paths: readonly string[] | undefined, cwd: string, memo: Memo | null, only?: readonly Kind[]): Plan {
  const ts = !paths || paths.length === 0 ? null : targets(project, paths, cwd);
  const listed = ts === null ? (only ?? project.layout.kinds) : [...new Set(ts.flatMap((t) => kindsOf(project, t)))];
  // What git ignores, asked once for every kind this plan lists (and only when one is listed, not taken from the memo).
  const git = gitIgnoredFor(project.root, project.layout, listed);
  const list = (kind: Kind): FileRef[] => {
    const known = memo?.listing(kind);
    if (known) return known;
    const folders = new Map<string, string | null>();
    const refs = discover(project.root, new Set([kind]), folders, project.layout, git);
    memo?.listed(kind, folders, refs, git.inputs);
    return refs;
  };
  if (ts === null) {
    const all = byPath(listed.flatMap(list));
    return { needed: all, selected: new Set(all.map((f) => f.path)), targets: [], skipped: [] };
  }
  const needed = byPath(listed.flatMap(list));
  const selected = new Set(needed.filter((f) => isSelected(f, ts)).map((f) => f.path));
  // A file named by a second path to a folder listed by another (through a link) is the document found there.
  const aliased = new Set<Target>();
  for (const t of ts) {
    if (t.dir || selected.has(t.rel) || project.layout.classify(t.rel) === null) continue;
    const found = foundElsewhere(project.root, needed, t.rel);
    if (found !== null) {
      selected.add(found);
      aliased.add(t);
    }
  }
  const kinds = new Set(needed.filter((f) => selected.has(f.path)).map((f) => f.kind));
  checkFound(ts, selected);
  // A file is skipped when it is no document (classify: ignored, or of no kind), or git ignores it; a folder when it selected none.
  const selects = (t: Target): boolean =>
    t.dir
      ? needed.some((f) => selected.has(f.path) && isSelected(f, [t]))
      : project.layout.classify(t.rel) !== null && (selected.has(t.rel) || aliased.has(t) || !ignoredByGit(project.root, git, t));
  const skipped = ts.flatMap((t) => {
    const any = selects(t);
    return skippedPath(project, t.given, t.rel, t.dir, any, !any && ignoredByGit(project.root, git, t)) ?? [];
  });
  return { needed: needed.filter((f) => kinds.has(f.kind)), selected, targets: ts, skipped };
}

/**
 * The document discovery found by another path for the file at `rel` (a folder reached twice is listed
 * once, see layout.ts `discover`), or null. Asked only of a named file that selected no document: a
 * real path each.
 */
function foundElsewhere(root: string, needed: readonly FileRef[], rel: string): string | null {
  const real = realPathIn(root, rel);
  if (real === null || real === rel) return null;
  for (const f of needed) if (!f.problem && (f.path === real || realPathIn(root, f.path) === real)) return f.path;
  return null;
}

/** Whether git ignores a named path: one discovery left it out, or (asked only for a path that selected no document) git says so. */
function ignoredByGit(root: string, git: GitIgnored, t: Target): boolean {
  return git.dropped.has(t.rel) || gitIgnoresPath(root, t.rel, t.dir, git);
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

/** The work, in this thread; `hashing: false` when nothing keeps the content hash (the MCP server's memory). */
export function analyzeHere(project: Project, work: readonly Work[], hashing = true): (IdentifiedAnalysis | null)[] {
  return work.map((w) => analyzeWork(project, w, hashing));
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
function complete(
  project: Project,
  p: Plan,
  slots: (Analysis | null)[],
  work: readonly Work[],
  done: readonly (IdentifiedAnalysis | null)[],
  memo: Memo | null,
): LintRun {
  fill(slots, work, done, memo);
  return finish(
    project,
    slots.filter((a): a is Analysis => a !== null),
    p.selected,
  );
}

/** One document of a kind with its analysis and its result: what MCP tools serve. */
export interface KindEntry {
  ref: FileRef;
  analysis: Analysis;
  /** Own and cross-file diagnostics when one is an error; null when the document passes (then `analysis.doc` or `analysis.row` is set). */
  failure: ParseFailureResult | null;
  /** The diagnostics of a document that passes with warnings only (it is served, with them: docs/formats.md, "Severities and warnings"). */
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
  const cross = crossFileDiagnostics(
    project.kinds,
    entries.map((e) => e.analysis),
    project.severityFor,
  );
  return entries.map((e) => {
    const { result: r, analysis } = servedUnderBaseline(
      project,
      e.ref,
      e.analysis,
      resultOf(e.analysis, othersOf(project, e.analysis, cross.get(e.analysis.path))),
      memo,
    );
    const failing = r !== null && hasError(r.diagnostics);
    return { ref: e.ref, analysis, failure: failing ? r : null, warnings: failing ? null : r };
  });
}

/**
 * The run of one document as if it held `read` (MCP check_content, docs/mcp-tools.md): every other document of its
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
export function finish(
  project: Project,
  analyses: readonly Analysis[],
  selected: ReadonlySet<string>,
  cross = crossFileDiagnostics(project.kinds, analyses, project.severityFor),
): LintRun {
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
    const timing: Timing = {
      loadAndPlanMs: planned - started,
      analyzeMs: 0,
      finishMs: performance.now() - planned,
      here: 0,
      inWorkers: 0,
      workers: 0,
      kept: 'few',
    };
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
  // Each result goes to its slot as it comes, reduced to what the rest of the run reads (memory grows
  // with the documents' facts only: docs/performance.md, "Scale (issue 17)"): no parsed document, and
  // the strings the plan holds already.
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
    split = await analyzeInParallel(
      options.root,
      projectOptions({ ...options, cwd }),
      { items, here: (i) => analyzeWork(project, work[i]!, hashing), done: take },
      { hashing },
    );
  } else {
    work.forEach((w, i) => take(i, analyzeWork(project, w, hashing)));
  }
  const analyzed = performance.now();
  // Nothing analyzed: every document is its row, and the results across files kept with the rows hold.
  const kept = work.length === 0 ? memo?.keptResults(p.needed) : null;
  const run = finish(
    project,
    slots.filter((a): a is Analysis => a !== null),
    p.selected,
    ...(kept ? [kept] : []),
  );
  const problem = memo?.save(p.needed, slots);
  if (problem) notices.push(problem);
  const timing: Timing = {
    loadAndPlanMs: planned - started,
    analyzeMs: analyzed - planned,
    finishMs: performance.now() - analyzed,
    ...split,
    ...(kept ? { kept: 'all' as const } : {}),
  };
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
