/**
 * `docgate mcp` (docs/mcp-tools.md): the MCP server on stdio. A thin adapter: every tool lives in `tools/`,
 * answers from the core's live `Repository`, and never parses or renders errors itself.
 * This thread speaks the protocol only; tool calls run on worker threads (workers.ts), so a long one
 * never keeps another request waiting. Stdout carries nothing but protocol; logs go to stderr.
 */
import { writeSync } from 'node:fs';
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { StdioLineTransport } from './transport.js';
import {
  CallToolRequestSchema,
  ErrorCode,
  GetPromptRequestSchema,
  InitializeRequestSchema,
  ListPromptsRequestSchema,
  ListResourcesRequestSchema,
  ListToolsRequestSchema,
  McpError,
  PingRequestSchema,
  ReadResourceRequestSchema,
} from '@modelcontextprotocol/sdk/types.js';
import { VERSION } from '../io/version.js';
import { answerInvalidParams } from './params.js';
import { refuseBeforeInitialize } from './lifecycle.js';
import { listSchemaResources, readSchemaResource } from './resources.js';
import { listRuleResources, readRuleResource } from './rule-resources.js';
import { REPAIR_PROMPT } from './repair-prompt.js';
import type { Project } from '../project/project.js';
import { errorResult } from './run-tool.js';
import { loadProject } from '../project/project.js';
import { loadConfig } from '../project/config.js';
import type { ProjectOptions } from '../project/project.js';
import { BUILTIN_KINDS } from '../kinds/index.js';
import { toolsServed } from './tools/index.js';
import { ToolWorkers } from './workers.js';
import { Collections } from '../lint/collections.js';
import type { StartedThread } from './tool-thread-start.js';

const debug = process.env.DOCGATE_MCP_DEBUG === '1';

function log(message: string): void {
  process.stderr.write(`docgate mcp: ${message}\n`);
}

/**
 * A line written straight to fd 2: the debug brackets around calls (as the tool threads' own debug lines
 * are: a full stderr pipe queues `process.stderr` writes, which then land after lines the threads wrote
 * later) and the lines about uncaught failures. A full non-blocking stderr (EAGAIN) queues the line after
 * all; a stderr that is gone (EPIPE) drops it, since its 'error' is ignored (serveStdio) — a logger that
 * failed again would be called for its own failure forever (a server spinning at 100 % CPU after its
 * client died).
 */
function mark(message: string): void {
  try {
    writeSync(2, `docgate mcp: ${message}\n`);
  } catch {
    log(message);
  }
}

/** What the server tells a client it is for (the `initialize` answer's instructions). */
function instructionsFor(writes: boolean): string {
  return [
    'docgate serves the documentation content of one repository: POWER templates, framework docs, processes and System Requirements Specifications, and every kind its configuration or presets declare (Agent Skills, agents, prompts, rules: list_documents and get_document).',
    "A document that fails to parse is answered with its ParseFailureResult (a normal result, with the file's text as content in get tools), never with a tool error; use validate to lint the repository, check_content to check text before writing it, the prompt repair to fix a document, and the resources docgate://rules/<id> for what each rule wants.",
    writes
      ? 'create_document, update_document and edit_document write a document only when its new text passes every rule (or, for a document that already fails, adds no error).'
      : 'The server writes nothing: write a checked text with your own file tool.',
  ].join(' ');
}

