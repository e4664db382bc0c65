/**
 * `docgate lint --staged` (docs/decisions.md, "`docgate lint --staged`"): the one pipeline of lint.ts over the git index as its store. The
 * documents are the index's; their bytes are its blobs (never the working tree: a file staged and then
 * edited again is checked as staged, an untracked file does not exist). The rules across files run over
 * the indexed tree, and the documents reported are the staged ones plus every document whose result
 * across files differs from what HEAD's tree gives it: the users of a deleted, renamed or changed
 * `store_as`, both holders of a new duplicate, a variant whose source went. That is found from the
 * kinds' own rules across files, run over both trees; no kind is named here.
 */
import { join } from 'node:path';
import { analyzeFileIdentified, analyzeRead, maxBytes } from './analyze.js';
import type { Analysis } from '../model/analysis.js';
import { crossFileDiagnostics } from '../engine/cross-file.js';
import type { ReadOutcome } from '../io/file-identity.js';
import { IndexListing, gitDirOf, readBlobs, stagedChanges } from '../io/git-index.js';
import type { BlobRead, IndexEntry, StagedChange } from '../io/git-index.js';
import { GITLINK, IndexTree, SYMLINK, isLink, meets } from '../io/index-tree.js';
import type { IndexRef } from '../io/index-tree.js';
import { existsAsDirectory, refAt } from '../io/layout.js';
import type { FileRef } from '../io/layout.js';
import { finish, fill, analyzeHere, plan, prepare } from './lint.js';
import { byPath, fromCache } from './memo.js';
import type { LintOptions } from './lint.js';
import type { Memo, Reuse } from './memo.js';
import type { LintRun } from './run.js';
import { addResults, factsKey } from '../store/cache-rows.js';
import type { CacheEntry } from '../store/cache-rows.js';
import { StagedCache } from '../store/staged-cache.js';
import type { Diagnostic, Kind } from '../model/types.js';
import { VERSION } from '../io/version.js';
import { loadProject } from '../project/project.js';
import type { Project } from '../project/project.js';
import type { IdentifiedAnalysis } from './analyze.js';

export interface StagedOptions extends LintOptions {
  /** Keep the blob-keyed cache (`--cache`). */
  cache?: boolean;
  /** Where (`--cache-location`); default: `docgate-staged-cache` in the git directory. */
  cacheFile?: string;
}

/** The object name of HEAD's tree, as `git cat-file` resolves it. */
const HEAD_TREE = 'HEAD^{tree}';
/**
 * Changed documents answered from a tree's results across files at most (see `fromTree`); a larger
 * commit lists the index, where the cache's rows answer for most documents.
 */
const MAX_QUICK = 16;

/** The identity of a blob at a path, as the staged cache keys it. */
function identityOf(e: IndexEntry): string {
  return `${e.mode}:${e.oid}`;
}

function outcomeOf(read: BlobRead | undefined, identity: string): ReadOutcome {
  if (read?.kind === 'bytes') return { kind: 'bytes', bytes: read.bytes, identity };
  if (read?.kind === 'too-large') return { kind: 'too-large', size: read.size, identity };
  return { kind: 'error', code: 'ENOENT' }; // a blob the index names but the object store lacks
}

/** A staged document with its cache entry, once looked up (undefined: not yet; null: none). */
interface StoreRef extends IndexRef {
  hit?: CacheEntry | null;
}

/** Where a store's documents come from: the index's entries under the kinds' folders, and the kinds found through links. */
interface Sources {
  /** Entries in or below the folders of the kinds no link reaches (listed as paths, matched by glob). */
  flat: ReadonlyMap<string, IndexEntry>;
  /** The documents of the kinds a link may reach, as `IndexTree.discover` found them. */
  linked: ReadonlyMap<Kind, readonly IndexRef[]>;
}

/**
 * The index as the pipeline's memo: every listing comes from it, every read from its blobs (fetched
 * in one batch per phase), every analysis from the blob-keyed cache when it has one.
 */
