/**
 * `docgate lint --staged` (SPEC §10): the one pipeline of lint.ts over the git index as its store. The
 * documents are the index's; their bytes are its blobs (never the working tree: a file staged and then
 * edited again is checked as staged, an untracked file does not exist). The rules across files run over
 * the indexed tree, and the documents reported are the staged ones plus every document whose result
 * across files differs from what HEAD's tree gives it: the users of a deleted, renamed or changed
 * `store_as`, both holders of a new duplicate, a variant whose source went. That is found from the
 * kinds' own rules across files, run over both trees; no kind is named here.
 */
import { join, posix } from 'node:path';
import { analyzeFileIdentified, analyzeRead, maxBytes } from './analyze.js';
import type { Analysis } from './analysis.js';
import { crossFileDiagnostics } from './cross-file.js';
import type { ReadOutcome } from './file-identity.js';
import { gitDirOf, indexEntries, readBlobs, stagedChanges } from './git-index.js';
import type { BlobRead, IndexEntry, StagedChange } from './git-index.js';
import { existsAsDirectory, refAt } from './layout.js';
import type { FileRef } from './layout.js';
import { byPath, finish, fill, analyzeHere, fromCache, plan, prepare } from './lint.js';
import type { LintOptions, LintRun, Memo, Reuse } from './lint.js';
import { addResults, factsKey } from './cache-rows.js';
import type { CacheEntry } from './cache-rows.js';
import { StagedCache } from './staged-cache.js';
import type { Diagnostic, Kind } from './types.js';
import { VERSION } from './version.js';
import { loadProject } from '../engine/project.js';
import type { Project } from '../engine/project.js';
import type { IdentifiedAnalysis } from './analyze.js';

export interface StagedOptions extends LintOptions {
  /** Keep the blob-keyed cache (`--cache`). */
  cache?: boolean;
  /** Where (`--cache-location`); default: `docgate-staged-cache` in the git directory. */
  cacheFile?: string;
}

const GITLINK = '160000';
/** The object name of HEAD's tree, as `git cat-file` resolves it. */
const HEAD_TREE = 'HEAD^{tree}';
/**
 * Changed documents answered from a tree's results across files at most (see `fromTree`); a larger
 * commit lists the index, where the cache's rows answer for most documents.
 */
const MAX_QUICK = 16;
const SYMLINK = '120000';
/** Links followed one after another at most (as the kernel's ELOOP limit). */
const MAX_LINKS = 40;

/** The identity of a blob at a path, as the staged cache keys it. */
function identityOf(e: IndexEntry): string {
  return `${e.mode}:${e.oid}`;
}

function outcomeOf(read: BlobRead | undefined, identity: string): ReadOutcome {
  if (read?.kind === 'bytes') return { kind: 'bytes', bytes: read.bytes, identity };
  if (read?.kind === 'too-large') return { kind: 'too-large', size: read.size, identity };
  return { kind: 'error', code: 'ENOENT' }; // a blob the index names but the object store lacks
}

/** A document of the index: the blob it reads (its own, or for a link inside the root its target's), none for a problem. */
interface IndexRef extends FileRef {
  blob?: IndexEntry;
  /** Its cache entry, once looked up (undefined: not yet; null: none). */
  hit?: CacheEntry | null;
}

/**
 * The index as the pipeline's memo: every listing comes from it, every read from its blobs (fetched
 * in one batch per phase), every analysis from the blob-keyed cache when it has one.
 */
class IndexStore implements Memo {
  /** Link targets (the text of symlink blobs) by blob id. */
  private readonly targets = new Map<string, string>();
  /** HEAD's tree, once asked of git (null: no commit yet), alongside the first blobs read. */
  private head: string | null | undefined;
  private readonly reads: Map<string, BlobRead>;

  constructor(
    private readonly project: Project,
    private readonly index: ReadonlyMap<string, IndexEntry>,
    private readonly cache: StagedCache | null,
    /** A store of the same run before this one: what it read from git is not read again. */
    earlier?: IndexStore,
  ) {
    this.reads = earlier?.reads ?? new Map();
    this.head = earlier?.head;
  }

  /** HEAD's tree id, the key of the staged cache's results across files (null before the first commit). */
  headTree(): string | null {
    if (this.head === undefined) this.readBlobs(new Map());
    return this.head ?? null;
  }

  /** Reads blobs into `reads`, resolving HEAD's tree in the same git call when not yet known. */
  private readBlobs(wanted: ReadonlyMap<string, number>): void {
    const named = this.head === undefined ? new Map<string, string | null>([[HEAD_TREE, null]]) : undefined;
    for (const [oid, r] of readBlobs(this.project.root, wanted, named)) this.reads.set(oid, r);
    if (named) this.head = named.get(HEAD_TREE) ?? null;
  }

