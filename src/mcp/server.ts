/**
 * `docgate mcp` (SPEC §4.4): the MCP server on stdio. A thin adapter: every tool lives in `tools/`,
 * answers from the core's live `Repository`, and never parses or renders errors itself.
 * Stdout carries nothing but protocol; logs go to stderr.
 */
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { StdioLineTransport } from './transport.js';
import {
  CallToolRequestSchema,
  ErrorCode,
  ListResourcesRequestSchema,
  ListToolsRequestSchema,
  McpError,
  ReadResourceRequestSchema,
} from '@modelcontextprotocol/sdk/types.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { Repository } from '../core/repository.js';
import { loadRuleSet } from '../core/schemas.js';
import { VERSION } from '../core/version.js';
import { compileArguments } from './arguments.js';
import type { ArgumentCheck } from './arguments.js';
import { listSchemaResources, readSchemaResource } from './resources.js';
import { ToolError } from './tool.js';
import type { ToolContext, ToolDefinition } from './tool.js';
import { TOOLS } from './tools/index.js';

const debug = process.env.DOCGATE_MCP_DEBUG === '1';

function log(message: string): void {
  process.stderr.write(`docgate mcp: ${message}\n`);
}

function errorResult(message: string): CallToolResult {
  return { content: [{ type: 'text', text: message }], isError: true };
}

interface Registered {
  tool: ToolDefinition;
  check: ArgumentCheck;
}

/** Runs one tool call; never throws. */
export async function callTool(registry: ReadonlyMap<string, Registered>, ctx: ToolContext, name: string, args: unknown): Promise<CallToolResult> {
  const entry = registry.get(name);
  if (!entry) return errorResult(`Unknown tool '${name}'. Available tools: ${[...registry.keys()].join(', ')}.`);
  const problem = entry.check(args ?? {});
  if (problem !== null) return errorResult(problem);
  try {
    // Change events already queued by the kernel reach the repository's watchers first (never stale).
    await ctx.repo.settle();
    const out = entry.tool.handler((args ?? {}) as Record<string, unknown>, ctx);
    const result: CallToolResult = { content: [{ type: 'text', text: out.text }] };
    if (entry.tool.outputSchema && out.structured) result.structuredContent = out.structured;
    return result;
  } catch (e) {
    if (e instanceof ToolError) return errorResult(e.message);
    log(`${name} failed: ${e instanceof Error ? (e.stack ?? e.message) : String(e)}`);
    return errorResult(`${name} could not run: ${e instanceof Error ? e.message : String(e)}`);
  }
}

/** The server for one root, not yet connected; one `Repository` lives as long as the server. */
export function createServer(root: string): Server {
  const ctx: ToolContext = { root, repo: new Repository(root, { watch: true }), rules: () => loadRuleSet(root) };
  const registry = new Map<string, Registered>(TOOLS.map((tool) => [tool.name, { tool, check: compileArguments(tool.name, tool.inputSchema) }]));
  const server = new Server(
    { name: 'docgate', version: VERSION },
    {
      capabilities: { tools: {}, resources: {} },
      instructions:
        'docgate serves the documentation content of one repository: POWER templates, framework docs, processes and System Requirements Specifications. A document that fails to parse is answered with its ParseFailureResult (a normal result), never with a tool error; use validate to lint the repository.',
    },
  );

  server.setRequestHandler(ListToolsRequestSchema, () => ({
    tools: TOOLS.map((t) => ({
      name: t.name,
      title: t.title,
      description: t.description,
      inputSchema: t.inputSchema,
      ...(t.outputSchema ? { outputSchema: t.outputSchema } : {}),
      annotations: { title: t.title, readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
    })),
  }));

  let calls = 0;
  server.setRequestHandler(CallToolRequestSchema, async (request) => {
    const { name, arguments: args } = request.params;
    const n = ++calls;
    // DOCGATE_MCP_DEBUG=1 brackets each call on stderr, e.g. to attribute file accesses to calls.
    if (debug) log(`call #${n} ${name} begin`);
    const result = await callTool(registry, ctx, name, args);
    if (debug) log(`call #${n} ${name} end`);
    return result;
  });

  server.setRequestHandler(ListResourcesRequestSchema, () => ({ resources: listSchemaResources(root) }));

  server.setRequestHandler(ReadResourceRequestSchema, (request) => {
    const { uri } = request.params;
    let text: string | null;
    try {
      text = readSchemaResource(root, uri);
    } catch (e) {
      throw new McpError(ErrorCode.InternalError, `cannot read ${uri}: ${(e as Error).message}`);
    }
    if (text === null) {
      throw new McpError(ErrorCode.InvalidParams, `Unknown resource ${uri}: expected docgate://schemas/<file>.json, see resources/list`, { uri });
    }
    return { contents: [{ uri, mimeType: 'application/json', text }] };
  });

  server.onerror = (e) => log(`protocol error: ${e.message}`);
  return server;
}

/** `docgate mcp [--root DIR]`: serves until stdin closes. */
export async function serveStdio(root: string): Promise<void> {
  // Stdout belongs to the protocol: anything printed by mistake goes to stderr instead.
  console.log = console.error;
  console.info = console.error;
  console.debug = console.error;
  process.on('uncaughtException', (e) => log(`uncaught exception: ${e.stack ?? e.message}`));
  process.on('unhandledRejection', (e) => log(`unhandled rejection: ${e instanceof Error ? (e.stack ?? e.message) : String(e)}`));
  const server = createServer(root);
  const transport = new StdioLineTransport();
  await server.connect(transport);
  log(`serving ${root} on stdio (docgate ${VERSION})`);
}
