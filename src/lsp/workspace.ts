/**
 * The editor's view of one root (docs/editors.md): its open buffers, and lint's findings for them. A
 * run is one more choice of the pipeline's three: the source is the disk with the open buffers laid
 * over it, the store the server's memory, the selection the open documents plus the closed ones an
 * edit touched (their results across files changed) — lint's own driver, so a buffer's diagnostics
 * are lint's for its text. A broken configuration leaves every document its last results.
 */
import type { FileRef } from '../io/layout.js';
import { refAt } from '../io/layout.js';
import { Repository } from '../lint/repository.js';
import type { LintOutcome } from '../lint/run.js';
import { ConfigError } from '../model/errors.js';
import type { Diagnostic, Kind } from '../model/types.js';
import type { Project, ProjectOptions } from '../project/project.js';
import { configProblems } from './convert.js';
import type { ConfigProblem } from './convert.js';
import { RootPaths } from './paths.js';

/** A buffer the editor opened inside the root (a document of the project or not: the configuration may change that). */
export interface OpenBuffer {
  uri: string;
  path: string;
  text: string;
  version: number;
}

/** What a refresh changed: the paths whose findings changed, and whether the configuration's problems did. */
export interface Refreshed {
  paths: string[];
  config: boolean;
  /** The project loaded (a configuration or rule file changed since the last refresh). */
  project: boolean;
}

export class Workspace {
  readonly paths: RootPaths;
  private readonly repo: Repository;
  private readonly open = new Map<string, OpenBuffer>();
  /** lint's findings, by path: the open documents', and those of closed documents an edit touched. */
  private readonly found = new Map<string, readonly Diagnostic[]>();
  /** Closed documents whose findings are shown because an edit touched them: linted each refresh until they have none. */
  private readonly touched = new Set<string>();
  /** Each kind's results across files at the last refresh (path → their JSON): what tells an edit's reach. */
  private readonly across = new Map<Kind, Map<string, string>>();
  /** The problems of the configuration or a rule file, while it is broken. */
  problems: ConfigProblem[] = [];
  private lastKey: string | null = null;
  /** A change not yet linted. */
  dirty = true;

  /**
   * `onDiskChange`: told when a watcher sees a file of a kind's folders change on disk (the buffers are
   * linted again). The watch lets a run take what nothing changed from memory (docs/editors.md, "Speed").
   */
  constructor(
    readonly root: string,
    options: ProjectOptions,
    onDiskChange?: () => void,
  ) {
    this.paths = new RootPaths(root);
    this.repo = new Repository(root, { project: options, watch: true, ...(onDiskChange ? { onChange: onDiskChange } : {}) });
  }

  /** Files the client says changed on disk (`workspace/didChangeWatchedFiles`): the next refresh reads them again. */
  diskChanged(uris: readonly string[]): void {
    this.repo.changed(uris.flatMap((uri) => this.paths.pathOf(uri) ?? []));
    this.dirty = true;
  }

  /** Stops watching the disk (the server is exiting). */
  dispose(): void {
    this.repo.close();
  }

  /** The project as the disk has it now, or null while its configuration or a rule file is broken (`problems` says why). */
  project(): Project | null {
    try {
      const project = this.repo.project();
      this.problems = [];
      return project;
    } catch (e) {
      if (!(e instanceof ConfigError)) throw e;
      this.problems = configProblems(e.message);
      return null;
    }
  }

  /** Keeps an opened or changed buffer; false when it lies outside the root (then it is ignored). */
  set(uri: string, text: string, version: number): boolean {
    const path = this.paths.pathOf(uri);
    if (path === null) return false;
    this.open.set(path, { uri, path, text, version });
    this.dirty = true;
    return true;
  }

  /** Forgets a closed buffer: its path, when it was one of the root's (its findings are dropped). */
  close(uri: string): string | null {
    const path = this.paths.pathOf(uri);
    if (path === null || !this.open.delete(path)) return null;
    this.found.delete(path);
    // Its results across files are looked at afresh: what the open buffers make of it, closed, is shown.
    for (const results of this.across.values()) results.delete(path);
    this.dirty = true;
    return path;
  }

