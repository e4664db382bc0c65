/**
 * `docgate lsp`: the language server over stdio (docs/editors.md). It owns the protocol; what it says
 * about documents comes from the workspace (workspace.ts: lint's driver over the disk with the open
 * buffers laid over it), the code actions (actions.ts) and the schema's help (help.ts). Diagnostics are
 * pushed, or pulled where the client can (`interFileDependencies`: an edit changes other documents').
 * It never writes a file; a request it cannot answer is answered with nothing, never by ending.
 */
import { fileURLToPath } from 'node:url';
import {
  DidChangeWatchedFilesNotification,
  ErrorCodes,
  ProposedFeatures,
  ResponseError,
  StreamMessageReader,
  StreamMessageWriter,
  TextDocumentSyncKind,
  TextDocuments,
  createConnection,
} from 'vscode-languageserver/node';
import type { Connection, Diagnostic as LspDiagnostic, InitializeParams, InitializeResult } from 'vscode-languageserver/node';
import { TextDocument } from 'vscode-languageserver-textdocument';
import type { ProjectOptions } from '../project/project.js';
import { VERSION } from '../io/version.js';
import { Collections } from '../lint/collections.js';
import { FIX_ALL, codeActions, lineText } from './actions.js';
import { toLsp } from './convert.js';
import { completion, hover } from './help.js';
import { Workspace } from './workspace.js';

export interface LspOptions {
  /** The root named on the command line (`--root`, `$DOCGATE_ROOT`); else the client's first workspace folder, else the current folder. */
  root?: string;
  project: ProjectOptions;
}

/** How long after a change on disk the buffers are linted again: the rest of a burst of writes comes within it. */
const DISK_SETTLE_MS = 30;

/** What the client can do that changes how the server talks to it. */
interface ClientCan {
  pull: boolean;
  refresh: boolean;
  watch: boolean;
}

/** The root of a session: the one named, else the client's first workspace folder (or its root URI), else the current folder. */
function rootOf(params: InitializeParams, named: string | undefined): string {
  if (named !== undefined) return named;
  const uri = params.workspaceFolders?.[0]?.uri ?? params.rootUri;
  if (typeof uri === 'string' && uri.startsWith('file:')) return fileURLToPath(uri);
  return process.cwd();
}

class Server {
  private readonly documents = new TextDocuments(TextDocument);
  private workspace: Workspace | null = null;
  private can: ClientCan = { pull: false, refresh: false, watch: false };
  private scheduled = false;
  /** A run asked for by a change on disk, not yet begun (touchLater). */
  private later: NodeJS.Timeout | undefined;
  /** Full collections once quiet after a run (docs/performance.md, "The language server's memory"). */
  private readonly collections = new Collections();
  private shutDown = false;
  /** The files that carry configuration problems now (their URIs), to clear once fixed. */
  private configUris = new Set<string>();
  /** Paths whose buffers the client changed since the last refresh: with pull diagnostics it asks for those itself. */
  private readonly edited = new Set<string>();

  constructor(
    private readonly connection: Connection,
    private readonly options: LspOptions,
  ) {}

