import { existsSync, statSync } from 'node:fs';
import { isAbsolute, relative, resolve, sep } from 'node:path';
import { analyzeFile } from './analyze.js';
import type { Analysis } from './analysis.js';
import { crossFileDiagnostics } from './cross-file.js';
import { discover, insideRoot } from './layout.js';
import type { FileRef } from './layout.js';
import { resultOf } from './result.js';
import { ConfigError, loadRuleSet } from './schemas.js';
import type { RuleSet } from './schemas.js';
import type { ParseFailureResult } from './types.js';

export interface LintOptions {
  root: string;
  /** Files or folders (absolute, or relative to `cwd`); none = the whole root. */
  paths?: readonly string[];
  cwd?: string;
}

/** SPEC §4.3 `json`: what every report format is made from. */
export interface LintReport {
  results: ParseFailureResult[];
  filesChecked: number;
  problemCount: number;
}

/** The report plus what was checked, for formats that list passing files too (JUnit). */
export interface LintRun extends LintReport {
  root: string;
  checked: Pick<FileRef, 'path' | 'kind'>[];
}

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

/** Picks the documents named by `paths` (files or folders); anything that is not a document is ignored. */
function select(root: string, all: readonly FileRef[], paths: readonly string[], cwd: string): FileRef[] {
  const chosen = new Set<string>();
  for (const p of paths) {
    const abs = resolve(cwd, p);
    if (!existsSync(abs)) throw new ConfigError(`no such file or folder: ${p}`);
    if (!insideRoot(root, abs)) throw new ConfigError(`${p} is outside the root ${root}`);
    let rel = relative(root, abs).split(sep).join('/');
    if (rel.startsWith('..') || isAbsolute(rel)) {
      // The root or the path goes through a symlink: compare real paths instead.
      rel = relative(resolve(root), abs).split(sep).join('/');
    }
    if (rel === '') {
      for (const f of all) chosen.add(f.path);
      continue;
    }
    for (const f of all) {
      if (f.path === rel || f.path.startsWith(`${rel}/`)) chosen.add(f.path);
    }
  }
  return all.filter((f) => chosen.has(f.path));
}

/**
 * Lints a root (or some of its documents). Cross-file rules always see the whole root: documents not
 * selected are analyzed for their cross-file facts only (SysRS bodies are not parsed for them).
 */
export function lint(options: LintOptions, rules: RuleSet = loadRuleSet(options.root)): LintRun {
  const root = options.root;
  const cwd = options.cwd ?? process.cwd();
  const all = discover(root);
  const selected = options.paths && options.paths.length > 0 ? select(root, all, options.paths, cwd) : all;
  const selectedPaths = new Set(selected.map((f) => f.path));
  const neededKinds = new Set(selected.map((f) => f.kind));

  const analyses: Analysis[] = [];
  for (const ref of all) {
    if (!neededKinds.has(ref.kind)) continue;
    const a = analyzeFile(ref, rules, selectedPaths.has(ref.path));
    if (a) analyses.push(a);
  }
  const cross = crossFileDiagnostics(analyses);
  const results: ParseFailureResult[] = [];
  const checked: LintRun['checked'] = [];
  for (const a of analyses) {
    if (!selectedPaths.has(a.path)) continue;
    checked.push({ path: a.path, kind: a.kind });
    const r = resultOf(a, cross.get(a.path));
    if (r) results.push(r);
  }
  const problemCount = results.reduce((n, r) => n + r.diagnostics.length, 0);
  return { root, results, filesChecked: checked.length, problemCount, checked };
}
