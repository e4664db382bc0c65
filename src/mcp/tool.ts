import type { Repository } from '../lint/repository.js';
import type { Project } from '../project/project.js';

/** A JSON Schema as the MCP `tools/list` answer carries it (input and output schemas are objects). */
export interface ObjectSchema {
  type: 'object';
  properties?: Record<string, unknown>;
  required?: readonly string[];
  additionalProperties?: boolean;
  [k: string]: unknown;
}

/** What a tool handler works with: the root, the server's one live repository, the root's rule set. */
export interface ToolContext {
  root: string;
  repo: Repository;
  /** The root's project as it is now (configuration and rule files are read again: changes are seen). */
  project(): Project;
}

/** A tool's answer: the text item and, for tools with an output schema, the structured content. */
export interface ToolOutput {
  text: string;
  structured?: Record<string, unknown>;
}

/**
 * An invalid argument (bad shape, bad combination) or a tool that cannot run: becomes an `isError`
 * result carrying `message`, without `structuredContent`.
 */
export class ToolError extends Error {}

export interface ToolDefinition<A = Record<string, unknown>> {
  name: string;
  title: string;
  description: string;
  inputSchema: ObjectSchema;
  /** The output schema (the same for every root: a ParseFailureResult's `kind` accepts any kind's name). */
  outputSchema?: ObjectSchema;
  /**
   * Needs neither the repository nor any content file (its arguments in, its answer out): runs on one
   * of the server's pure tool threads, beside the repository thread (src/mcp/workers.ts).
   */
  pure?: true;
  /**
   * What the tool does to the repository, as `tools/list` annotates it; absent for a tool that only reads
   * (readOnlyHint true). The write tools say what they change (docs/mcp.md, "Validated writes").
   */
  annotations?: { readOnlyHint: false; destructiveHint: boolean; idempotentHint: boolean };
  /**
   * Runs the tool on arguments that already passed `inputSchema`. A handler checks the remaining
   * argument rules (id shape, combinations) first and throws `ToolError` before touching any file.
   */
  handler(args: A, ctx: ToolContext): ToolOutput | Promise<ToolOutput>;
}

/** Structured content with its pretty JSON as the text item. */
export function jsonOutput(structured: Record<string, unknown>): ToolOutput {
  return { text: JSON.stringify(structured, null, 2), structured };
}

/** `{ result }` as structured content; the text is the given text, else the result's pretty JSON. */
export function resultOutput(result: unknown, text?: string): ToolOutput {
  return { text: text ?? JSON.stringify(result, null, 2), structured: { result } };
}

/** Erases a definition's argument type so that the index can hold every tool in one list. */
export function defineTool<A>(def: ToolDefinition<A>): ToolDefinition {
  return def as unknown as ToolDefinition;
}
