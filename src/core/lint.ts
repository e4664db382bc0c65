import { statSync } from 'node:fs';
import { isAbsolute, join, relative, resolve, sep } from 'node:path';
import { MAX_BYTES, analyzeFile, analyzeFileIdentified, analyzeRead } from './analyze.js';
import type { Analysis } from './analysis.js';
import { crossFileDiagnostics } from './cross-file.js';
import { contentHash, identityOf, readLimited } from './file-identity.js';
import type { ReadOutcome } from './file-identity.js';
import { builtinLayout, classify, discover, reach, refAt } from './layout.js';
import type { FileRef } from './layout.js';
import { LintCache } from './lint-cache.js';
import type { CacheEntry, Folders } from './lint-cache.js';
import { PARALLEL_MIN_FILES, analyzeInWorkers, workerCount } from './parallel.js';
import type { WorkItem } from './parallel.js';
import type { Entry, Repository } from './repository.js';
import { resultOf } from './result.js';
import { realFolder } from './safe-fs.js';
import { ConfigError, loadRuleSet } from './schemas.js';
import type { RuleSet } from './schemas.js';
import type { Kind, ParseFailureResult } from './types.js';
import { VERSION } from './version.js';

export interface LintOptions {
  root: string;
  /** Files or folders (absolute, or relative to `cwd`); none = the whole root. */
  paths?: readonly string[];
  cwd?: string;
}

/** SPEC §4.3 `json`: what every report format is made from. */
export interface LintReport {
  results: ParseFailureResult[];
  filesChecked: number;
  problemCount: number;
}

/** The report plus what was checked, for formats that list passing files too (JUnit). */
export interface LintRun extends LintReport {
  root: string;
  checked: Pick<FileRef, 'path' | 'kind'>[];
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
function targets(root: string, paths: readonly string[], cwd: string): Target[] {
  const realRoot = realFolder(root) ?? root;
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
    if (r.kind === 'found') return { rel, dir: r.dir };
    if (r.kind === 'outside') return { rel, dir: classify(rel) === null };
    if (rel.includes('\uFFFD') && classify(rel) !== null) return { rel, dir: false, lossy: p };
    throw new ConfigError(`no such file or folder: ${p}`);
  });
}

