#!/usr/bin/env node
import { existsSync, lstatSync } from 'node:fs';
import { basename, dirname, isAbsolute, join, relative, resolve, sep } from 'node:path';
import { existsAsDirectory, folderLeavesRoot, replaceUnderRoot } from '../io/layout.js';
import { fixRun } from '../lint/fix-files.js';
import { escapeHidden } from '../model/hidden-unicode.js';
import { lint, lintInParallel } from '../lint/lint.js';
import type { LintOutcome, Timing } from '../lint/lint.js';
import { DiskSource } from '../lint/disk-source.js';
import { IndexSource, stagedCacheFile } from '../lint/index-source.js';
import { kindsListed, resolveRoot, selectPaths } from '../lint/selection.js';
import { LintCache } from '../store/lint-cache.js';
import { StagedCache } from '../store/staged-cache.js';
import { NO_STORE, lazyStore } from '../store/store.js';
import type { LintRun } from '../lint/run.js';
import { effectiveConfig } from '../project/print-config.js';
import { allResults, retally, withoutWarnings } from '../lint/tally.js';
import {
  applySuppressions,
  pruneSuppressions,
  recordSuppressions,
  serializeSuppressions,
  suppressionTotals,
  suppressionsPath,
  unusedSuppressions,
} from '../project/baseline.js';
import { unmatchedKindLines } from '../project/config.js';
import { loadProject } from '../project/project.js';
import type { Project, ProjectOptions } from '../project/project.js';
import { WriteRefused, appendRegular, isInside, namesDevice, realFolder, replaceFile, writeDirect } from '../io/safe-fs.js';
import { ConfigError, UsageError } from '../model/errors.js';
import { RULES_DOC_URL, VERSION } from '../io/version.js';
import { githubStepSummary } from '../report/github.js';
import { plural, summaryByRule } from '../report/summary.js';
import { wantsColor } from './color.js';
import { describePlan, existingConfig, planInit, withTempConfig, writeConfig } from './init.js';
import { FORMATTERS } from '../report/index.js';
import { USAGE, parseCli } from './args.js';
import type { InitArgs, LintArgs, LspArgs, McpArgs } from './args.js';
import { startToolThread } from '../mcp/tool-thread-start.js';
import { msSinceStart } from '../model/clock.js';

/** ESLint's rule for `--cache-location`: a folder (existing, or written with a trailing slash) gets the default file name inside it. */
function cacheFileFor(root: string, location: string | undefined): string {
  if (location === undefined) return join(root, '.docgatecache');
  const abs = resolve(location);
  return /[\\/]$/.test(location) || existsAsDirectory(abs) ? join(abs, '.docgatecache') : abs;
}

/**
 * `--output FILE`. A FIFO or character device (/dev/null) is written to directly, without blocking; so
 * is a link outside the root that names one, or names a descriptor (/dev/stdout, /dev/fd/N): the user
 * named it, the repository cannot have planted it. Anything else is replaced by a temporary file renamed
 * over it: a link at FILE (a committed `docgate.sarif -> /elsewhere`) is replaced, its target untouched.
 * A folder, socket or block device at FILE, or a folder of the root on the way that resolves outside
 * the root, is a usage error (exit 2).
 */
function writeReport(root: string, file: string, text: string): void {
  if (folderLeavesRoot(root, file)) throw new WriteRefused('its folder resolves outside the root (through a symbolic link)');
  const data = Buffer.from(text, 'utf8');
  const st = lstatSync(file, { throwIfNoEntry: false });
  const outsideRoot = !isInside(root, file) && !isInside(realFolder(root) ?? root, file);
  if (st && (st.isFIFO() || st.isCharacterDevice() || (st.isSymbolicLink() && outsideRoot && namesDevice(file)))) {
    writeDirect(file, data);
    return;
  }
  replaceFile(file, data);
}

/**
 * A file docgate writes of its own (a report, the cache, the baseline) must not be, or take the place
 * of, a document: `--output processes/a.md` would replace a document with a report. The path is judged
 * as written and as its folder resolves (a folder of the root linked to a kind's folder), existing or not.
 */
