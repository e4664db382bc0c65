import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { compileArguments } from './arguments.js';
import type { ArgumentCheck } from './arguments.js';
import { ToolError } from './tool.js';
import type { ToolContext, ToolDefinition } from './tool.js';

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

  /** Runs one tool call; never throws. */
  async call(name: string, args: unknown): Promise<ToolAnswer> {
    const tool = this.tools.get(name);
    if (!tool) return { result: errorResult(`Unknown tool '${name}'. Available tools: ${[...this.tools.keys()].join(', ')}.`) };
    const problem = this.checkOf(tool)(args ?? {});
    if (problem !== null) return { result: errorResult(problem) };
    try {
      // Change events already queued by the kernel reach the repository's watchers first (never stale).
      await this.ctx.repo.settle();
      // A kind with many documents to analyze (cold, or after a checkout) is analyzed on worker threads, as lint does.
      const out = await tool.handler((args ?? {}) as Record<string, unknown>, this.ctx);
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
