import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import { ErrorCode } from '@modelcontextprotocol/sdk/types.js';
import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';

/** What a client may ask before `initialize` (the MCP lifecycle): the handshake itself, and pings. */
const BEFORE_INITIALIZE: ReadonlySet<string> = new Set(['initialize', 'ping']);

/**
 * Answers every request that comes before `initialize` with `-32600` (invalid request), as the MCP
 * lifecycle wants: nothing is served (no tool run, no resource read) to a client that has not said which
 * protocol it speaks. Notifications before it are dropped. Call after the server is connected.
 */
export function refuseBeforeInitialize(transport: Transport): void {
  const deliver = transport.onmessage;
  let initialized = false;
  transport.onmessage = (message, extra) => {
    if (!initialized && 'method' in message) {
      if (message.method === 'initialize') initialized = true;
      else if (!BEFORE_INITIALIZE.has(message.method)) {
        if ('id' in message) {
          const reply = {
            jsonrpc: '2.0',
            id: message.id,
            error: { code: ErrorCode.InvalidRequest, message: `Invalid request: ${message.method} before initialize; send initialize first` },
          };
          void transport.send(reply as JSONRPCMessage);
        }
        return;
      }
    }
    deliver?.(message, extra);
  };
}
