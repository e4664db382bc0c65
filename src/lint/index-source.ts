/**
 * The git index as a source (source.ts), for `docgate lint --staged`: the snapshot about to be committed,
 * never the working tree. Documents are the index's entries under the kinds' folders (and those reached
 * through links, found in the indexed tree as discovery finds them on disk); their bytes are the index's
 * blobs, read from git in one batch per phase; a document's version is its blob id, which git computed.
 * The source also knows what differs from HEAD (the changes the run selects, src/lint/changes.ts).
 */
import type { ReadOutcome } from '../io/file-identity.js';
import { join } from 'node:path';
import { IndexListing, gitDirOf, readBlobs, stagedChanges } from '../io/git-index.js';
import type { BlobRead, IndexEntry, StagedDiff } from '../io/git-index.js';
import { GITLINK, SYMLINK } from '../io/index-tree.js';
import type { IndexRef } from '../io/index-tree.js';
import { existsAsDirectory, refAt } from '../io/layout.js';
import type { FileRef } from '../io/layout.js';
import type { Kind } from '../model/types.js';
import type { Project } from '../project/project.js';
import type { ListingBasis } from '../store/store.js';
import type { Source } from './source.js';

/** The object name of HEAD's tree, as `git cat-file` resolves it. */
const HEAD_TREE = 'HEAD^{tree}';

/** `docgate-staged-cache` in the git directory: `<root>/.git/` when the root is the top of a work tree (no git command needed). */
export function stagedCacheFile(root: string): string {
  const dotGit = join(root, '.git');
  return join(existsAsDirectory(dotGit) ? dotGit : gitDirOf(root), 'docgate-staged-cache');
}

/** The version of a blob at a path, as the blob cache keys it. */
export function blobVersion(e: IndexEntry): string {
  return `${e.mode}:${e.oid}`;
}

/** Where the index's documents come from: its entries under the kinds' folders, and the kinds found through links. */
export interface IndexDocuments {
  /** Entries in or below the folders of the kinds no link reaches (listed as paths, matched by glob). */
  flat: ReadonlyMap<string, IndexEntry>;
  /** The documents of the kinds a link may reach, as `IndexTree.discover` found them. */
  linked: ReadonlyMap<Kind, readonly IndexRef[]>;
}

export class IndexSource implements Source {
  readonly threads = false;
  private documents: IndexDocuments = { flat: new Map(), linked: new Map() };
  /** HEAD's tree, once asked of git (null: no commit yet), alongside the first blobs read. */
  private head: string | null | undefined;
  private readonly reads = new Map<string, BlobRead>();

  constructor(private readonly project: Project) {}

  /** What differs between HEAD and the index, and the paths added with intent only (`git add -N`). */
  changes(): StagedDiff {
    return stagedChanges(this.project.root);
  }

  /** The index, listed once by git (intent-to-add entries left out). */
  listing(intentToAdd: ReadonlySet<string>): IndexListing {
    return IndexListing.read(this.project.root, intentToAdd);
  }

  /** The documents `list` lists from now on. */
  setDocuments(documents: IndexDocuments): void {
    this.documents = documents;
  }

  /** HEAD's tree id, the base of the blob cache's results across files (null before the first commit). */
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
  refOf(path: string, kind: Kind, entry: IndexEntry): IndexRef {
    const ref: IndexRef = refAt(this.project.root, path, kind, this.project.layout);
    if (entry.badName) ref.problem = 'bad-name';
    else if (entry.unmerged) ref.problem = 'unmerged';
    else if (entry.mode === SYMLINK)
      ref.problem = 'unreadable'; // not met: a kind with links is found by IndexTree
    else ref.blob = entry;
    return ref;
  }

  list(kind: Kind): { refs: FileRef[]; basis: ListingBasis | null } {
    const found = this.documents.linked.get(kind);
    if (found) return { refs: [...found], basis: null };
    const layout = this.project.layout;
    const holds = layout.holder(kind);
    // A path an earlier kind of the registry holds is that kind's (as discovery decides); in the layout
    // of docgate's own kinds none overlap, so most listings ask one matcher per path.
    const earlier = layout.kinds
      .slice(0, layout.kinds.indexOf(kind))
      .filter((k) => layout.overlaps(k, kind))
      .map((k) => layout.holder(k));
    const refs: FileRef[] = [];
    for (const [path, e] of this.documents.flat) {
      if (e.mode === GITLINK || !holds(path) || earlier.some((h) => h(path))) continue;
      refs.push(this.refOf(path, kind, e));
    }
    // The index lists paths by their bytes, a run orders them by code units.
    refs.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
    return { refs, basis: null };
  }

  refAt(path: string, kind: Kind): FileRef {
    return refAt(this.project.root, path, kind, this.project.layout);
  }

  /** The index is listed by git every run: no recorded listing is reused. */
  unchanged(): boolean {
    return false;
  }

  version(ref: FileRef): string | null {
    const e = (ref as IndexRef).blob;
    return e ? blobVersion(e) : null;
  }

  /** A blob id names its content for good. */
  settled(): boolean {
    return true;
  }

  hash(ref: FileRef): string {
    return (ref as IndexRef).blob?.oid ?? '';
  }

  prefetch(refs: readonly FileRef[], maxBytes: (ref: FileRef) => number): void {
    const wanted = new Map<string, number>();
    for (const ref of refs) {
      const e = (ref as IndexRef).blob;
      if (!e || this.reads.has(e.oid)) continue;
      wanted.set(e.oid, Math.max(wanted.get(e.oid) ?? 0, maxBytes(ref)));
    }
    if (wanted.size > 0) this.readBlobs(wanted);
  }

  read(ref: FileRef, maxBytes: number): ReadOutcome {
    const e = (ref as IndexRef).blob;
    if (!e) return { kind: 'error', code: 'ENOENT' };
    if (!this.reads.has(e.oid)) this.prefetch([ref], () => maxBytes);
    const r = this.reads.get(e.oid);
    const identity = blobVersion(e);
    if (r?.kind === 'bytes') return { kind: 'bytes', bytes: r.bytes, identity };
    if (r?.kind === 'too-large') return { kind: 'too-large', size: r.size, identity };
    return { kind: 'error', code: 'ENOENT' }; // a blob the index names but the object store lacks
  }
}
