/**
 * The disk as a source (source.ts): discovery under the root (layout.ts `discover`: globs, links, what
 * git ignores), stat identities as versions, reads through one handle checked to lie inside the root.
 * A stat identity changed within the racy window of the run's start vouches for nothing later (a second
 * change in the same timestamp tick would look the same), as git's "racily clean" entries.
 */
import { join, relative, sep } from 'node:path';
import { contentHash, identityOf, readLimited, settledBefore } from '../io/file-identity.js';
import type { ReadOutcome } from '../io/file-identity.js';
import type { GitIgnored } from '../io/git-ignored.js';
import { discover, gitIgnoredFor, gitIgnoresPath, realPathIn, refAt } from '../io/layout.js';
import type { FileRef } from '../io/layout.js';
import { PinnedFolders, realFolder } from '../io/safe-fs.js';
import type { Kind } from '../model/types.js';
import type { Project } from '../project/project.js';
import type { ListingBasis } from '../store/store.js';
import type { Source } from './source.js';

export interface DiskSourceOptions {
  /** The kinds the run lists (git is asked once for all of their folders); default: every kind. */
  kinds?: readonly Kind[];
  /** Documents known to have changed (a watcher's events): read again even when their stat looks the same. */
  changed?: (ref: FileRef) => boolean;
  /** Told of each listing: the folders listed (identity, null when not listed), the files git's answers came from, and the documents. */
  onListed?: (kind: Kind, folders: ReadonlyMap<string, string | null>, ignores: ReadonlyMap<string, string | null>, refs: readonly FileRef[]) => void;
  /** A kind's listing known to stand (a watcher saw no entry of its folders change since it was taken): given without discovery. */
  listed?: (kind: Kind) => readonly FileRef[] | undefined;
  /** Documents a watcher vouches for (Source.vouches): unchanged since the store kept them. */
  vouches?: (ref: FileRef) => boolean;
}

/** The identity recorded for a file a listing depends on that did not exist (a .gitignore not written). */
const MISSING = 'missing';

export class DiskSource implements Source {
  readonly threads = true;
  /** When the run began: identities changed around it are racy. */
  readonly started = Date.now();
  private readonly realRoot: string;
  /** Git's answers for the run's discoveries, asked once for the folders of every kind listed. */
  readonly git: GitIgnored;

  constructor(
    private readonly project: Project,
    private readonly options: DiskSourceOptions = {},
  ) {
    this.realRoot = realFolder(project.root) ?? project.root;
    this.git = gitIgnoredFor(project.root, project.layout, options.kinds ?? project.layout.kinds);
  }

  list(kind: Kind): { refs: FileRef[]; basis: ListingBasis | null } {
    const known = this.options.listed?.(kind);
    if (known !== undefined) return { refs: [...known], basis: null };
    const folders = new Map<string, string | null>();
    const refs = discover(this.project.root, new Set([kind]), folders, this.project.layout, this.git);
    this.options.onListed?.(kind, folders, this.git.inputs, refs);
    // The files git's answers came from are recorded with the folders: a changed .gitignore lists again.
    const basis: ListingBasis = {};
    let keepable = true;
    for (const [rel, identity] of folders) {
      if (identity === null || !this.settled(identity)) keepable = false;
      else basis[rel] = identity;
    }
    for (const [abs, identity] of this.git.inputs) {
      if (identity !== null && !this.settled(identity)) keepable = false;
      basis[relative(this.project.root, abs).split(sep).join('/')] = identity ?? MISSING;
    }
    return { refs, basis: keepable ? basis : null };
  }

  refAt(path: string, kind: Kind): FileRef {
    return refAt(this.project.root, path, kind, this.project.layout);
  }

  unchanged(basis: ListingBasis): boolean {
    for (const [rel, identity] of Object.entries(basis)) if ((identityOf(join(this.project.root, rel)) ?? MISSING) !== identity) return false;
    return true;
  }

  version(ref: FileRef): string | null {
    return ref.problem || this.options.changed?.(ref) ? null : identityOf(ref.abs);
  }

  vouches(ref: FileRef): boolean {
    return this.options.vouches?.(ref) === true;
  }

  settled(version: string): boolean {
    return settledBefore(version, this.started);
  }

  /** The folders pinned for the reads of a batch (pinFolders), if one is open. */
  private pins: PinnedFolders | null = null;

  read(ref: FileRef, maxBytes: number): ReadOutcome {
    return readLimited(ref.abs, maxBytes, this.realRoot, this.pins ?? undefined);
  }

  pinFolders(): { close(): void } {
    const pins = new PinnedFolders(this.realRoot);
    const outer = this.pins;
    this.pins = pins;
    return {
      close: () => {
        pins.close();
        if (this.pins === pins) this.pins = outer;
      },
    };
  }

  hash(_ref: FileRef, bytes: Buffer): string {
    return contentHash(bytes);
  }

  ignoredByGit(rel: string, dir: boolean): boolean {
    return this.git.dropped.has(rel) || gitIgnoresPath(this.project.root, rel, dir, this.git);
  }

  /** A folder reached twice is listed once (layout.ts `discover`): a file named through the other path is the document found. */
  foundElsewhere(rel: string, listed: readonly FileRef[]): string | null {
    const real = realPathIn(this.project.root, rel);
    if (real === null || real === rel) return null;
    for (const f of listed) if (!f.problem && (f.path === real || realPathIn(this.project.root, f.path) === real)) return f.path;
    return null;
  }
}
