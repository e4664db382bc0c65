/**
 * Which documents a lint run reports (docs/architecture.md, "The pipeline"): every document (of some
 * kinds), those named on the command line (files or folders, as lint-staged passes them), or those the
 * source's changes touch (`--staged`: the staged documents, and those whose results across files the
 * changes alter). The rules across files always see every document of the kinds involved.
 */
import { statSync } from 'node:fs';
import { isAbsolute, relative, resolve, sep } from 'node:path';
import { reach } from '../io/layout.js';
import type { FileRef } from '../io/layout.js';
import { realFolder } from '../io/safe-fs.js';
import { ConfigError } from '../model/errors.js';
import type { Kind } from '../model/types.js';
import type { Project } from '../project/project.js';

/** A path named on the command line, resolved against the root. */
export interface Target {
  /** The path as the user gave it. */
  given: string;
  /** Root-relative path with `/` separators ('' = the root itself). */
  rel: string;
  dir: boolean;
  /**
   * Not found by its name, which Node decoded lossily from the command line (a file name that is not
   * valid UTF-8 arrives with U+FFFD): discovery finds it by that lossy name, or it is "no such file".
   */
  lossy?: string;
}

export type Selection =
  /** Every document of these kinds (every kind of the project when none are given). */
  | { type: 'all'; kinds?: readonly Kind[] }
  /** The documents the targets name. */
  | { type: 'paths'; targets: readonly Target[] }
  /** The documents the source's changes touch (a source with changes: the git index). */
  | { type: 'changes' };

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

/** A root-relative path with `/` separators, or null when `abs` lies outside `root`. Lexical: no I/O. */
function inside(root: string, abs: string): string | null {
  const rel = relative(root, abs);
  if (rel === '' || (!rel.startsWith('..') && !isAbsolute(rel))) return rel.split(sep).join('/');
  return null;
}

/** Resolves paths given on the command line (absolute, or relative to `cwd`) to root-relative targets (usage errors: exit 2). */
export function targetsOf(project: Project, paths: readonly string[], cwd: string): Target[] {
  const root = project.root;
  const realRoot = realFolder(root) ?? root;
  const classify = (rel: string) => project.layout.classify(rel);
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
    if (r.kind === 'found') return { given: p, rel, dir: r.dir };
    if (r.kind === 'outside') return { given: p, rel, dir: classify(rel) === null };
    if (rel.includes('\uFFFD') && classify(rel) !== null) return { given: p, rel, dir: false, lossy: p };
    throw new ConfigError(`no such file or folder: ${p}`);
  });
}

/** The selection of paths given on the command line: none is every document. */
export function selectPaths(project: Project, paths: readonly string[] | undefined, cwd: string): Selection {
  return !paths || paths.length === 0 ? { type: 'all' } : { type: 'paths', targets: targetsOf(project, paths, cwd) };
}

/** The kinds a target can hold: a file has at most one; a folder, those whose folders meet it. */
export function kindsOfTarget(project: Project, t: Target): Kind[] {
  if (!t.dir) {
    const c = project.layout.classify(t.rel);
    return c ? [c.kind] : [];
  }
  return project.layout.kindsUnder(t.rel);
}

/** The kinds a selection lists (in registry order): every kind of a whole run, those of the named paths. */
export function kindsListed(project: Project, selection: Selection): Kind[] {
  if (selection.type === 'all') return [...(selection.kinds ?? project.layout.kinds)];
  if (selection.type === 'changes') return [...project.layout.kinds];
  const wanted = new Set(selection.targets.flatMap((t) => kindsOfTarget(project, t)));
  return project.layout.kinds.filter((k) => wanted.has(k));
}

/** Whether a document is selected by the targets; a folder's failure also when a target lies inside that folder. */
export function isSelected(ref: Pick<FileRef, 'path' | 'problem'>, ts: readonly Target[]): boolean {
  const path = ref.path;
  const folder = ref.problem === 'folder-outside' || ref.problem === 'folder-unreadable';
  return ts.some((t) => t.rel === '' || path === t.rel || (t.dir && path.startsWith(`${t.rel}/`)) || (folder && t.rel.startsWith(`${path}/`)));
}

/** A target named by a lossy name that discovery did not find either: it does not exist after all. */
export function checkFound(ts: readonly Target[], selected: ReadonlySet<string>): void {
  for (const t of ts) if (t.lossy !== undefined && !selected.has(t.rel)) throw new ConfigError(`no such file or folder: ${t.lossy}`);
}
