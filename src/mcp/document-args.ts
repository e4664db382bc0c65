import { refAt } from '../io/layout.js';
import type { FileRef } from '../io/layout.js';
import type { AnyKind } from '../engine/kind.js';
import type { Project } from '../project/project.js';
import { ToolError } from './tool.js';
import type { ToolContext } from './tool.js';

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

/** A root-relative path with `/` separators: not absolute, no `.`, `..` or empty folder, no backslash or control character. */
const SAFE_PATH = /^(?!\/)(?!.*(?:^|\/)\.{1,2}(?:\/|$))(?!.*\/\/)[^\\\u0000-\u001f\u007f]{1,1000}$/;

/** A document's path as check_content and the repair prompt take it; checked before any file access. */
export function checkDocumentPath(path: string): string {
  if (!SAFE_PATH.test(path))
    throw new ToolError(
      `Invalid path '${path}': expected a path relative to the root with / separators, e.g. processes/deploy.md (no '..', no absolute path).`,
    );
  return path;
}

/** The document at a path check_content or the repair prompt is given: its shape checked first, then its kind. */
export function documentAt(path: string, project: Project): FileRef {
  checkDocumentPath(path);
  const place = project.layout.classify(path);
  if (place === null)
    throw new ToolError(
      `'${path}' is not a document of any kind of this repository (or the configuration ignores it): ${project.kinds.map((k) => k.name).join(', ')}.`,
    );
  return refAt(project.root, path, place.kind, project.layout);
}