class IndexStore implements Memo {
  /** HEAD's tree, once asked of git (null: no commit yet), alongside the first blobs read. */
  private head: string | null | undefined;
  private readonly reads: Map<string, BlobRead>;

  constructor(
    private readonly project: Project,
    private readonly sources: Sources,
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

  /** The texts of links (one batch for all: a link's text is its target), to resolve them inside the indexed tree. */
  linkTargets(links: Iterable<IndexEntry>): (link: IndexEntry) => string {
    const wanted = new Map<string, number>();
    for (const e of links) wanted.set(e.oid, 4096);
    const named = this.head === undefined ? new Map<string, string | null>([[HEAD_TREE, null]]) : undefined;
    const texts = new Map<string, string>();
    for (const [oid, r] of readBlobs(this.project.root, wanted, named)) texts.set(oid, r.kind === 'bytes' ? r.bytes.toString('utf8') : '');
    if (named) this.head = named.get(HEAD_TREE) ?? null;
    return (link) => texts.get(link.oid) ?? '';
  }

  /** A document of a kind no link reaches, at `path` read as `entry` (a file: HEAD's side or the index's). */
  refOf(path: string, kind: Kind, entry: IndexEntry): FileRef {
    const ref: StoreRef = refAt(this.project.root, path, kind, this.project.layout);
    if (entry.badName) ref.problem = 'bad-name';
    else if (entry.unmerged) ref.problem = 'unmerged';
    else if (entry.mode === SYMLINK)
      ref.problem = 'unreadable'; // not met: a kind with links is found by IndexTree
    else ref.blob = entry;
    return ref;
  }

  listing(kind: Kind): FileRef[] {
    const found = this.sources.linked.get(kind);
    if (found) return [...found];
    const layout = this.project.layout;
    const holds = layout.holder(kind);
    // A path an earlier kind of the registry holds is that kind's (as discovery decides); in the default
    // layout (docs/formats.md) no kinds overlap, so most listings ask one matcher per path.
    const earlier = layout.kinds
      .slice(0, layout.kinds.indexOf(kind))
      .filter((k) => layout.overlaps(k, kind))
      .map((k) => layout.holder(k));
    // A path the cache holds for this kind was matched when it was cached (under the same rules).
    const known = this.cache?.has(kind) ?? ((): boolean => false);
    const refs: FileRef[] = [];
    for (const [path, e] of this.sources.flat) {
      if (e.mode === GITLINK || !(known(path) || (holds(path) && !earlier.some((h) => h(path))))) continue;
      refs.push(this.refOf(path, kind, e));
    }
    return refs;
  }

  listed(): void {
    /* the index is listed by git, not by folders */
  }

  private entry(ref: StoreRef, full: boolean): CacheEntry | null {
    const e = ref.blob;
    // A document reached through a link is analyzed every run (links are rare).
    if (!e || ref.link || !this.cache) return null;
    // The first look-up is kept (prefetch, then the pipeline's lookup); a full one replaces a partial one.
    if (ref.hit === undefined || (ref.hit !== null && full && !ref.hit.full)) ref.hit = this.cache.get(ref.kind, ref.path, identityOf(e), full) ?? null;
    return ref.hit !== null && (ref.hit.full || !full) ? ref.hit : null;
  }

  private cached(ref: StoreRef, full: boolean): Analysis | null {
    const entry = this.entry(ref, full);
    return entry ? fromCache(ref, entry) : null;
  }

  /** Reads, in one batch, the blobs of the documents the cache cannot answer for. */
  prefetch(items: readonly (readonly [FileRef, boolean])[]): void {
    const wanted = new Map<string, number>();
    for (const [ref, full] of items) {
      const e = (ref as StoreRef).blob;
      if (!e || this.reads.has(e.oid) || this.entry(ref, full)) continue;
      wanted.set(e.oid, Math.max(wanted.get(e.oid) ?? 0, maxBytes(this.project, ref.kind)));
    }
    if (wanted.size > 0) this.readBlobs(wanted);
  }

  lookup(ref: StoreRef, full: boolean): Reuse | null {
    const e = ref.blob;
    if (!e) return null; // a problem found in the index (analyzed without a read)
    const analysis = this.cached(ref, full);
    if (analysis) return { analysis };
    if (!this.reads.has(e.oid)) this.prefetch([[ref, full]]);
    return { read: outcomeOf(this.reads.get(e.oid), identityOf(e)), hash: e.oid };
  }

  remember(ref: StoreRef, full: boolean, r: IdentifiedAnalysis): void {
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
 * Only for a HEAD a whole run found without links where documents are looked for (`linkFree`), and a
 * commit that adds none: then no document lies behind a link, and the changes are the documents changed.
 */
function fromTree(
  project: Project,
  store: IndexStore,
  cache: StagedCache,
  changes: readonly StagedChange[],
  kindOf: ReadonlyMap<string, Kind>,
  kinds: readonly Kind[],
): LintRun | null {
  const relevant = changes.filter((c) => kindOf.has(c.path));
  if (relevant.length > MAX_QUICK) return null;
  // Additions and deletions change the set of documents; a conflict has no side to read.
  const plain = (e: IndexEntry | null): e is IndexEntry => e !== null && e.mode !== SYMLINK && e.mode !== GITLINK && e.unmerged !== true;
  if (!relevant.every((c) => plain(c.head) && plain(c.index))) return null;
  const nowRefs = relevant.map((c) => store.refOf(c.path, kindOf.get(c.path)!, c.index!));
  const headRefs = relevant.map((c) => store.refOf(c.path, kindOf.get(c.path)!, c.head!));
  store.prefetch([...nowRefs.map((ref) => [ref, true] as const), ...headRefs.map((ref) => [ref, false] as const)]);
  const tree = store.headTree();
  const known = tree === null || !cache.linkFree(tree) ? [] : kinds.map((k) => cache.tree(k, tree));
  if (known.length === 0 || known.some((t) => t === null)) return null;
  const now = nowRefs.map((ref) => store.analyze(ref, true));
  const before = headRefs.map((ref) => store.analyze(ref, false));
  const paths = new Set(relevant.map((c) => c.path));
  if (
    !sameFacts(
      project,
      now,
      before.filter((a): a is Analysis => a !== null),
      paths,
    )
  )
    return null;
  const cross = new Map<string, Diagnostic[]>();
  for (const t of known) addResults(cross, t!);
  // In the whole run's order (git lists paths by their bytes, the pipeline by code units).
  return finish(project, byPath(now.filter((a): a is Analysis => a !== null)), paths, cross);
}

/**
 * Keeps HEAD's results across files for the next commit's `fromTree`: `then` is what the whole of HEAD's
 * tree gives (its documents of these kinds; `refs`: both trees' documents). Not for a kind a link
 * reaches: its documents there were found through the links, which `fromTree` does not look at.
 */
function keepTree(
  store: IndexStore,
  cache: StagedCache,
  kinds: readonly Kind[],
  linked: ReadonlySet<Kind>,
  refs: readonly FileRef[],
  then: ReadonlyMap<string, Diagnostic[]>,
): void {
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

/** A document whose place or content differs between HEAD's tree and the index: its HEAD side, and whether the index has it. */
interface DocChange {
  path: string;
  head: FileRef | null;
  now: boolean;
}

/** What a document of the index is, as far as its result can tell: its problem, or the blob it reads. */
function docKey(ref: IndexRef | undefined): string | undefined {
  return ref && `${ref.problem ?? ''}:${ref.code ?? ''}:${ref.blob ? identityOf(ref.blob) : ''}`;
}

/** The documents that differ between two listings of one kind (the index's, HEAD's). */
function changedDocs(now: readonly IndexRef[], then: readonly IndexRef[]): DocChange[] {
  const a = new Map(now.map((r) => [r.path, r]));
  const b = new Map(then.map((r) => [r.path, r]));
  const out: DocChange[] = [];
  for (const path of new Set([...a.keys(), ...b.keys()])) {
    if (docKey(a.get(path)) !== docKey(b.get(path))) out.push({ path, head: b.get(path) ?? null, now: a.has(path) });
  }
  return out;
}

/**
 * The kinds whose documents a link may reach (a link lies at, above or below one of their folders, in
 * the index or in HEAD), each found in both trees by `IndexTree.discover`: the documents, and those that
 * differ. The link texts are read in one batch.
 */
function throughLinks(
  project: Project,
  store: IndexStore,
  index: ReadonlyMap<string, IndexEntry>,
  links: readonly string[],
  changes: readonly StagedChange[],
): Map<Kind, { refs: IndexRef[]; changed: DocChange[] }> {
  const layout = project.layout;
  const out = new Map<Kind, { refs: IndexRef[]; changed: DocChange[] }>();
  const kinds = layout.kinds.filter((k) =>
    links.some((path) =>
      meets(
        path,
        layout.folders(k).map((f) => f.dir),
      ),
    ),
  );
  if (kinds.length === 0) return out;
  const targets = store.linkTargets([
    ...links.flatMap((path) => (isLink(index.get(path)) ? [index.get(path)!] : [])),
    ...changes.flatMap((c) => (isLink(c.head) ? [c.head] : [])),
  ]);
  const now = new IndexTree(index, targets);
  const then = now.before(changes);
  for (const kind of kinds) {
    const refs = now.discover(project.root, layout, kind);
    out.set(kind, { refs, changed: changedDocs(refs, then.discover(project.root, layout, kind)) });
  }
  return out;
}

/** Lints the snapshot the git index holds. Notices: a cache that cannot be read or written. */
export function lintStaged(options: StagedOptions): LintRun & { notices: string[] } {
  const project = options.project ?? loadProject(options.root, options);
  const root = project.root;
  const layout = project.layout;
  const notices: string[] = [];
  const { changes, intentToAdd } = stagedChanges(root);
  if (changes.length === 0) return { ...finish(project, [], new Set()), notices };
  const kindOf = new Map<string, Kind>();
  for (const c of changes) {
    const k = layout.classify(c.path);
    if (k) kindOf.set(c.path, k.kind);
  }
  const folders = (kinds: Iterable<Kind>): string[] => [...kinds].flatMap((k) => layout.folders(k).map((f) => f.dir));
  const everywhere = folders(layout.kinds);
  // A link changed where documents are looked for: the index may reach documents through it.
  const linkChanged = changes.some((c) => (isLink(c.head) || isLink(c.index)) && meets(c.path, everywhere));
  let cache: StagedCache | null = null;
  const loadCache = (): StagedCache => {
    const c = StagedCache.load(options.cacheFile ?? defaultCacheFile(root), VERSION, project.key, root, project);
    if (c.problem) notices.push(c.problem);
    return c;
  };
  // Changed documents only, read without the cache's rows (decoding them is most of a whole run).
  const few = new IndexStore(project, { flat: new Map(), linked: new Map() }, null);
  if (options.cache && kindOf.size > 0 && !linkChanged) {
    cache = loadCache();
    const quick = fromTree(
      project,
      few,
      cache,
      changes,
      kindOf,
      layout.kinds.filter((k) => [...kindOf.values()].includes(k)),
    );
    if (quick) return { ...quick, notices };
  }

  // The index, listed once: the documents of the kinds touched, and every link (a target may lie anywhere).
  const listing = IndexListing.read(root, intentToAdd);
  const indexLinks = [...listing.links().keys()];
  const links = [...new Set([...indexLinks, ...changes.filter((c) => isLink(c.head)).map((c) => c.path)])];
  const reached = throughLinks(project, few, links.length > 0 ? listing.all() : new Map(), links, changes);
  // Rules across files never cross kinds: only the kinds whose documents changed are linted.
  const touched = new Set<Kind>();
  for (const k of kindOf.values()) if (!reached.has(k)) touched.add(k);
  for (const [k, r] of reached) if (r.changed.length > 0) touched.add(k);
  const kinds = layout.kinds.filter((k) => touched.has(k));
  if (kinds.length === 0) return { ...finish(project, [], new Set()), notices };

  if (options.cache && cache === null) cache = loadCache();
  const linked = new Set(reached.keys());
  const flat = listing.under(folders(kinds.filter((k) => !linked.has(k))));
  const store = new IndexStore(project, { flat, linked: new Map([...reached].map(([k, r]) => [k, r.refs])) }, cache, few);

  // The documents changed: of a kind no link reaches, the changes git lists; of one a link reaches, those found different.
  const docChanges: DocChange[] = [];
  for (const c of changes) {
    const kind = kindOf.get(c.path);
    if (kind === undefined || linked.has(kind) || !touched.has(kind)) continue;
    docChanges.push({
      path: c.path,
      head: c.head !== null && c.head.mode !== GITLINK ? store.refOf(c.path, kind, c.head) : null,
      now: c.index !== null && c.index.mode !== GITLINK,
    });
  }
  for (const k of kinds) docChanges.push(...(reached.get(k)?.changed ?? []));

  // The indexed tree: every document of those kinds, analyzed fully only where staged.
  const p = plan(project, undefined, root, store, kinds);
  const staged = new Set(docChanges.filter((d) => d.now).map((d) => d.path));
  p.selected = staged;
  store.prefetch(p.needed.map((ref) => [ref, staged.has(ref.path)] as const));
  const { slots, work } = prepare(p, store);
  fill(slots, work, analyzeHere(project, work), store);

  // HEAD's tree: the same analyses, but the HEAD side of every changed document (facts only).
  const changed = new Set([...changes.map((c) => c.path), ...docChanges.map((d) => d.path)]);
  const headRefs = docChanges.flatMap((d) => (d.head ? [d.head] : []));
  store.prefetch(headRefs.map((ref) => [ref, false] as const));
  const before: Analysis[] = slots.filter((a): a is Analysis => a !== null && !changed.has(a.path));
  const headSide = new Map<string, Analysis>();
  for (const ref of headRefs) {
    const a = store.analyze(ref, false);
    if (a) {
      before.push(a);
      headSide.set(a.path, a);
    }
  }
  // A document in conflict is named (file-unmerged), but the others see it as HEAD has it: what it
  // will hold is not decided yet, and its users are not to blame for that.
  const conflicted = new Set(p.needed.filter((r) => r.problem === 'unmerged').map((r) => r.path));
  const facing = conflicted.size === 0 ? slots : slots.map((a) => (a && conflicted.has(a.path) ? (headSide.get(a.path) ?? null) : a));
  const now = crossFileDiagnostics(
    project.kinds,
    facing.filter((a): a is Analysis => a !== null),
    project.severityFor,
  );
  // The rules across files read only the facts (and paths and ids): when the changed documents' facts are
  // those HEAD had (a body edited, the common commit), no other document's result can differ.
  const then = sameFacts(project, facing, before, changed) ? now : crossFileDiagnostics(project.kinds, before, project.severityFor);
  if (cache) {
    keepTree(store, cache, kinds, linked, [...p.needed, ...headRefs], then);
    // HEAD's links: the index's, but as HEAD has each changed path.
    const changedAt = new Map(changes.map((c) => [c.path, c]));
    const headLinks = links.filter((path) => (changedAt.has(path) ? isLink(changedAt.get(path)!.head) : true));
    const tree = store.headTree();
    if (tree !== null && !headLinks.some((path) => meets(path, everywhere))) cache.setLinkFree(tree);
  }

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
  const shown = conflicted.size === 0 ? now : new Map([...now].filter(([path]) => !conflicted.has(path)));
  const run = finish(
    project,
    slots.filter((a): a is Analysis => a !== null),
    selected,
    shown,
  );
  if (cache) {
    const present = new Map<Kind, Set<string>>(kinds.map((k) => [k, new Set<string>()]));
    for (const ref of p.needed) present.get(ref.kind)?.add(ref.path);
    const problem = cache.save(present);
    if (problem) notices.push(problem);
  }
  return { ...run, notices };
}