function refuseDocumentPath(project: Project, file: string, what: string): void {
  // `what` names the file as the user gave it: `the json report to out/a.md`.
  const realRoot = realFolder(project.root) ?? project.root;
  const realDir = realFolder(dirname(file));
  const places = [[project.root, file], [realRoot, file], ...(realDir === null ? [] : [[realRoot, join(realDir, basename(file))]])] as const;
  for (const [base, abs] of places) {
    if (!isInside(base, abs)) continue;
    const rel = relative(base, abs).split(sep).join('/');
    if (project.layout.classify(rel) !== null) throw new ConfigError(`cannot write ${what}: it is a document of the repository, expected a file of its own`);
  }
}

/** The project options of the command line: `--config`, `--ignore-pattern`, `--suppressions-location`. */
function optionsOf(args: LintArgs | McpArgs | LspArgs): ProjectOptions {
  const options: ProjectOptions = { cwd: process.cwd() };
  if (args.config !== undefined) options.config = args.config;
  if (args.command === 'lint' && args.ignorePatterns.length > 0) options.ignorePatterns = args.ignorePatterns;
  if (args.suppressionsLocation !== undefined) options.suppressions = args.suppressionsLocation;
  return options;
}

/** ESLint's rule: a suppressions file named with `--suppressions-location` must exist unless this run records one. */
function checkSuppressionsLocation(root: string, args: LintArgs | McpArgs | LspArgs): void {
  if (args.suppressionsLocation === undefined || (args.command === 'lint' && args.suppress !== undefined)) return;
  const file = suppressionsPath(root, args.suppressionsLocation, process.cwd());
  if (!existsSync(file))
    throw new ConfigError(
      `the suppressions file ${args.suppressionsLocation} does not exist; create it with docgate lint --suppress-all or --suppress-rule RULE`,
    );
}

/** `--print-config PATH`: the configuration in effect for a path inside the root, as JSON. */
function printConfig(project: Project, given: string): void {
  const rel = relative(project.root, resolve(given));
  if (rel.startsWith('..') || isAbsolute(rel)) throw new ConfigError(`${given} is outside the root ${project.root}`);
  process.stdout.write(`${JSON.stringify(effectiveConfig(project, rel.split(sep).join('/')), null, 2)}\n`);
}

/** How many "no longer occurs" lines a run prints before it sums up the rest. */
const MAX_UNUSED_LINES = 20;

/**
 * The baseline flags: `--suppress-all` / `--suppress-rule` record the errors found, `--prune-suppressions`
 * removes what no longer occurs; the file is written (atomically, stable to diff) and the run's results
 * are those under the new baseline. Returns the run, and lines for stderr: what the file now holds, and
 * every suppression that no longer occurs (until it is pruned, so the baseline only shrinks).
 */
function baselineStep<T extends LintRun>(project: Project, args: LintArgs, run: T): { run: T; lines: string[] } {
  const { file, shown } = project.suppressions;
  const found = run.errorCounts ?? {};
  // A run over some paths judges only their entries; a run over the whole root judges every entry.
  const scope = args.paths.length > 0 || args.staged ? new Set(run.checked.map((c) => c.path)) : null;
  let counts = project.suppressions.counts;
  const lines: string[] = [];
  if (args.suppress !== undefined || args.prune) {
    counts =
      args.suppress !== undefined ? recordSuppressions(counts, found, args.suppress) : pruneSuppressions(counts, unusedSuppressions(counts, found, scope));
    try {
      replaceUnderRoot(project.root, file, Buffer.from(serializeSuppressions(counts), 'utf8'));
    } catch (e) {
      throw new ConfigError(`cannot write the suppressions file ${shown}: ${(e as Error).message}`);
    }
    run = retally(run, applySuppressions({ counts }, allResults(run)).results);
    const total = suppressionTotals(counts);
    lines.push(`docgate: ${shown} now suppresses ${plural(total.errors, 'error', 'errors')} in ${plural(total.files, 'file', 'files')}`);
  }
  const unused = unusedSuppressions(counts, found, scope);
  let listed = 0;
  let more = 0;
  for (const path of Object.keys(unused).sort()) {
    for (const rule of Object.keys(unused[path]!).sort()) {
      const n = unused[path]![rule]!.count;
      // A stale baseline of a whole tree would print a line per entry: the first ones, then a count.
      if (listed++ >= MAX_UNUSED_LINES) more += n;
      else
        lines.push(
          `docgate: warning: ${path}: ${plural(n, `suppressed ${rule} error no longer occurs`, `suppressed ${rule} errors no longer occur`)}; run docgate lint --prune-suppressions to update ${shown}`,
        );
    }
  }
  if (more > 0)
    lines.push(
      `docgate: warning: ${plural(more, 'more suppressed error no longer occurs', 'more suppressed errors no longer occur')}; run docgate lint --prune-suppressions to update ${shown}`,
    );
  return { run, lines };
}