  /** Reads the texts of the symlinks among `entries` (one batch), to resolve them inside the index. */
  loadLinks(entries: Iterable<IndexEntry>): void {
    const wanted = new Map<string, number>();
    for (const e of entries) if (e.mode === SYMLINK && !this.targets.has(e.oid)) wanted.set(e.oid, 4096);
    for (const [oid, r] of readBlobs(this.project.root, wanted)) this.targets.set(oid, r.kind === 'bytes' ? r.bytes.toString('utf8') : '');
  }

  /** The entry of a path in the index, also outside the folders first listed (a link's target). */
  private entryAt(path: string): IndexEntry | 'folder' | null {
    const e = this.index.get(path);
    if (e) return e;
    const found = indexEntries(this.project.root, [path]);
    return found.get(path) ?? (found.size > 0 ? 'folder' : null);
  }

  /** A document of the index at `path` read as `entry`: a file, a link resolved inside the indexed tree, or a problem. */
  refOf(path: string, kind: Kind, entry: IndexEntry): FileRef {
    const ref = refAt(this.project.root, path, kind, this.project.layout);
    if (entry.badName) return { ...ref, problem: 'bad-name' };
    let e = entry;
    let at = path;
    for (let hops = 0; e.mode === SYMLINK; hops++) {
      ref.link = true;
      if (hops === MAX_LINKS) return { ...ref, problem: 'unreadable' };
      if (!this.targets.has(e.oid)) this.loadLinks([e]);
      const target = this.targets.get(e.oid) ?? '';
      if (target === '' || target.startsWith('/')) return { ...ref, problem: target === '' ? 'unreadable' : 'symlink-outside' };
      at = posix.normalize(posix.join(posix.dirname(at), target));
      if (at === '..' || at.startsWith('../')) return { ...ref, problem: 'symlink-outside' };
      const next = this.entryAt(at);
      if (next === 'folder') return { ...ref, problem: 'directory' };
      if (next === null) return { ...ref, problem: 'unreadable' }; // a broken link: its target is not in the index
      if (next.mode === GITLINK) return { ...ref, problem: 'directory' };
      e = next;
    }
    (ref as IndexRef).blob = e;
    return ref;
  }

  listing(kind: Kind): FileRef[] {
    const layout = this.project.layout;
    const holds = layout.holder(kind);
    // A path an earlier kind of the registry holds is that kind's (as discovery decides); in the layout
    // of SPEC §1 no kinds overlap, so most listings ask one matcher per path.
    const earlier = layout.kinds.slice(0, layout.kinds.indexOf(kind)).filter((k) => layout.overlaps(k, kind)).map((k) => layout.holder(k));
    // A path the cache holds for this kind was matched when it was cached (under the same rules).
    const known = this.cache?.has(kind) ?? ((): boolean => false);
    const refs: FileRef[] = [];
    for (const [path, e] of this.index) {
      if (e.mode === GITLINK || !(known(path) || (holds(path) && !earlier.some((h) => h(path))))) continue;
      refs.push(this.refOf(path, kind, e));
    }
    return refs;
  }

  listed(): void {
    /* the index is listed by git, not by folders */
  }

  private entry(ref: IndexRef, full: boolean): CacheEntry | null {
    const e = ref.blob;
    // A link's result depends on two blobs: it is analyzed every run (links are rare).
    if (!e || ref.link || !this.cache) return null;
    // The first look-up is kept (prefetch, then the pipeline's lookup); a full one replaces a partial one.
    if (ref.hit === undefined || (ref.hit !== null && full && !ref.hit.full)) ref.hit = this.cache.get(ref.kind, ref.path, identityOf(e), full) ?? null;
    return ref.hit !== null && (ref.hit.full || !full) ? ref.hit : null;
  }

  private cached(ref: IndexRef, full: boolean): Analysis | null {
    const entry = this.entry(ref, full);
    return entry ? fromCache(ref, entry) : null;
  }

  /** Reads, in one batch, the blobs of the documents the cache cannot answer for. */
  prefetch(items: readonly (readonly [FileRef, boolean])[]): void {
    const wanted = new Map<string, number>();
    for (const [ref, full] of items) {
      const e = (ref as IndexRef).blob;
      if (!e || this.reads.has(e.oid) || this.entry(ref, full)) continue;
      wanted.set(e.oid, Math.max(wanted.get(e.oid) ?? 0, maxBytes(this.project, ref.kind)));
    }
    if (wanted.size > 0) this.readBlobs(wanted);
  }

  lookup(ref: IndexRef, full: boolean): Reuse | null {
    const e = ref.blob;
    if (!e) return null; // a problem found in the index (analyzed without a read)
    const analysis = this.cached(ref, full);
    if (analysis) return { analysis };
    if (!this.reads.has(e.oid)) this.prefetch([[ref, full]]);
    return { read: outcomeOf(this.reads.get(e.oid), identityOf(e)), hash: e.oid };
  }