  listen(): void {
    const c = this.connection;
    c.onInitialize((params) => this.initialize(params));
    c.onInitialized(() => {
      if (this.can.watch)
        void c.client.register(DidChangeWatchedFilesNotification.type, {
          watchers: [{ globPattern: '**/docgate.config.{yaml,yml,json}' }, { globPattern: '**/*.{md,txt,json,yaml,yml}' }],
        });
    });
    c.onShutdown(() => {
      this.shutDown = true;
      clearTimeout(this.later);
      this.collections.stop();
      this.workspace?.dispose();
    });
    this.documents.onDidOpen((e) => this.changed(e.document));
    this.documents.onDidChangeContent((e) => this.changed(e.document));
    this.documents.onDidSave(() => this.touch());
    this.documents.onDidClose((e) => {
      if (this.shutDown || this.workspace === null) return;
      if (this.workspace.close(e.document.uri) !== null && !this.can.pull) void c.sendDiagnostics({ uri: e.document.uri, diagnostics: [] });
      this.touch();
    });
    c.onDidChangeWatchedFiles((p) => {
      this.workspace?.diskChanged(p.changes.map((change) => change.uri));
      this.touch();
    });
    c.onCodeAction((p) =>
      this.answer([], () => {
        const at = this.at(p.textDocument.uri);
        return at === null ? [] : codeActions(at.project, at.ref, at.doc, this.workspace!.findings(at.path), p.range, p.context.only);
      }),
    );
    c.onHover((p) =>
      this.answer(null, () => {
        const at = this.at(p.textDocument.uri);
        return at === null ? null : hover(at.project, at.ref, at.doc, this.workspace!.findings(at.path), p.position);
      }),
    );
    c.onCompletion((p) =>
      this.answer([], () => {
        const at = this.at(p.textDocument.uri);
        return at === null ? [] : completion(at.project, at.ref, at.doc, p.position);
      }),
    );
    c.languages.diagnostics.on((p) =>
      this.answer({ kind: 'full' as const, items: [] as LspDiagnostic[] }, () => {
        this.fresh();
        const path = this.workspace?.paths.pathOf(p.textDocument.uri) ?? null;
        return { kind: 'full' as const, items: path === null ? [] : this.diagnosticsOf(path) };
      }),
    );
    c.languages.diagnostics.onWorkspace(() =>
      this.answer({ items: [] }, () => {
        this.fresh();
        const ws = this.workspace;
        if (ws === null) return { items: [] };
        return {
          items: ws.shown().map((path) => {
            const b = ws.bufferAt(path);
            return { kind: 'full' as const, uri: b?.uri ?? ws.paths.uriOf(path), version: b?.version ?? null, items: this.diagnosticsOf(path) };
          }),
        };
      }),
    );
    this.documents.listen(c);
    c.listen();
  }

  private initialize(params: InitializeParams): InitializeResult {
    const caps = params.capabilities;
    this.can = {
      pull: caps.textDocument?.diagnostic !== undefined,
      refresh: caps.workspace?.diagnostics?.refreshSupport === true,
      watch: caps.workspace?.didChangeWatchedFiles?.dynamicRegistration === true,
    };
    this.workspace = new Workspace(rootOf(params, this.options.root), this.options.project, () => this.touchLater());
    return {
      capabilities: {
        textDocumentSync: { openClose: true, change: TextDocumentSyncKind.Incremental, save: true },
        codeActionProvider: { codeActionKinds: ['quickfix', FIX_ALL] },
        hoverProvider: true,
        completionProvider: { triggerCharacters: [':', ' '] },
        ...(this.can.pull ? { diagnosticProvider: { identifier: 'docgate', interFileDependencies: true, workspaceDiagnostics: true } } : {}),
      },
      serverInfo: { name: 'docgate', version: VERSION },
    };
  }

  /**
   * A request answered by `f`: after `shutdown` an InvalidRequest error, as the protocol asks; a
   * failure inside is logged and answered with `none` (the server keeps serving).
   */
  private answer<T>(none: T, f: () => T): T {
    if (this.shutDown) throw new ResponseError(ErrorCodes.InvalidRequest, 'docgate lsp: the server is shut down');
    try {
      return f();
    } catch (e) {
      this.connection.console.error(`docgate: internal error: ${e instanceof Error ? (e.stack ?? e.message) : String(e)}`);
      return none;
    }
  }

  /** A document of the project open in the editor, with the project it is of; null when it is none. */
  private at(uri: string) {
    this.fresh();
    const ws = this.workspace;
    const doc = this.documents.get(uri);
    const path = ws?.paths.pathOf(uri) ?? null;
    if (ws === null || doc === undefined || path === null) return null;
    const project = ws.project();
    const ref = project === null ? null : ws.refOf(project, path);
    return project === null || ref === null ? null : { project, ref, doc, path };
  }