async function runLint(args: LintArgs): Promise<number> {
  const root = resolveRoot(args.root);
  const options = optionsOf(args);
  const project = loadProject(root, options);
  if (args.printConfig !== undefined) {
    printConfig(project, args.printConfig);
    return 0;
  }
  checkSuppressionsLocation(root, args);
  for (const rule of args.suppress ?? []) {
    if (!project.rules.has(rule))
      throw new ConfigError(
        `--suppress-rule ${rule}: Unexpected rule id \`${rule}\`, expected a rule id of docgate (see docs/rules.md) or of a configured kind`,
      );
  }
  const cacheFile = args.cache ? cacheFileFor(root, args.cacheLocation) : undefined;
  // Checked before any work: a run that would overwrite a document does nothing (exit 2).
  if (args.cache) refuseDocumentPath(project, cacheFileFor(root, args.cacheLocation), `the cache ${args.cacheLocation ?? '.docgatecache'}`);
  if (args.suppress !== undefined || args.prune) refuseDocumentPath(project, project.suppressions.file, `the suppressions file ${project.suppressions.shown}`);
  for (const target of args.targets)
    if (target.output !== undefined) refuseDocumentPath(project, resolve(target.output), `the ${target.format} report to ${target.output}`);
  const cwd = process.cwd();
  // The disk, with the lint cache or none; a run over named files may take a kind's listing from the cache.
  const diskLint = (): Promise<LintOutcome> => {
    const selection = selectPaths(project, args.paths, cwd);
    const store = cacheFile ? LintCache.load(cacheFile, VERSION, project.key, root, project) : NO_STORE;
    return lintInParallel(project, new DiskSource(project, { kinds: kindsListed(project, selection) }), store, selection, {
      trustListings: selection.type === 'paths',
    });
  };
  // `--staged`: the git index, with the blob cache (read only by a run that needs it) or none.
  const stagedLint = (): LintOutcome => {
    const file = args.cacheLocation !== undefined ? cacheFileFor(root, args.cacheLocation) : undefined;
    const store = args.cache ? lazyStore(() => StagedCache.load(file ?? stagedCacheFile(root), VERSION, project.key, root, project)) : NO_STORE;
    return lint(project, new IndexSource(project), store, { type: 'changes' });
  };
  let linted: LintOutcome & { outputs?: ReadonlyMap<string, string> } = args.staged ? stagedLint() : await diskLint();
  if (args.fix !== undefined) {
    const fixed = fixRun(project, linted, args.fix === 'write');
    // `--fix`: what remains is reported, from the files as written; `--fix-dry-run`: the files as they are, with `output`.
    if (fixed.written.length > 0) linted = await diskLint();
    else if (args.fix === 'dry-run') linted = { ...linted, outputs: fixed.outputs, inputs: fixed.inputs };
    linted.notices.push(...fixed.notices);
    if (fixed.written.length > 0) process.stderr.write(`docgate: fixed ${plural(fixed.written.length, 'file', 'files')}: ${fixed.written.join(', ')}\n`);
  }
  const step = baselineStep(project, args, linted);
  // `--quiet`: warnings are neither printed nor counted (nor held against --max-warnings).
  const run = args.quiet ? withoutWarnings(step.run) : step.run;
  const tooManyWarnings = args.maxWarnings >= 0 && run.warningCount > args.maxWarnings;
  // A reader that stops reading (`docgate lint | head -1`) closes the pipe: end quietly with the lint's
  // exit code, set before any output, not with an unhandled EPIPE and its stack.
  const code = run.errorCount > 0 || tooManyWarnings ? 1 : 0;
  process.exitCode = code;
  for (const stream of [process.stdout, process.stderr]) {
    stream.on('error', (e: NodeJS.ErrnoException) => {
      if (e.code === 'EPIPE') process.exit();
      throw e;
    });
  }
  // A notice names paths as given: a hidden character in one is shown as its escape.
  for (const w of run.notices) process.stderr.write(`docgate: warning: ${escapeHidden(w)}\n`);
  for (const line of step.lines) process.stderr.write(`${line}\n`);
  // A whole-root run on disk sees every document: a configured include that matched none is named.
  if (!args.staged && args.paths.length === 0) for (const line of unmatchedKindLines(project.config, linted.checked)) process.stderr.write(`${line}\n`);
  const color = wantsColor(args.color, process.env, process.stdout.isTTY === true);
  const context = { version: VERSION, rulesDoc: RULES_DOC_URL };
  let toStdout = false;
  const reporting = msSinceStart();
  if (args.summaryOnly === true) {
    process.stdout.write(summaryByRule(run));
    return code;
  }
  for (const target of args.targets) {
    const formatter = FORMATTERS[target.format];
    if (!formatter) throw new ConfigError(`format '${target.format}' is not available`);
    if (target.output) {
      try {
        writeReport(root, resolve(target.output), formatter(run, { ...context, color: false }));
      } catch (e) {
        throw new ConfigError(`cannot write the ${target.format} report to ${target.output}: ${(e as Error).message}`);
      }
    } else {
      process.stdout.write(formatter(run, { ...context, color }));
      toStdout = true;
    }
  }
  // Reports went to files only: the terminal still gets the stylish report and its summary.
  if (!toStdout) process.stdout.write(FORMATTERS.stylish!(run, { ...context, color }));
  const timing = args.staged ? undefined : linted.timing; // --staged says nothing of its time
  if (process.env.DOCGATE_TIMING === '1' && timing) process.stderr.write(timingLine(timing, msSinceStart() - reporting));
  // On GitHub Actions the job summary lists every failure (annotations are capped per step).
  const stepSummary = process.env.GITHUB_STEP_SUMMARY;
  if (stepSummary && args.targets.some((t) => t.format === 'github')) {
    try {
      // Appended, as the runner expects, but only to a regular file: not through a link, not to a FIFO.
      appendRegular(stepSummary, githubStepSummary(run));
    } catch (e) {
      process.stderr.write(`docgate: could not append to GITHUB_STEP_SUMMARY (${stepSummary}): ${(e as Error).message}\n`);
    }
  }
  // ESLint's words, when the warnings alone fail the run.
  if (tooManyWarnings && run.errorCount === 0) process.stderr.write(`docgate found too many warnings (maximum: ${args.maxWarnings}).\n`);
  return code;
}

