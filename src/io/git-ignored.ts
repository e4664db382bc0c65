/**
 * The files git ignores, which are no documents for any frontend (docs/reliability.md, "Files git
 * ignores"): a git-ignored `.env` is never linted and never served, as Biome's `vcs.useIgnoreFile` and
 * markdownlint-cli2's `gitignore` do. Asked of git itself, once per discovery, by
 * `git ls-files --others --ignored --exclude-standard --directory` over the folders to be listed: its
 * rules are .gitignore files, `.git/info/exclude` and `core.excludesFile`; a tracked file is never
 * ignored. A root that is not in a git work tree, or where git is missing or fails, ignores nothing.
 */
import { closeSync, lstatSync, openSync, readSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, isAbsolute, join, resolve, sep } from 'node:path';
import { identityOf } from './file-identity.js';

// node:child_process is loaded when git is first run: a root without git never pays for it.
let spawnSync: typeof import('node:child_process').spawnSync | undefined;
function spawn(): typeof import('node:child_process').spawnSync {
  return (spawnSync ??= (createRequire(import.meta.url)('node:child_process') as typeof import('node:child_process')).spawnSync);
}

/** Largest listing of ignored paths read from git. */
const MAX_OUTPUT = 256 * 1024 * 1024;

/** The folder holding `.git` (a folder, or the file of a linked work tree) at or above `dir`, or null. */
function workTreeTop(dir: string): string | null {
  for (let at = dir; ; at = dirname(at)) {
    try {
      if (lstatSync(join(at, '.git'), { throwIfNoEntry: false })) return at;
    } catch {
      return null; // an unreadable folder on the way: no work tree we can see
    }
    if (dirname(at) === at) return null;
  }
}

/** The first line of a small file, or null. */
function firstLine(file: string): string | null {
  let fd: number;
  try {
    fd = openSync(file, 'r');
  } catch {
    return null;
  }
  try {
    const buf = Buffer.alloc(4096);
    return (
      buf
        .subarray(0, readSync(fd, buf, 0, buf.length, 0))
        .toString('utf8')
        .split(/\r?\n/)[0] ?? null
    );
  } catch {
    return null;
  } finally {
    closeSync(fd);
  }
}

/** The `info/exclude` file of a work tree's repository (a linked work tree's is its common folder's). */
function excludeFile(top: string): string {
  const dotGit = join(top, '.git');
  const line = firstLine(dotGit); // a `.git` file: `gitdir: <path>`; a folder reads as null
  let gitDir = dotGit;
  if (line?.startsWith('gitdir: ')) {
    const named = line.slice('gitdir: '.length).trim();
    gitDir = isAbsolute(named) ? named : resolve(top, named);
    const common = firstLine(join(gitDir, 'commondir'));
    if (common !== null && common.trim() !== '') gitDir = resolve(gitDir, common.trim());
  }
  return join(gitDir, 'info', 'exclude');
}

/**
 * Git's ignore answers for one discovery (a lint run, or one MCP listing of a kind): folders are
 * `cover`ed first, all at once where possible (one git call), then asked per path. Paths are relative
 * to the root's real path with `/` separators: git does not follow links, so a document reached through
 * a link is asked by where it really lies.
 */
export class GitIgnored {
  /** Ignored files (and folders git listed with their contents, by their files only). */
  private readonly files = new Set<string>();
  /** Folders ignored as a whole (`build/`), with their trailing `/`: nothing below them is listed. */
  private readonly dirs = new Set<string>();
  /** Folders answered so far ('' for the whole root). */
  private readonly covered: string[] = [];
  /** The folder holding `.git`, null outside a work tree; undefined until first needed. */
  private top: string | null | undefined;
  /** The files git's answers depend on, with their identity before it was asked (null: missing). */
  private readonly sources = new Map<string, string | null>();
  /** Git calls made (tests and the bench count them). */
  calls = 0;
  /** Paths discovery left out because git ignores them (as discovery named them): named ones are warned of. */
  readonly dropped = new Set<string>();

  constructor(
    private readonly realRoot: string,
    /** Folders to cover with the first call, whoever makes it (those of every kind a lint run lists). */
    private pending: (() => readonly string[]) | null = null,
  ) {}

  /** Whether any path is ignored at all (without ignored paths, discovery asks nothing per entry). */
  get active(): boolean {
    return this.files.size > 0 || this.dirs.size > 0;
  }