  remember(ref: IndexRef, full: boolean, r: IdentifiedAnalysis): void {
    const e = ref.blob;
    if (!e || ref.link || !this.cache) return;
    const { kind, id, diagnostics, facts, directives } = r.analysis;
    this.cache.set(ref.path, { kind, id, hash: e.oid, identity: identityOf(e), full, diagnostics, facts, ...(directives ? { directives } : {}) });
  }

  /** One document through the memo: cached, or read from its blob and analyzed. */
  analyze(ref: FileRef, full: boolean): Analysis | null {
    const known = this.lookup(ref, full);
    if (known && 'analysis' in known) return known.analysis;
    const done = known ? analyzeRead(ref, known.read, this.project, full, known.hash) : analyzeFileIdentified(ref, this.project, full);
    if (done) this.remember(ref, full, done);
    return done?.analysis ?? null;
  }
}

/** `docgate-staged-cache` in the git directory: `<root>/.git/` when the root is the top of a work tree (no git command needed). */
function defaultCacheFile(root: string): string {
  const dotGit = join(root, '.git');
  return join(existsAsDirectory(dotGit) ? dotGit : gitDirOf(root), 'docgate-staged-cache');
}

/** Whether the changed documents are the same paths with the same ids and facts on both sides. */
function sameFacts(project: Project, now: readonly (Analysis | null)[], before: readonly Analysis[], changed: ReadonlySet<string>): boolean {
  const side = (list: readonly (Analysis | null)[]): Map<string, string> => {
    const out = new Map<string, string>();
    for (const a of list) if (a && changed.has(a.path)) out.set(a.path, factsKey(project, a));
    return out;
  };
  const a = side(now);
  const b = side(before);
  return a.size === b.size && [...a].every(([path, k]) => b.get(path) === k);
}

function sameDiagnostics(a: readonly Diagnostic[] | undefined, b: readonly Diagnostic[] | undefined): boolean {
  if (a === b) return true;
  if ((a?.length ?? 0) !== (b?.length ?? 0)) return false;
  return JSON.stringify(a ?? []) === JSON.stringify(b ?? []);
}

/**
 * The common commit, answered from HEAD's tree: when the staged changes keep every changed document's
 * path, id and facts (a body edited), no result across files differs from HEAD's, which a run over the
 * whole tree kept in the staged cache. Then only the changed documents are read (both sides, to compare
 * their facts), never the rest of the index. Null when that does not hold or is not known: the whole run.
 */
function fromTree(project: Project, store: IndexStore, cache: StagedCache, changes: readonly StagedChange[], kindOf: ReadonlyMap<string, Kind>, kinds: readonly Kind[]): LintRun | null {
  const relevant = changes.filter((c) => kindOf.has(c.path));
  if (relevant.length > MAX_QUICK) return null;
  // Additions and deletions change the set of documents; a link's result depends on another blob.
  const plain = (e: IndexEntry | null): e is IndexEntry => e !== null && e.mode !== SYMLINK && e.mode !== GITLINK;
  if (!relevant.every((c) => plain(c.head) && plain(c.index))) return null;
  const nowRefs = relevant.map((c) => store.refOf(c.path, kindOf.get(c.path)!, c.index!));
  const headRefs = relevant.map((c) => store.refOf(c.path, kindOf.get(c.path)!, c.head!));
  store.prefetch([...nowRefs.map((ref) => [ref, true] as const), ...headRefs.map((ref) => [ref, false] as const)]);
  const tree = store.headTree();
  const known = tree === null ? [] : kinds.map((k) => cache.tree(k, tree));
  if (known.length === 0 || known.some((t) => t === null)) return null;
  const now = nowRefs.map((ref) => store.analyze(ref, true));
  const before = headRefs.map((ref) => store.analyze(ref, false));
  const paths = new Set(relevant.map((c) => c.path));
  if (!sameFacts(project, now, before.filter((a): a is Analysis => a !== null), paths)) return null;
  const cross = new Map<string, Diagnostic[]>();
  for (const t of known) addResults(cross, t!);
  // In the whole run's order (git lists paths by their bytes, the pipeline by code units).
  return finish(project, byPath(now.filter((a): a is Analysis => a !== null)), paths, cross);
}

/**
 * Keeps HEAD's results across files for the next commit's `fromTree`: `then` is what the whole of HEAD's
 * tree gives (its documents of these kinds; `refs`: both trees' documents). Not for a kind with links: a
 * link's result there was read through the index, not through HEAD.
 */