/** The lint a command runs for its own purposes: the whole root, stylish, no cache, no baseline flags. */
function plainLint(root: string): LintArgs {
  return {
    command: 'lint',
    root,
    paths: [],
    targets: [{ format: 'stylish' }],
    cache: false,
    staged: false,
    ignorePatterns: [],
    quiet: false,
    maxWarnings: -1,
    prune: false,
  };
}

/** `docgate init`: what it found, the configuration it writes (or would), and the first lint's summary. */
async function runInit(args: InitArgs): Promise<number> {
  const root = resolveRoot(args.root);
  const existing = existingConfig(root);
  if (existing !== undefined)
    throw new ConfigError(
      `${existing} exists at the root: docgate init writes a configuration only where there is none (edit it instead: docs/configuration.md)`,
    );
  const plan = await planInit(root);
  process.stdout.write(describePlan(root, plan));
  if (args.dryRun) {
    process.stdout.write(`\nwould write docgate.config.yaml (--dry-run: nothing written):\n\n${plan.text}\nfirst lint with it:\n`);
    return await withTempConfig(plan.text, (file) => runLint({ ...plainLint(root), config: file, summaryOnly: true }));
  }
  writeConfig(root, plan.text);
  process.stdout.write(`\nwrote docgate.config.yaml:\n\n${plan.text}\nfirst lint (see every problem with \`docgate lint\`):\n`);
  return await runLint({ ...plainLint(root), summaryOnly: true });
}