  buffer(uri: string): OpenBuffer | undefined {
    const path = this.paths.pathOf(uri);
    return path === null ? undefined : this.open.get(path);
  }

  /** The open buffer at a path, if any. */
  bufferAt(path: string): OpenBuffer | undefined {
    return this.open.get(path);
  }

  /** lint's findings for a path (none when it is no document, or not linted). */
  findings(path: string): readonly Diagnostic[] {
    return this.found.get(path) ?? [];
  }

  /** Every path with findings shown: the open documents and the closed ones an edit touched. */
  shown(): string[] {
    return [...this.found.keys()];
  }

  /** The document at a path as the project places it (its kind and language), or null when it is none. */
  refOf(project: Project, path: string): FileRef | null {
    const place = project.layout.classify(path);
    return place === null ? null : refAt(project.root, path, place.kind, project.layout);
  }

  /**
   * Lints the open documents (and the closed ones touched) with the buffers laid over the disk. While
   * the configuration is broken nothing is linted: the documents keep their last findings.
   */
  refresh(): Refreshed {
    this.dirty = false;
    const before = JSON.stringify(this.problems);
    const project = this.project();
    const config = JSON.stringify(this.problems) !== before;
    if (project === null) return { paths: [], config, project: false };
    const loaded = project.key !== this.lastKey;
    this.lastKey = project.key;
    const texts = new Map<string, { ref: FileRef; bytes: Buffer }>();
    const paths: string[] = [];
    const changed = new Set<string>();
    for (const b of this.open.values()) {
      const ref = this.refOf(project, b.path);
      if (ref === null) {
        // No document (any more): what was shown for it goes.
        if (this.found.delete(b.path)) changed.add(b.path);
        continue;
      }
      texts.set(b.path, { ref, bytes: Buffer.from(b.text, 'utf8') });
      paths.push(b.path);
    }
    for (const p of this.touched) if (!this.open.has(p) && this.refOf(project, p) !== null) paths.push(p);
    if (paths.length === 0) return { paths: [...changed], config, project: loaded };
    let out: LintOutcome;
    try {
      out = this.repo.lintOver(texts, paths);
      const reached = this.reach(project, paths, out.across ?? new Map());
      if (reached.length > 0) out = this.repo.lintOver(texts, [...paths, ...reached]);
    } catch (e) {
      if (!(e instanceof ConfigError)) throw e;
      this.problems = configProblems(e.message);
      return { paths: [...changed], config: true, project: false };
    }
    const now = new Map<string, readonly Diagnostic[]>();
    for (const r of [...out.results, ...out.warnings]) now.set(r.path, r.diagnostics);
    for (const p of out.checked.map((c) => c.path).concat(paths)) {
      const list = now.get(p) ?? [];
      const open = this.open.has(p);
      if (!open && list.length === 0) this.touched.delete(p);
      else if (!open) this.touched.add(p);
      const old = this.found.get(p);
      if (old === undefined ? list.length > 0 || open : JSON.stringify(old) !== JSON.stringify(list)) changed.add(p);
      if (open || list.length > 0) this.found.set(p, list);
      else this.found.delete(p);
    }
    return { paths: [...changed], config, project: loaded };
  }

  /**
   * The closed documents an edit reached: those of the kinds linted whose results across files differ
   * from the last refresh's (a template whose `store_as` another renamed, the other holder of a name).
   */
  private reach(project: Project, paths: readonly string[], across: ReadonlyMap<string, readonly Diagnostic[]>): string[] {
    const kinds = new Set(paths.map((p) => project.layout.classify(p)?.kind));
    const now = new Map<Kind, Map<string, string>>();
    for (const k of kinds) if (k !== undefined) now.set(k, new Map());
    for (const [path, list] of across) {
      const k = project.layout.classify(path)?.kind;
      if (k !== undefined) now.get(k)?.set(path, JSON.stringify(list));
    }
    const reached: string[] = [];
    for (const [kind, results] of now) {
      const prev = this.across.get(kind);
      this.across.set(kind, results);
      if (prev === undefined) continue;
      for (const path of new Set([...prev.keys(), ...results.keys()])) {
        if (prev.get(path) !== results.get(path) && !this.open.has(path) && !this.touched.has(path)) reached.push(path);
      }
    }
    return reached.sort();
  }
}
