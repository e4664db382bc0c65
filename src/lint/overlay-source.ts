/**
 * A source with texts laid over another (source.ts): each document at a path given reads as the text
 * given, listed in its place whether the file exists or not; every other document is the underlying
 * source's. MCP check_content lays one proposed text over the disk (its result, for the bytes on disk,
 * is lint's); the editor lays its open buffers. A text laid over is never kept in a store: the store
 * holds what the underlying source holds.
 */
import type { ReadOutcome } from '../io/file-identity.js';
import type { FileRef } from '../io/layout.js';
import type { Kind } from '../model/types.js';
import type { ListingBasis } from '../store/store.js';
import type { Source } from './source.js';

export class OverlaySource implements Source {
  readonly threads = false;

  /** `texts`: root-relative path → the document there (its ref, as the underlying source would make it) and its bytes. */
  constructor(
    private readonly base: Source,
    private readonly texts: ReadonlyMap<string, { ref: FileRef; bytes: Buffer }>,
  ) {}

  list(kind: Kind): { refs: FileRef[]; basis: ListingBasis | null } {
    const listed = this.base.list(kind).refs;
    const laid = [...this.texts.values()].filter((t) => t.ref.kind === kind);
    if (laid.length === 0) return { refs: listed, basis: null };
    const over = new Set(laid.map((t) => t.ref.path));
    const refs = [...listed.filter((r) => !over.has(r.path)), ...laid.map((t) => t.ref)];
    // In its place by path, as discovery orders documents (the first of two duplicates keeps its name).
    refs.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
    return { refs, basis: null };
  }

  refAt(path: string, kind: Kind): FileRef {
    return this.texts.get(path)?.ref ?? this.base.refAt(path, kind);
  }

  unchanged(): boolean {
    return false;
  }

  version(ref: FileRef): string | null {
    return this.texts.has(ref.path) ? null : this.base.version(ref);
  }

  vouches(ref: FileRef): boolean {
    return !this.texts.has(ref.path) && this.base.vouches?.(ref) === true;
  }

  settled(version: string): boolean {
    return this.base.settled(version);
  }

  pinFolders(): { close(): void } {
    return this.base.pinFolders?.() ?? { close: () => {} };
  }

  read(ref: FileRef, maxBytes: number): ReadOutcome {
    const laid = this.texts.get(ref.path);
    if (!laid) return this.base.read(ref, maxBytes);
    // Larger than the kind allows: the answer lint gives for such a file, without analyzing it.
    return laid.bytes.length > maxBytes ? { kind: 'too-large', size: laid.bytes.length, identity: '' } : { kind: 'bytes', bytes: laid.bytes, identity: '' };
  }

  hash(ref: FileRef, bytes: Buffer): string {
    return this.base.hash(ref, bytes);
  }

  proposed(ref: FileRef): boolean {
    return this.texts.has(ref.path);
  }
}