/** The kinds a target can hold: a file has at most one; a folder, those whose folders meet it. */
function kindsOf(t: Target): Kind[] {
  if (!t.dir) {
    const c = classify(t.rel);
    return c ? [c.kind] : [];
  }
  return builtinLayout().kindsUnder(t.rel);
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

interface Plan {
  /** The documents of the kinds the selection needs (cross-file rules are per kind). */
  needed: FileRef[];
  selected: Set<string>;
  /** The targets given (none: the whole root). */
  targets: Target[];
}

/** How a run lists the documents of one kind. */
type Lister = (kind: Kind) => FileRef[];


function byPath(refs: FileRef[]): FileRef[] {
  // Each kind's list is sorted already: merging a few sorted runs is linear for V8's TimSort.
  return refs.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
}

/**
 * Finds what to lint. Only the kinds of the selected documents are listed: cross-file rules never
 * cross kinds, so one staged process never lists the SysRS folder.
 */
function plan(options: LintOptions, list: Lister = (kind) => discover(options.root, new Set([kind]))): Plan {
  if (!options.paths || options.paths.length === 0) {
    const all = byPath(builtinLayout().kinds.flatMap(list));
    return { needed: all, selected: new Set(all.map((f) => f.path)), targets: [] };
  }
  const ts = targets(options.root, options.paths, options.cwd ?? process.cwd());
  const needed = byPath([...new Set(ts.flatMap(kindsOf))].flatMap(list));
  const selected = new Set(needed.filter((f) => isSelected(f, ts)).map((f) => f.path));
  const kinds = new Set(needed.filter((f) => selected.has(f.path)).map((f) => f.kind));
  return { needed: needed.filter((f) => kinds.has(f.kind)), selected, targets: ts };
}

/** Cross-file rules over every analysis, then the results of the selected documents. */
function finish(root: string, analyses: readonly Analysis[], selected: ReadonlySet<string>): LintRun {
  const cross = crossFileDiagnostics(analyses);
  const results: ParseFailureResult[] = [];
  const checked: LintRun['checked'] = [];
  for (const a of analyses) {
    if (!selected.has(a.path)) continue;
    checked.push({ path: a.path, kind: a.kind });
    const r = resultOf(a, cross.get(a.path));
    if (r) results.push(r);
  }
  const problemCount = results.reduce((n, r) => n + r.diagnostics.length, 0);
  return { root, results, filesChecked: checked.length, problemCount, checked };
}

/**
 * Lints a root (or some of its documents), in this thread, without a cache. Cross-file rules always see
 * the whole root: documents not selected are analyzed for their cross-file facts only (SysRS bodies are
 * not parsed for them).
 */
export function lint(options: LintOptions, rules: RuleSet = loadRuleSet(options.root)): LintRun {
  const p = plan(options);
  checkFound(p.targets, p.selected);
  const analyses: Analysis[] = [];
  for (const ref of p.needed) {
    const a = analyzeFile(ref, rules, p.selected.has(ref.path));
    if (a) analyses.push(a);
  }
  return finish(options.root, analyses, p.selected);
}

/**
 * The lint of a root (or of `paths`) answered from a live `Repository` — the MCP server's cache — with
 * exactly the results of `lint`: per kind, every document with its own and cross-file diagnostics.
 */
export function lintRepository(repo: Repository, paths: readonly string[] = [], cwd = repo.root): LintRun {
  const ts = paths.length > 0 ? targets(repo.root, paths, cwd) : null;
  const kinds = ts ? new Set(ts.flatMap(kindsOf)) : new Set(builtinLayout().kinds);
  const chosen: Entry[] = [];
  for (const kind of kinds) {
    for (const e of repo.entries(kind)) if (!ts || isSelected(e.ref, ts)) chosen.push(e);
  }
  if (ts) checkFound(ts, new Set(chosen.map((e) => e.ref.path)));
  chosen.sort((a, b) => (a.ref.path < b.ref.path ? -1 : a.ref.path > b.ref.path ? 1 : 0));
  const results = chosen.flatMap((e) => (e.failure ? [e.failure] : []));
  const problemCount = results.reduce((n, r) => n + r.diagnostics.length, 0);
  return { root: repo.root, results, filesChecked: chosen.length, problemCount, checked: chosen.map((e) => ({ path: e.ref.path, kind: e.ref.kind })) };
}

export interface RunOptions extends LintOptions {
  /** Cache file (`--cache`); undefined = no cache. */
  cacheFile?: string;
  /** Use worker threads when there is enough to do (default true). */
  parallel?: boolean;
}

function fromCache(ref: FileRef, e: CacheEntry): Analysis {
  return { path: ref.path, kind: e.kind, id: e.id, diagnostics: e.diagnostics, facts: e.facts, doc: null };
}

/**
 * The listing of a kind kept in the cache, while every folder it was listed from keeps its stat
 * identity: no document was added, removed or renamed there since (git checkouts and editors that save
 * through a temporary file replace files, which changes the folder too). Null when it cannot be trusted.
 */
function cachedListing(root: string, cache: LintCache, kind: Kind): FileRef[] | null {
  const folders = cache.folders(kind);
  if (!folders) return null;
  for (const [rel, identity] of Object.entries(folders)) if (identityOf(join(root, rel)) !== identity) return null;
  return cache.paths(kind).map((path) => refAt(root, path, kind));
}

/**
 * The CLI's lint: the same results as `lint`, with ESLint-style `--cache` and worker threads for large
 * runs. With the cache, a file whose content hash is unchanged is not analyzed again, and a file that
 * is not linted feeds the cross-file rules its cached facts, unread: in a whole-root run while its stat
 * identity is unchanged; in a run over some paths (a pre-commit hook), while its kind's folders are
 * unchanged — without a stat per file, which would cost more than the rest of the run at 10,000 files.
 * A file edited in place since the last run therefore keeps its cached facts for other files' rules
 * until it is linted itself or the whole root is (docs/decisions.md). Linted files are always checked.
 */
export async function lintFiles(options: RunOptions): Promise<LintRun & { warnings: string[] }> {
  const started = Date.now();
  const rules = loadRuleSet(options.root);
  const realRoot = realFolder(options.root) ?? options.root;
  const warnings: string[] = [];
  const cache = options.cacheFile ? LintCache.load(options.cacheFile, VERSION, rules.key, options.root) : null;
  if (cache?.problem) warnings.push(cache.problem);
  const trusted = new Set<Kind>();
  const listed = new Map<Kind, Map<string, string | null>>();
  const discoverKind: Lister = (kind) => {
    const folders = new Map<string, string | null>();
    listed.set(kind, folders);
    return discover(options.root, new Set([kind]), folders);
  };
  let p: Plan;
  if (cache && options.paths && options.paths.length > 0) {
    p = plan(options, (kind) => {
      const refs = cachedListing(options.root, cache, kind);
      if (!refs) return discoverKind(kind);
      trusted.add(kind);
      return refs;
    });
    // A named file missing from a trusted listing means the listing is stale after all: list again.
    if (p.targets.some((t) => !t.dir && trusted.has(classify(t.rel)?.kind as Kind) && !p.selected.has(t.rel))) {
      trusted.clear();
      p = plan(options, discoverKind);
    }
  } else {
    p = plan(options, cache ? discoverKind : undefined);
  }
  checkFound(p.targets, p.selected);
  const slots: (Analysis | null)[] = new Array(p.needed.length).fill(null);
  // `read`: the bytes already read (and hashed) to compare with the cache, so that a changed file is not
  // read twice when it is analyzed in this thread. Kept up to KEEP_READ_BYTES in all: after a checkout
  // that changed thousands of files, the rest are read again rather than held in memory.
  const work: (WorkItem & { index: number; read?: { outcome: ReadOutcome; hash: string } })[] = [];
  let kept = 0;
  p.needed.forEach((ref, index) => {
    const withBody = p.selected.has(ref.path);
    const entry = cache?.get(ref.path, ref.kind);
    if (entry && entry.hash !== null && entry.kind === ref.kind && !ref.problem && (entry.full || !withBody)) {
      // Unchanged stat identity proves unchanged content, except for a file modified around the time it
      // was cached (git's "racily clean" case): then its content hash decides. An unlinted file of a
      // kind whose listing is trusted is taken as cached without a stat.
      if (!entry.racy && ((!withBody && trusted.has(ref.kind)) || identityOf(ref.abs) === entry.identity)) {
        slots[index] = fromCache(ref, entry);
        return;
      }
      const read = readLimited(ref.abs, MAX_BYTES[ref.kind], realRoot);
      if (read.kind === 'bytes') {
        const hash = contentHash(read.bytes);
        if (hash === entry.hash) {
          // The new identity is recorded, and the racy mark goes unless the file is still racy now.
          const { racy: _wasRacy, ...settled } = entry;
          cache!.set(ref.path, { ...settled, identity: read.identity, ...racy(read.identity, started) });
          slots[index] = fromCache(ref, entry);
        } else if ((kept += read.bytes.length) <= KEEP_READ_BYTES) work.push({ ref, withBody, index, read: { outcome: read, hash } });
        else work.push({ ref, withBody, index });
        return;
      }
    }
    work.push({ ref, withBody, index });
  });

  const parallel = options.parallel !== false && work.length >= PARALLEL_MIN_FILES && workerCount() > 1;
  // Workers read their files themselves: bytes are not sent to them.
  const done = parallel
    ? await analyzeInWorkers(options.root, work.map((w) => ({ ref: w.ref, withBody: w.withBody })))
    : work.map((w) => (w.read ? analyzeRead(w.ref, w.read.outcome, rules, w.withBody, w.read.hash) : analyzeFileIdentified(w.ref, rules, w.withBody)));
  done.forEach((r, i) => {
    const w = work[i]!;
    if (!r) return; // vanished between discovery and read: omitted
    slots[w.index] = r.analysis;
    const { kind, id, diagnostics, facts } = r.analysis;
    cache?.set(w.ref.path, { kind, id, hash: r.hash, identity: r.identity, full: w.withBody, diagnostics, facts, ...racy(r.identity, started) });
  });

  if (cache) {
    const kinds = new Set(p.needed.map((f) => f.kind));
    // A trusted kind's listing is its section's paths: nothing to drop there.
    const listedKinds = new Set([...kinds].filter((k) => !trusted.has(k)));
    if (listedKinds.size > 0) cache.retain(new Set(p.needed.filter((f) => listedKinds.has(f.kind)).map((f) => f.path)), listedKinds);
    for (const [kind, folders] of listed) {
      if (kinds.has(kind)) cache.setListing(kind, listingToKeep(kind, folders, p.needed, slots, started));
    }
    const problem = cache.save();
    if (problem) warnings.push(problem);
  }
  const analyses = slots.filter((a): a is Analysis => a !== null);
  return { ...finish(options.root, analyses, p.selected), warnings };
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

/** How close to a run's start a modification makes a cached stat untrustworthy (coarse file-system clocks). */
const RACY_WINDOW_MS = 2000;

/** `{ racy: true }` when the file's mtime (the first field of its identity) is near or after the run's start. */
function racy(identity: string, started: number): { racy?: true } {
  const mtime = Number.parseFloat(identity);
  return Number.isFinite(mtime) && mtime < started - RACY_WINDOW_MS ? {} : { racy: true };
}