/** `docgate lsp`: the language server on stdio (its own bundle, loaded only here); it owns the process until the client's `exit`. */
async function runLsp(args: LspArgs): Promise<number> {
  const root = args.rootGiven ? resolveRoot(args.root) : undefined;
  if (root !== undefined) checkSuppressionsLocation(root, args);
  const { serveLsp } = await import('../lsp/server.js');
  serveLsp({ ...(root !== undefined ? { root } : {}), project: optionsOf(args) });
  return -1;
}

async function main(argv: string[]): Promise<number> {
  try {
    const args = parseCli(argv, process.env);
    switch (args.command) {
      case 'help':
        process.stdout.write(`${args.usage}\n`);
        return 0;
      case 'version':
        process.stdout.write(`${VERSION}\n`);
        return 0;
      case 'lint':
        return await runLint(args);
      case 'init':
        return await runInit(args);
      case 'lsp':
        return await runLsp(args);
      case 'mcp': {
        const root = resolveRoot(args.root);
        checkSuppressionsLocation(root, args);
        const options = optionsOf(args);
        // The repository thread boots while the server's own code loads (~70 ms): the first call waits less.
        const repository = startToolThread({ root, lane: 'repository', project: options, writes: args.allowWrites });
        // Tests only: that thread has ended before the server listens to it (see tool-worker.ts).
        if (process.env.DOCGATE_TEST_FAULT === 'repository-thread-exit') await new Promise((ended) => repository.worker.once('exit', ended));
        const { serveStdio } = await import('../mcp/server.js');
        await serveStdio(root, options, repository, { allowWrites: args.allowWrites });
        return -1;
      }
    }
  } catch (e) {
    if (e instanceof ConfigError) {
      process.stderr.write(`docgate: ${e.message}\n${e instanceof UsageError ? `\n${USAGE}\n` : ''}`);
      return 2;
    }
    process.stderr.write(`docgate: internal error: ${e instanceof Error ? (e.stack ?? e.message) : String(e)}\n`);
    return 2;
  }
}

// No top-level await: the CLI is bundled as CommonJS so that V8's code cache can load it (bin/docgate.js).
void main(process.argv.slice(2)).then((code) => {
  // -1: a long-running server owns the process now.
  if (code < 0) return;
  process.exitCode = code;
  // Done: leave now rather than wait for V8's idle-time garbage collection (5–10 ms after a lint). Only
  // when all output is written (stdout and stderr are synchronous for files, pipes and terminals on
  // Linux; elsewhere a pipe may still be draining, and Node then exits by itself once it has).
  if (process.stdout.writableLength === 0 && process.stderr.writableLength === 0) process.exit(code);
});

/** `DOCGATE_TIMING=1`: one stderr line of where a lint's time went (docs/performance.md). */
function timingLine(t: Timing, reportMs: number): string {
  const ms = (n: number): string => `${Math.round(n).toLocaleString('en-US')} ms`;
  const n = (k: number): string => k.toLocaleString('en-US');
  const who = `${n(t.here)} ${t.here === 1 ? 'document' : 'documents'} in the main thread${t.workers === 0 ? '' : `, ${n(t.inWorkers)} in ${plural(t.workers, 'worker', 'workers')}`}`;
  const across = t.kept === 'few' ? 'rules across files kept for the named files' : t.kept === 'all' ? 'rules across files kept' : 'rules across files';
  return `docgate: timing: plan ${ms(t.loadAndPlanMs)}, analyze ${ms(t.analyzeMs)} (${who}), ${across} and results ${ms(t.finishMs)}, report ${ms(reportMs)}, process ${ms(msSinceStart())}\n`;
}