  /** Whether the root lies in a git work tree (so .gitignore files matter): found by a look for `.git`. */
  get inWorkTree(): boolean {
    if (this.top === undefined) this.top = process.env['GIT_DIR'] !== undefined ? this.realRoot : workTreeTop(this.realRoot);
    return this.top !== null;
  }

  private isCovered(dir: string): boolean {
    return this.covered.some((c) => c === '' || dir === c || dir.startsWith(`${c}/`));
  }

  /** Makes sure git has answered for these folders (real, root-relative): one call for those it has not. */
  cover(dirs: readonly string[]): void {
    const wanted = [...(this.pending?.() ?? []), ...dirs];
    this.pending = null;
    const todo = [...new Set(wanted.filter((d) => !this.isCovered(d)))].sort();
    // A folder below another of the same call is covered by it.
    const specs = todo.filter((d, i) => !todo.slice(0, i).some((c) => c === '' || d.startsWith(`${c}/`)));
    if (specs.length === 0) return;
    this.covered.push(...specs);
    if (!this.inWorkTree) {
      this.source(join(this.realRoot, '.git')); // a repository made later is seen
      return;
    }
    this.noteSources(specs);
    this.calls++;
    const args = [
      '--literal-pathspecs',
      'ls-files',
      '-z',
      '--others',
      '--ignored',
      '--exclude-standard',
      '--directory',
      '--',
      ...specs.map((d) => (d === '' ? '.' : d)),
    ];
    const r = spawn()('git', args, { cwd: this.realRoot, maxBuffer: MAX_OUTPUT });
    // Git missing, a repository git will not read (another user's, unless safe.directory allows it), a
    // folder inside a submodule: nothing is known to be ignored (docs/reliability.md).
    if (r.error || r.status !== 0) return;
    const paths = r.stdout.toString('utf8').split('\0');
    for (let i = 0; i < paths.length; i++) {
      const p = paths[i]!;
      if (p === '') continue;
      if (!p.endsWith('/')) this.files.add(p);
      // A folder whose contents git listed too is not ignored itself, only all it holds now: a file
      // added to it later is not known to be ignored (the listing is sorted, its contents follow it).
      else if (!(paths[i + 1] ?? '').startsWith(p)) this.dirs.add(p);
    }
  }

  /** The ignore files that can change the answers for `dirs`: .gitignore from the work tree's top down, and info/exclude. */
  private noteSources(dirs: readonly string[]): void {
    // Not `.git` itself: its identity moves with every index update.
    const top = this.top!;
    this.source(excludeFile(top));
    for (let at = this.realRoot; ; at = dirname(at)) {
      this.source(join(at, '.gitignore'));
      if (at === top || dirname(at) === at || !at.startsWith(top)) break;
    }
    for (const d of dirs) {
      const parts = d === '' ? [] : d.split('/');
      for (let i = 1; i <= parts.length; i++) this.source(join(this.realRoot, ...parts.slice(0, i), '.gitignore'));
    }
  }

  private source(abs: string): void {
    if (!this.sources.has(abs)) this.sources.set(abs, identityOf(abs));
  }

  /** A `.gitignore` in a folder discovery listed (its folder may lie below those covered). */
  noteIgnoreFile(abs: string): void {
    if (this.inWorkTree) this.source(abs);
  }

  /**
   * The files git's answers were made from, with their identities then (null: missing): while none
   * changes, the same folders get the same answers (a long-lived server and the lint cache keep a
   * listing no longer than that).
   */
  get inputs(): ReadonlyMap<string, string | null> {
    return this.sources;
  }

  /** Whether git ignores an entry of a listed folder that is not ignored itself (a Set look-up). */
  ignoresEntry(path: string, dir: boolean): boolean {
    return dir ? this.dirs.has(`${path}/`) : this.files.has(path);
  }

  /** Whether git ignores a path (file or folder), or a folder above it. */
  ignores(path: string, dir: boolean): boolean {
    if (!this.active) return false;
    if (this.ignoresEntry(path, dir)) return true;
    for (let slash = path.indexOf('/'); slash !== -1; slash = path.indexOf('/', slash + 1)) {
      if (this.dirs.has(path.slice(0, slash + 1))) return true;
    }
    return false;
  }
}

/** A path under `realRoot` as a root-relative `/` path ('' for the root), or null outside it. */
export function realRelative(realRoot: string, real: string): string | null {
  if (real === realRoot) return '';
  const base = realRoot.endsWith(sep) ? realRoot : `${realRoot}${sep}`;
  if (!real.startsWith(base)) return null;
  const rel = real.slice(base.length);
  return sep === '/' ? rel : rel.split(sep).join('/');
}
