#!/usr/bin/env node
import { lstatSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { existsAsDirectory, folderLeavesRoot } from '../core/layout.js';
import { lintFiles, resolveRoot } from '../core/lint.js';
import { WriteRefused, appendRegular, isInside, namesDevice, realFolder, replaceFile, writeDirect } from '../core/safe-fs.js';
import { ConfigError } from '../core/schemas.js';
import { VERSION } from '../core/version.js';
import { githubStepSummary } from '../report/github.js';
import { FORMATTERS } from '../report/index.js';
import { USAGE, parseCli } from './args.js';
import type { LintArgs } from './args.js';

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
  if (st && (st.isFIFO() || st.isCharacterDevice() || (st.isSymbolicLink() && outsideRoot && namesDevice(file)))) return writeDirect(file, data);
  replaceFile(file, data);
}

async function runLint(args: LintArgs): Promise<number> {
  const root = resolveRoot(args.root);
  const cacheFile = args.cache ? cacheFileFor(root, args.cacheLocation) : undefined;
  const run = await lintFiles({ root, paths: args.paths, ...(cacheFile ? { cacheFile } : {}) });
  // A reader that stops reading (`docgate lint | head -1`) closes the pipe: end quietly with the lint's
  // exit code, set before any output, not with an unhandled EPIPE and its stack.
  const code = run.results.length > 0 ? 1 : 0;
  process.exitCode = code;
  for (const stream of [process.stdout, process.stderr]) {
    stream.on('error', (e: NodeJS.ErrnoException) => {
      if (e.code === 'EPIPE') process.exit();
      throw e;
    });
  }
  for (const w of run.notices) process.stderr.write(`docgate: warning: ${w}\n`);
  const color = process.stdout.isTTY === true && !process.env.NO_COLOR;
  let toStdout = false;
  for (const target of args.targets) {
    const formatter = FORMATTERS[target.format];
    if (!formatter) throw new ConfigError(`format '${target.format}' is not available`);
    if (target.output) {
      try {
        writeReport(root, resolve(target.output), formatter(run, { color: false, version: VERSION }));
      } catch (e) {
        throw new ConfigError(`cannot write the ${target.format} report to ${target.output}: ${(e as Error).message}`);
      }
    } else {
      process.stdout.write(formatter(run, { color, version: VERSION }));
      toStdout = true;
    }
  }
  // Reports went to files only: the terminal still gets the stylish report and its summary.
  if (!toStdout) process.stdout.write(FORMATTERS.stylish!(run, { color, version: VERSION }));
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
  return code;
}

async function main(argv: string[]): Promise<number> {
  try {
    const args = parseCli(argv, process.env);
    switch (args.command) {
      case 'help':
        process.stdout.write(`${USAGE}\n`);
        return 0;
      case 'version':
        process.stdout.write(`${VERSION}\n`);
        return 0;
      case 'lint':
        return await runLint(args);
      case 'mcp': {
        const root = resolveRoot(args.root);
        const { serveStdio } = await import('../mcp/server.js');
        await serveStdio(root);
        return -1;
      }
    }
  } catch (e) {
    if (e instanceof ConfigError) {
      process.stderr.write(`docgate: ${e.message}\n${e.message.startsWith('unknown') || e.message.includes('option') ? `\n${USAGE}\n` : ''}`);
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