function keepTree(store: IndexStore, cache: StagedCache, kinds: readonly Kind[], refs: readonly FileRef[], then: ReadonlyMap<string, Diagnostic[]>): void {
  const linked = new Set(refs.filter((r) => r.link).map((r) => r.kind));
  const kindAt = new Map(refs.map((r) => [r.path, r.kind]));
  const tree = kinds.some((k) => !linked.has(k)) ? store.headTree() : null;
  if (tree === null) return;
  for (const kind of kinds) {
    if (linked.has(kind)) continue;
    const results = new Map<string, Diagnostic[]>();
    for (const [path, list] of then) if (kindAt.get(path) === kind && list.length > 0) results.set(path, list);
    cache.setTree(kind, tree, results);
  }
}

/** Lints the snapshot the git index holds (SPEC §10). Notices: a cache that cannot be read or written. */
export function lintStaged(options: StagedOptions): LintRun & { notices: string[] } {
  const project = options.project ?? loadProject(options.root, options);
  const root = project.root;
  const notices: string[] = [];
  const changes = stagedChanges(root);
  // Only the kinds a change touches: rules across files never cross kinds.
  const kindOf = new Map<string, Kind>();
  for (const c of changes) {
    const k = project.layout.classify(c.path);
    if (k) kindOf.set(c.path, k.kind);
  }
  const touched = new Set(kindOf.values());
  const kinds = project.layout.kinds.filter((k) => touched.has(k));
  if (kinds.length === 0) return { ...finish(project, [], new Set()), notices };

  const cache = options.cache ? StagedCache.load(options.cacheFile ?? defaultCacheFile(root), VERSION, project.key, root, project) : null;
  if (cache?.problem) notices.push(cache.problem);
  // Changed documents only, read without the cache's rows (decoding them is most of a whole run).
  const few = new IndexStore(project, new Map(), null);
  const quick = cache ? fromTree(project, few, cache, changes, kindOf, kinds) : null;
  if (quick) return { ...quick, notices };

  const index = indexEntries(root, kinds.flatMap((k) => project.layout.folders(k).map((f) => f.dir)));
  const store = new IndexStore(project, index, cache, few);
  store.loadLinks(index.values());

  // The indexed tree: every document of those kinds, analyzed fully only where staged.
  const p = plan(project, undefined, root, store, kinds);
  const staged = new Set(changes.filter((c) => c.index !== null && c.index.mode !== GITLINK && kindOf.has(c.path)).map((c) => c.path));
  p.selected = staged;
  store.prefetch(p.needed.map((ref) => [ref, staged.has(ref.path)] as const));
  const { slots, work } = prepare(p, store);
  fill(slots, work, analyzeHere(project, work), store);

  // HEAD's tree: the same analyses, but the HEAD side of every changed document (facts only).
  const changed = new Set(changes.map((c) => c.path));
  const headRefs = changes.flatMap((c) => (c.head !== null && c.head.mode !== GITLINK && kindOf.has(c.path) ? [store.refOf(c.path, kindOf.get(c.path)!, c.head)] : []));
  store.prefetch(headRefs.map((ref) => [ref, false] as const));
  const before: Analysis[] = slots.filter((a): a is Analysis => a !== null && !changed.has(a.path));
  for (const ref of headRefs) {
    const a = store.analyze(ref, false);
    if (a) before.push(a);
  }
  const now = crossFileDiagnostics(project.kinds, slots.filter((a): a is Analysis => a !== null), project.severityFor);
  // The rules across files read only the facts (and paths and ids): when the changed documents' facts are
  // those HEAD had (a body edited, the common commit), no other document's result can differ.
  const then = sameFacts(project, slots, before, changed) ? now : crossFileDiagnostics(project.kinds, before, project.severityFor);
  if (cache) keepTree(store, cache, kinds, [...p.needed, ...headRefs], then);

  // Documents a staged change affects: checked as a whole (their own rules too), like the staged ones.
  const affected: number[] = [];
  if (then !== now) {
    slots.forEach((a, i) => {
      if (a && !staged.has(a.path) && !sameDiagnostics(now.get(a.path), then.get(a.path))) affected.push(i);
    });
  }
  store.prefetch(affected.map((i) => [p.needed[i]!, true] as const));
  for (const i of affected) slots[i] = store.analyze(p.needed[i]!, true) ?? slots[i]!;

  const selected = new Set([...staged, ...affected.map((i) => p.needed[i]!.path)]);
  const run = finish(project, slots.filter((a): a is Analysis => a !== null), selected, now);
  if (cache) {
    const present = new Map<Kind, Set<string>>(kinds.map((k) => [k, new Set<string>()]));
    for (const ref of p.needed) present.get(ref.kind)?.add(ref.path);
    const problem = cache.save(present);
    if (problem) notices.push(problem);
  }
  return { ...run, notices };
}