  private changed(doc: TextDocument): void {
    if (this.shutDown || this.workspace === null) return;
    if (this.workspace.set(doc.uri, doc.getText(), doc.version)) {
      const path = this.workspace.paths.pathOf(doc.uri);
      if (path !== null) this.edited.add(path);
    }
    this.touch();
  }

  /** Something changed: lint once the messages already queued are read (a burst of edits is one run). */
  private touch(): void {
    if (this.workspace !== null) this.workspace.dirty = true;
    if (this.scheduled || this.shutDown) return;
    this.scheduled = true;
    setImmediate(() => {
      this.scheduled = false;
      this.fresh();
    });
  }

  /**
   * A file changed on disk (a watcher saw it): lint a little later, so that a burst of writes (a
   * checkout, a formatter over the tree) is one run, not one per file.
   */
  private touchLater(): void {
    if (this.later !== undefined || this.shutDown) return;
    this.later = setTimeout(() => {
      this.later = undefined;
      this.touch();
    }, DISK_SETTLE_MS);
    this.later.unref();
  }

  /** Lints what changed, if anything did, and tells the client. */
  private fresh(): void {
    const ws = this.workspace;
    if (ws === null || !ws.dirty || this.shutDown) return;
    let r: ReturnType<Workspace['refresh']>;
    try {
      r = ws.refresh();
    } catch (e) {
      this.connection.console.error(`docgate: internal error: ${e instanceof Error ? (e.stack ?? e.message) : String(e)}`);
      return;
    } finally {
      this.collections.afterRun();
    }
    const edited = [...this.edited];
    this.edited.clear();
    if (r.config) this.publishConfig(ws);
    if (this.can.pull) {
      // The client pulls the documents it changed; the others (and all after a configuration change) it is asked to pull again.
      if (this.can.refresh && (r.project || r.paths.some((p) => !edited.includes(p)))) void this.connection.languages.diagnostics.refresh();
      return;
    }
    // A buffer the client changed gets its diagnostics again, for its new version, even when they are the same.
    const publish = new Set([...r.paths, ...edited.filter((p) => ws.bufferAt(p) !== undefined && ws.shown().includes(p))]);
    for (const path of publish) {
      const b = ws.bufferAt(path);
      void this.connection.sendDiagnostics({
        uri: b?.uri ?? ws.paths.uriOf(path),
        ...(b ? { version: b.version } : {}),
        diagnostics: this.diagnosticsOf(path),
      });
    }
  }

  /** The configuration's problems on the files they name (and none any more on those fixed). */
  private publishConfig(ws: Workspace): void {
    const byUri = new Map<string, LspDiagnostic[]>();
    for (const p of ws.problems) {
      const uri = ws.paths.uriOf(p.file ?? 'docgate.config.yaml');
      byUri.set(uri, [...(byUri.get(uri) ?? []), p.diagnostic]);
    }
    for (const uri of this.configUris) if (!byUri.has(uri)) void this.connection.sendDiagnostics({ uri, diagnostics: [] });
    for (const [uri, diagnostics] of byUri) void this.connection.sendDiagnostics({ uri, diagnostics });
    this.configUris = new Set(byUri.keys());
  }

  /** lint's findings of a path as the editor's diagnostics (ranges end at the end of their line in an open buffer). */
  private diagnosticsOf(path: string): LspDiagnostic[] {
    const ws = this.workspace!;
    const b = ws.bufferAt(path);
    const doc = b ? this.documents.get(b.uri) : undefined;
    const lineLength = (line: number): number => (doc ? lineText(doc, line).length : 0);
    return ws.findings(path).map((d) => toLsp(d, lineLength));
  }
}

/** Serves the language server protocol on stdin and stdout until the client says `exit`. */
export function serveLsp(options: LspOptions): void {
  const connection = createConnection(ProposedFeatures.all, new StreamMessageReader(process.stdin), new StreamMessageWriter(process.stdout));
  new Server(connection, options).listen();
}
