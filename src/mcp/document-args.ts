import { inGitFolder } from '../io/glob.js';
import { statSync } from 'node:fs';
import { gitIgnoresPath, refAt } from '../io/layout.js';
import type { FileRef } from '../io/layout.js';
import type { AnyKind } from '../engine/kind.js';
import type { Project } from '../project/project.js';
import { ToolError } from './tool.js';
import type { ToolContext } from './tool.js';
import type { Entry } from '../lint/repository.js';
import { listedId } from './entries.js';

/**
 * The kind a document tool is asked about: one of the root's project (the registry's and its own).
 * Checked before any content file is read (the project reads configuration and rule files only).
 */
export function checkKind(name: string, ctx: ToolContext): AnyKind {
  const project = ctx.project();
  const kind = project.kind(name);
  if (!kind) throw new ToolError(`Unknown kind '${name}': expected one of ${project.kinds.map((k) => k.name).join(', ')}.`);
  return kind;
}

/** An id as documents of any kind have them: no path, no `..`, no control characters; checked before any file access. */
const SAFE_ID = /^(?!.*\.\.)[^/\\\u0000-\u001f\u007f]{1,200}$/;

export function checkDocumentId(id: string): string {
  if (!SAFE_ID.test(id)) {
    throw new ToolError(`Invalid id '${id}': expected a document id as list_documents shows it (no path separators, no '..', at most 200 characters).`);
  }
  return id;
}

/** What is wrong with a path given for a document (null: a root-relative path with `/` separators). */
function pathProblem(path: string, root: string): string | null {
  if (path.length > 1000) return 'it is longer than 1,000 characters';
  if (/[\u0000-\u001f\u007f]/.test(path)) return 'it holds a control character';
  if (path.includes('\\')) return 'it holds a backslash (give / separators)';
  if (path.startsWith('/') || /^[A-Za-z]:/.test(path)) {
    const prefix = `${root.replace(/\/+$/, '')}/`;
    return path.startsWith(prefix) ? `it is absolute (give it relative to the root: '${path.slice(prefix.length)}')` : 'it lies outside the root';
  }
  const segments = path.split('/');
  if (segments.includes('..')) return "it goes through '..' (a document is named by its path inside the root)";
  if (segments.some((s) => s === '.' || s === '')) return "it has a '.' or an empty segment (give it as list_documents shows it)";
  return null;
}

/**
 * A document's path as check_content, get_document and the repair prompt take it; checked before any
 * file access. `root` tells an absolute path inside the root (named relative) from one outside it.
 */
export function checkDocumentPath(path: string, root = ''): string {
  const problem = pathProblem(path, root);
  if (problem !== null)
    throw new ToolError(
      `Invalid path '${path}': ${problem}; expected a path relative to the root with / separators, e.g. processes/deploy.md (no '..', no absolute path).`,
    );
  return path;
}

/** Why a well-formed path is no document of any kind: ignored by the configuration, in `.git`, or matched by no include. */
function notADocument(path: string, project: Project): string {
  if (project.layout.isIgnored(path)) return `'${path}' is not served: the configuration's \`ignores\` exclude it.`;
  if (inGitFolder(path)) return `'${path}' lies in a .git folder, which holds no documents.`;
  const kinds = project.kinds.map((k) => `${k.name} (${k.include.join(', ')})`).join('; ');
  return `'${path}' is not a document of any kind of this repository: no kind's include matches it. The kinds: ${kinds}.`;
}

/** The document at a path check_content, get_document or the repair prompt is given: its shape checked first, then its kind. */
export function documentAt(path: string, project: Project): FileRef {
  checkDocumentPath(path, project.root);
  const place = project.layout.classify(path);
  if (place === null) throw new ToolError(notADocument(path, project));
  return refAt(project.root, path, place.kind, project.layout);
}

/**
 * Why discovery finds no document at a path of some kind's (get_document, the repair prompt): there is
 * no such file, git ignores it, or a link leads to it from a folder listed by another path.
 */
export function notDiscovered(ref: FileRef, project: Project): string {
  const { path } = ref;
  if (!statSync(ref.abs, { throwIfNoEntry: false })) return `No document at '${path}': there is no such file (a ${ref.kind} document would be there).`;
  if (gitIgnoresPath(project.root, path, false)) return `'${path}' is not served: git ignores it (docgate serves no file git ignores).`;
  return `'${path}' is not a document discovery finds: a link leads to it from a folder listed by another path.`;
}

/** The entry of a path that is a document of some kind (its shape and kind checked before any file access), or why there is none. */
export async function entryAt(path: string, ctx: ToolContext): Promise<Entry> {
  const project = ctx.project();
  const ref = documentAt(path, project);
  const entry = (await ctx.repo.load(ref.kind)).find((e) => e.ref.path === path);
  if (entry) return entry;
  throw new ToolError(notDiscovered(ref, project));
}

/**
 * The entry of a kind's document with this id (`listedId`: a failing one too, by the id its facts still
 * give). A document without an id is not found by the fallback its result names (every skill's would be
 * `SKILL`): its path names it.
 */
export async function entryOf(kindName: string, id: string, ctx: ToolContext): Promise<Entry> {
  checkDocumentId(id);
  const kind = checkKind(kindName, ctx);
  const entry = (await ctx.repo.load(kind.name)).find((e) => listedId(e, kind) === id);
  if (!entry) throw new ToolError(`no ${kind.name} document found with id '${id}' (a document without an id is found by its path: {path})`);
  return entry;
}
