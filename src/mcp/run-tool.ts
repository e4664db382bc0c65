import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { compileArguments } from './arguments.js';
import type { ArgumentCheck } from './arguments.js';
import { ToolError } from './tool.js';
import type { ToolContext, ToolDefinition, ToolOutput } from './tool.js';
import { NeedsLoad } from '../lint/repository.js';

/** Loads on worker threads per call, at most (see ToolRunner.run). */
const MAX_LOADS = 3;

export function errorResult(message: string): CallToolResult {
  return { content: [{ type: 'text', text: message }], isError: true };
}

/** A tool call's answer, and what went wrong unexpectedly (for the server's log on stderr). */
export interface ToolAnswer {
  result: CallToolResult;
  log?: string;
}

/**
 * Runs the calls of some tools in one context (a tool worker's). Each input schema is compiled on the
 * tool's first call: a worker that only parses SysRS text compiles one.
 */
export class ToolRunner {
  private readonly checks = new Map<string, ArgumentCheck>();

  constructor(
    private readonly tools: ReadonlyMap<string, ToolDefinition>,
    private readonly ctx: ToolContext,
  ) {}

  private checkOf(tool: ToolDefinition): ArgumentCheck {
    let check = this.checks.get(tool.name);
    if (!check) {
      check = compileArguments(tool.name, tool.inputSchema);
      this.checks.set(tool.name, check);
    }
    return check;
  }

  /**
   * Runs a handler. A kind with many documents to analyze (cold, or after a checkout) is not analyzed in
   * the handler: `entries()` stops it (NeedsLoad) after its argument checks, the kind is analyzed on
   * worker threads as lint does (docs/performance.md, "How a large run works"), and the handler runs again, now finding every document.
   */
  private async run(tool: ToolDefinition, args: Record<string, unknown>): Promise<ToolOutput> {
    // Loads per kind: a handler may need several kinds (validate of the whole root needs every one).
    const loads = new Map<string, number>();
    for (;;) {
      try {
        return tool.handler(args, this.ctx);
      } catch (e) {
        if (!(e instanceof NeedsLoad)) throw e;
        // Each load makes the kind (under the project of its start); only a configuration that keeps
        // changing while the workers run needs another, and after a few the call gives up.
        const n = loads.get(e.kind) ?? 0;
        loads.set(e.kind, n + 1);
        if (n >= MAX_LOADS) {
          this.ctx.repo.abandon(e.kind);
          throw new ToolError(`the configuration kept changing while the ${e.kind} documents were analyzed; call again`);
        }
        await this.ctx.repo.load(e.kind);
      }
    }
  }

  /** Runs one tool call; never throws. */
  async call(name: string, args: unknown): Promise<ToolAnswer> {
    const tool = this.tools.get(name);
    if (!tool) return { result: errorResult(`Unknown tool '${name}'. Available tools: ${[...this.tools.keys()].join(', ')}.`) };
    const problem = this.checkOf(tool)(args ?? {});
    if (problem !== null) return { result: errorResult(problem) };
    try {
      // Change events already queued by the kernel reach the repository's watchers first (never stale).
      await this.ctx.repo.settle();
      const out = await this.run(tool, (args ?? {}) as Record<string, unknown>);
      const result: CallToolResult = { content: [{ type: 'text', text: out.text }] };
      if (tool.outputSchema && out.structured) result.structuredContent = out.structured;
      return { result };
    } catch (e) {
      if (e instanceof ToolError) return { result: errorResult(e.message) };
      return {
        result: errorResult(`${name} could not run: ${e instanceof Error ? e.message : String(e)}`),
        log: `${name} failed: ${e instanceof Error ? (e.stack ?? e.message) : String(e)}`,
      };
    }
  }
}
