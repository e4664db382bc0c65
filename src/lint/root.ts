/**
 * A root's documents linted in this thread without a cache: the pipeline (lint.ts) over the disk, or
 * over the git index's changes (`staged`). What tests and small tools call; the CLI and the MCP server
 * choose their source, store and selection themselves.
 */
import type { Project, ProjectOptions } from '../project/project.js';
import { loadProject } from '../project/project.js';
import { NO_STORE } from '../store/store.js';
import { DiskSource } from './disk-source.js';
import { IndexSource } from './index-source.js';
import { lint } from './lint.js';
import type { LintOutcome } from './lint.js';
import { kindsListed, selectPaths } from './selection.js';

export interface RootOptions extends ProjectOptions {
  root: string;
  /** Files or folders (absolute, or relative to `cwd`); none = the whole root. */
  paths?: readonly string[];
  /** The project, when the caller has loaded it already (else it is loaded from `root`). */
  project?: Project;
}

/** Lints a root (or some of its documents) from the disk: cross-file rules always see the whole kinds involved. */
export function lintRoot(options: RootOptions): LintOutcome {
  const project = options.project ?? loadProject(options.root, options);
  const selection = selectPaths(project, options.paths, options.cwd ?? process.cwd());
  return lint(project, new DiskSource(project, { kinds: kindsListed(project, selection) }), NO_STORE, selection);
}

/** Lints the snapshot the git index of a root holds, as `docgate lint --staged` does without a cache. */
export function lintStagedRoot(options: RootOptions): LintOutcome {
  const project = options.project ?? loadProject(options.root, options);
  return lint(project, new IndexSource(project), NO_STORE, { type: 'changes' });
}