/** The server for one root, not yet connected; its tool threads live as long as it does. */
export function createServer(root: string, workers: ToolWorkers, options: ProjectOptions = {}, serving: ServeOptions = {}): Server {
  const listed = toolsServed(serving.allowWrites === true);
  const tools = new Map(listed.map((tool) => [tool.name, tool]));
  const server = new Server(
    { name: 'docgate', version: VERSION },
    {
      capabilities: { tools: {}, resources: {}, prompts: {} },
      instructions: instructionsFor(serving.allowWrites === true),
    },
  );

  server.setRequestHandler(ListToolsRequestSchema, () => ({
    tools: listed.map((t) => ({
      name: t.name,
      title: t.title,
      description: t.description,
      inputSchema: t.inputSchema,
      ...(t.outputSchema ? { outputSchema: t.outputSchema } : {}),
      annotations: { title: t.title, ...(t.annotations ?? { readOnlyHint: true, destructiveHint: false, idempotentHint: true }), openWorldHint: false },
    })),
  }));

  // The main thread collects as the language server does, and at once when a tool thread has loaded
  // another project (src/lint/collections.ts): it only speaks the protocol, but its garbage would stay.
  const collections = new Collections();
  workers.onProjectChange = () => {
    collections.now();
    if (debug) mark('the project changed: the main thread collected its garbage');
  };

  let calls = 0;
  server.setRequestHandler(CallToolRequestSchema, async (request) => {
    const { name, arguments: args } = request.params;
    const n = ++calls;
    // DOCGATE_MCP_DEBUG=1 brackets each call on stderr, e.g. to attribute file accesses to calls.
    if (debug) mark(`call #${n} ${name} begin`);
    const tool = tools.get(name);
    const answer = tool
      ? await workers.run(tool.pure ? 'pure' : 'repository', name, args)
      : { result: errorResult(`Unknown tool '${name}'. Available tools: ${[...tools.keys()].join(', ')}.`) };
    if (answer.log !== undefined) log(answer.log);
    if (debug) mark(`call #${n} ${name} end`);
    collections.afterRun();
    return answer.result;
  });

  // The project as it is now (configuration and rule files read again), for rule resources and prompts.
  const project = (): Project => loadProject(root, options);

  // The rule folder lint reads (the configuration's `schemas`); null when the configuration does not load.
  const ruleFolder = (): string | null => {
    try {
      return loadConfig(root, { ...options, builtinKinds: BUILTIN_KINDS.map((k) => k.name) }).schemas;
    } catch {
      return null;
    }
  };

  server.setRequestHandler(ListResourcesRequestSchema, () => {
    let rules: ReturnType<typeof listRuleResources> = [];
    try {
      rules = listRuleResources(project());
    } catch {
      // A configuration that does not load: its rules cannot be named; the tools answer the error.
    }
    const resources = [...listSchemaResources(root, ruleFolder()), ...rules];
    collections.afterRun();
    return { resources };
  });

  server.setRequestHandler(ReadResourceRequestSchema, (request) => {
    const { uri } = request.params;
    let text: string | null;
    try {
      text = readSchemaResource(root, uri, ruleFolder()) ?? readRuleResource(project(), uri);
    } catch (e) {
      throw new McpError(ErrorCode.InternalError, `cannot read ${uri}: ${(e as Error).message}`);
    } finally {
      collections.afterRun();
    }
    if (text === null) {
      throw new McpError(
        ErrorCode.InvalidParams,
        `Unknown resource ${uri}: expected docgate://schemas/<file>.json or docgate://rules/<rule id>, see resources/list`,
        { uri },
      );
    }
    return { contents: [{ uri, mimeType: 'application/json', text }] };
  });

  server.setRequestHandler(ListPromptsRequestSchema, () => ({ prompts: [REPAIR_PROMPT] }));

  server.setRequestHandler(GetPromptRequestSchema, async (request) => {
    const { name, arguments: args } = request.params;
    if (name !== REPAIR_PROMPT.name) throw new McpError(ErrorCode.InvalidParams, `Unknown prompt '${name}': expected repair, see prompts/list`);
    const path = args?.['path'];
    if (typeof path !== 'string' || path === '')
      throw new McpError(ErrorCode.InvalidParams, 'The prompt repair needs the argument path (root-relative, e.g. processes/deploy.md)');
    // Made on the repository thread, where the documents are known already (its lint reuses them).
    const answer = await workers.repairPrompt(path);
    collections.afterRun();
    if ('error' in answer) throw new McpError(answer.invalid ? ErrorCode.InvalidParams : ErrorCode.InternalError, answer.error);
    return { description: `Repair ${path}`, messages: [{ role: 'user', content: { type: 'text', text: answer.text } }] };
  });

  server.onerror = (e) => log(`protocol error: ${e.message}`);
  return server;
}

/** How `docgate mcp` serves: `--allow-writes` lists and runs the write tools (docs/mcp.md, "Validated writes"). */
export interface ServeOptions {
  allowWrites?: boolean;
}

/** Every request the server answers, with the schema its params must pass (else -32602, params.ts). */
const REQUESTS = [
  InitializeRequestSchema,
  PingRequestSchema,
  ListToolsRequestSchema,
  CallToolRequestSchema,
  ListResourcesRequestSchema,
  ReadResourceRequestSchema,
  ListPromptsRequestSchema,
  GetPromptRequestSchema,
];

/**
 * `docgate mcp [--root DIR] [--config FILE] [--suppressions-location FILE] [--allow-writes]`: serves until stdin closes,
 * then answers every request already received, stops its tool threads and exits once stdout is written.
 * The project options reach every tool thread: each tool sees the configuration and baseline lint sees.
 */
export async function serveStdio(root: string, options: ProjectOptions = {}, repository?: StartedThread, serving: ServeOptions = {}): Promise<void> {
  // Stdout belongs to the protocol: anything printed by mistake goes to stderr instead.
  console.log = console.error;
  console.info = console.error;
  console.debug = console.error;
  process.on('uncaughtException', (e) => mark(`uncaught exception: ${e.stack ?? e.message}`));
  process.on('unhandledRejection', (e) => mark(`unhandled rejection: ${e instanceof Error ? (e.stack ?? e.message) : String(e)}`));
  // Logging is best effort: a stderr that fails (its reader gone) is left alone.
  process.stderr.on('error', () => {});
  // A stdout that fails (EPIPE: the client is gone) can carry no answer any more: the session is over.
  process.stdout.on('error', () => process.exit(0));
  const workers = new ToolWorkers(root, options, repository, undefined, serving.allowWrites === true);
  // The repository thread (started ahead by `docgate mcp`, or now) boots while the protocol is set up and the
  // client initializes; it loads the project on its first call.
  workers.start();
  const server = createServer(root, workers, options, serving);
  server.onclose = () => void workers.close();
  const transport = new StdioLineTransport();
  await server.connect(transport);
  answerInvalidParams(transport, REQUESTS);
  refuseBeforeInitialize(transport);
  log(`serving ${root} on stdio (docgate ${VERSION})`);
}
