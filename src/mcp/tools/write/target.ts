/**
 * Which file a write tool writes (docs/mcp.md, "Validated writes"): a new document's path from its kind's
 * include globs and its id, or the path given; an existing document by {kind, id} or {kind, path}, found
 * as get_document finds it. Every argument is checked before any content file is read.
 */
import type { AnyKind } from '../../../engine/kind.js';
import type { FileRef } from '../../../io/layout.js';
import { analyzeBytes } from '../../../lint/analyze.js';
import type { Entry } from '../../../lint/repository.js';
import type { Project } from '../../../project/project.js';
import { checkDocumentId, checkKind, documentAt, entryAt, entryOf } from '../../document-args.js';
import { ToolError } from '../../tool.js';
import type { ToolContext } from '../../tool.js';

/** A glob with one `*` and no other pattern character: the one shape an id can be put into. */
const ONE_STAR = /^[^*?[\]{}!\\]*\*[^*?[\]{}!\\]*$/;

/**
 * Where a document of `kind` with this id lies, for a kind whose ids follow from paths (its file stem,
 * name or folder): the first include glob of one `*` that, with the id put in for the `*` (or for `*` and
 * the suffix the id ends with: `frameworks/*.md` and `POWER.md`), names a path of this kind whose id,
 * for any content, is this id. Null for a kind whose ids its documents' content gives (a SysRS's UUID).
 */
export function layoutPath(kind: AnyKind, id: string, project: Project): string | null {
  for (const glob of kind.include) {
    if (!ONE_STAR.test(glob)) continue;
    const star = glob.indexOf('*');
    const suffix = /^[^/]*/.exec(glob.slice(star + 1))![0];
    const candidates = [glob.replace('*', id)];
    if (suffix !== '' && id.endsWith(suffix) && id.length > suffix.length) candidates.push(glob.replace(`*${suffix}`, id));
    for (const path of candidates) {
      const place = project.layout.classify(path);
      if (place?.kind !== kind.name || place.lang !== null) continue;
      // The id an empty document at that path gets: the path's alone, whatever a content may say.
      const a = analyzeBytes({ path, kind: kind.name, lang: null }, Buffer.alloc(0), project);
      if ((kind.factsId === undefined ? a.id : kind.factsId(a.facts)) === id) return path;
    }
  }
  return null;
}

/** The file create_document makes: `{kind, id}` placed by the kind's layout, or `{kind, path}`. */
export function newDocument(args: { kind: string; id?: string; path?: string }, ctx: ToolContext): FileRef {
  const kind = checkKind(args.kind, ctx);
  const project = ctx.project();
  if (args.id !== undefined && args.path !== undefined) throw new ToolError("create_document takes either 'id' or 'path', not both: drop one.");
  let path = args.path;
  if (path === undefined) {
    if (args.id === undefined) throw new ToolError("create_document needs 'id' (for a kind whose ids follow from paths) or 'path'.");
    const id = checkDocumentId(args.id);
    const placed = layoutPath(kind, id, project);
    if (placed === null)
      throw new ToolError(
        `A ${kind.name} document's path does not follow from the id '${id}' (its id comes from its content, or no include glob ${kind.include.join(', ')} takes an id): give 'path' instead.`,
      );
    path = placed;
  }
  const ref = documentAt(path, project);
  if (ref.kind !== kind.name)
    throw new ToolError(
      `'${path}' is where a ${ref.kind} document lies, not a ${kind.name} one (the ${kind.name} kind's include: ${kind.include.join(', ')}).`,
    );
  return ref;
}

/** The existing document update_document and edit_document change: `{kind, id}` or `{kind, path}`. */
export async function existingDocument(tool: string, args: { kind: string; id?: string; path?: string }, ctx: ToolContext): Promise<Entry> {
  if (args.id !== undefined && args.path !== undefined) throw new ToolError(`${tool} takes either 'id' or 'path' with 'kind', not both: drop one.`);
  if (args.path !== undefined) {
    const kind = checkKind(args.kind, ctx);
    const ref = documentAt(args.path, ctx.project());
    if (ref.kind !== kind.name) throw new ToolError(`'${args.path}' is a ${ref.kind} document, not a ${kind.name} one: give kind '${ref.kind}'.`);
    return entryAt(args.path, ctx);
  }
  if (args.id === undefined) throw new ToolError(`${tool} needs 'id' or 'path' with 'kind'.`);
  return entryOf(args.kind, args.id, ctx);
}
