import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import { ErrorCode } from '@modelcontextprotocol/sdk/types.js';
import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';

interface Issue {
  code: string;
  path: PropertyKey[];
  message: string;
  expected?: string;
}

/** An SDK request schema (zod): its method literal and its check. */
export interface RequestSchema {
  shape: { method: { value: string } };
  safeParse(data: unknown): { success: boolean; error?: { issues: readonly Issue[] } };
}

const EXPECTED: Readonly<Record<string, string>> = {
  object: 'an object',
  record: 'an object',
  array: 'an array',
  string: 'a string',
  number: 'a number',
  int: 'an integer',
  boolean: 'a boolean',
};

function kindOf(value: unknown): string {
  return value === null ? 'null' : Array.isArray(value) ? 'array' : typeof value;
}

/** One schema problem as a short sentence, e.g. `unexpected string at params.arguments, expected an object`. */
function describe(request: unknown, issue: Issue): string {
  const where = issue.path.map(String).join('.');
  if (issue.code === 'invalid_type' && issue.expected !== undefined) {
    let value: unknown = request;
    for (const key of issue.path) value = value !== null && typeof value === 'object' ? (value as Record<PropertyKey, unknown>)[key] : undefined;
    const want = EXPECTED[issue.expected] ?? `a ${issue.expected}`;
    return value === undefined ? `missing ${where}, expected ${want}` : `unexpected ${kindOf(value)} at ${where}, expected ${want}`;
  }
  return `${where === '' ? 'params' : where}: ${issue.message}`;
}

/**
 * Answers a request whose params fail the SDK's schema for its method with `-32602` (invalid params) and
 * a short message, before the SDK sees it: the SDK answers those with `-32603` (internal error) and the
 * validator's whole issue list as JSON. Call after the server is connected to the transport.
 */
export function answerInvalidParams(transport: Transport, schemas: readonly RequestSchema[]): void {
  const byMethod = new Map(schemas.map((s) => [s.shape.method.value, s]));
  const deliver = transport.onmessage;
  transport.onmessage = (message, extra) => {
    if ('method' in message && 'id' in message) {
      const check = byMethod.get(message.method)?.safeParse(message);
      if (check && !check.success) {
        const problems = [...new Set((check.error?.issues ?? []).map((issue) => describe(message, issue)))];
        const reply = {
          jsonrpc: '2.0',
          id: message.id,
          error: { code: ErrorCode.InvalidParams, message: `Invalid params for ${message.method}: ${problems.slice(0, 3).join('; ')}` },
        };
        void transport.send(reply as JSONRPCMessage);
        return;
      }
    }
    deliver?.(message, extra);
  };
}
