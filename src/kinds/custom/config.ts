/**
 * What a kind of your own is made of (docs/formats.md, "Kinds of your own"): the keys of `kinds.<name>`
 * in the configuration, with their defaults filled in. Data only: the configuration schema
 * (src/project/config-schema.ts) checks it before a kind is made of it.
 */

/** How a document's id is found: its file stem, its folder's name, or a frontmatter field (`frontmatter` is `{field: id}`). */
export type IdSpec = 'stem' | 'folder' | 'frontmatter' | { field: string };

export interface CustomKindConfig {
  include: readonly string[];
  id: IdSpec;
  /** A schema file name in the root's rule folder, or null for a body-only kind (`frontmatter: none`). */
  frontmatter: string | null;
  outline?: string;
  /** A file without a frontmatter block is fine; with one, it is checked. */
  frontmatterOptional: boolean;
  /** Schema files that widen the kind's schema (see src/project/schemas.ts, `widen`). */
  dialects: readonly string[];
  /** A field that must equal the folder name or the file stem (after NFKC). */
  match: { field: string; equals: 'folder' | 'stem' } | null;
  uniqueIgnoreCase: boolean;
  body: { required: boolean; maxLines: number | null; maxBytes: number | null };
  /** Fields a client reads more leniently than YAML: a plain value YAML refuses is read as the string it is. */
  lenient: readonly string[];
  /** Globs of files that are documents of the kind under a name it no longer wants. */
  deprecatedInclude: { globs: readonly string[]; message: string } | null;
}

/** The field an id is read from, or null when the id comes from the path. */
export function idField(id: IdSpec): string | null {
  if (id === 'frontmatter') return 'id';
  return typeof id === 'object' ? id.field : null;
}

/** The written `kinds.<name>` of a configuration, as data (the same keys as KindConfig of src/project/config.ts). */
export interface WrittenKind {
  include?: readonly string[];
  id?: IdSpec;
  frontmatter?: string;
  outline?: string;
  frontmatterOptional?: boolean;
  dialects?: readonly string[];
  match?: { field: string; equals: 'folder' | 'stem' };
  uniqueIgnoreCase?: boolean;
  body?: { required?: boolean; maxLines?: number; maxBytes?: number };
  lenient?: readonly string[];
  deprecatedInclude?: { globs: readonly string[]; message: string };
}

/** The kind a written `kinds.<name>` makes, its defaults filled in. */
export function customKindConfig(written: WrittenKind): CustomKindConfig {
  return {
    include: written.include ?? [],
    id: written.id ?? 'stem',
    frontmatter: written.frontmatter === undefined || written.frontmatter === 'none' ? null : written.frontmatter,
    ...(written.outline ? { outline: written.outline } : {}),
    frontmatterOptional: written.frontmatterOptional ?? false,
    dialects: written.dialects ?? [],
    match: written.match ?? null,
    uniqueIgnoreCase: written.uniqueIgnoreCase ?? false,
    body: { required: written.body?.required ?? false, maxLines: written.body?.maxLines ?? null, maxBytes: written.body?.maxBytes ?? null },
    lenient: written.lenient ?? [],
    deprecatedInclude: written.deprecatedInclude ?? null,
  };
}
