import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import { ErrorCode, JSONRPCMessageSchema } from '@modelcontextprotocol/sdk/types.js';
import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';

/** Longest line (one JSON-RPC message) accepted; a longer one is answered with an error and skipped. */
export const MAX_MESSAGE_BYTES = 16 * 1024 * 1024;

type Id = string | number | null;

/**
 * Newline-delimited JSON-RPC over stdio that answers everything it cannot deliver. The SDK's own stdio
 * transport reports a malformed line only to `onerror` (the client waits forever) and closes the session
 * when a message outgrows its buffer; this one answers such lines with JSON-RPC errors (`-32700` parse
 * error, `-32600` invalid request, with the request's id when it can be read) and keeps serving.
 */
export class StdioLineTransport implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: (message: JSONRPCMessage) => void;

  private chunks: Buffer[] = [];
  private pending = 0;
  /** True while skipping the rest of an oversized line. */
  private skipping = false;
  private closed = false;

  constructor(
    private readonly input: NodeJS.ReadableStream = process.stdin,
    private readonly output: NodeJS.WritableStream = process.stdout,
  ) {}

  async start(): Promise<void> {
    this.input.on('data', this.onData);
    this.input.on('error', this.onInputError);
    this.input.on('end', this.onEnd);
  }

  private readonly onInputError = (e: Error) => this.onerror?.(e);
  private readonly onEnd = () => void this.close();

  private readonly onData = (chunk: Buffer | string) => {
    let buf = typeof chunk === 'string' ? Buffer.from(chunk, 'utf8') : chunk;
    for (let nl = buf.indexOf(10); nl !== -1; nl = buf.indexOf(10)) {
      const head = buf.subarray(0, nl);
      buf = buf.subarray(nl + 1);
      if (this.skipping) {
        this.skipping = false;
        this.chunks = [];
        this.pending = 0;
        continue;
      }
      const line = this.pending === 0 ? head : Buffer.concat([...this.chunks, head]);
      this.chunks = [];
      this.pending = 0;
      this.handleLine(line.toString('utf8').replace(/\r$/, ''));
    }
    if (buf.length === 0 || this.skipping) return;
    this.chunks.push(buf);
    this.pending += buf.length;
    if (this.pending > MAX_MESSAGE_BYTES) {
      this.skipping = true;
      this.chunks = [];
      this.pending = 0;
      this.reply(null, ErrorCode.InvalidRequest, `Message larger than ${MAX_MESSAGE_BYTES} bytes; skipped`);
    }
  };

  private handleLine(line: string): void {
    if (line.trim() === '') return;
    let data: unknown;
    try {
      data = JSON.parse(line);
    } catch (e) {
      this.onerror?.(new Error(`malformed JSON line: ${(e as Error).message}`));
      this.reply(null, ErrorCode.ParseError, 'Parse error: the line is not valid JSON');
      return;
    }
    const parsed = JSONRPCMessageSchema.safeParse(data);
    if (!parsed.success) {
      this.onerror?.(new Error('invalid JSON-RPC message'));
      // Answer a request we can identify; a malformed notification or response gets no reply.
      const id = idOf(data);
      if (id !== undefined) this.reply(id, ErrorCode.InvalidRequest, 'Invalid Request: not a JSON-RPC 2.0 message');
      return;
    }
    this.onmessage?.(parsed.data);
  }

  private reply(id: Id, code: number, message: string): void {
    void this.send({ jsonrpc: '2.0', id, error: { code, message } } as unknown as JSONRPCMessage);
  }

  send(message: JSONRPCMessage): Promise<void> {
    return new Promise((resolve) => {
      if (this.closed) return resolve();
      if (this.output.write(`${JSON.stringify(message)}\n`)) resolve();
      else this.output.once('drain', () => resolve());
    });
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    this.input.off('data', this.onData);
    this.input.off('error', this.onInputError);
    this.input.off('end', this.onEnd);
    this.onclose?.();
  }
}

/** The id of something that looks like a request (an object with an `id` and a `method` key), if any. */
function idOf(data: unknown): Id | undefined {
  if (data === null || typeof data !== 'object' || Array.isArray(data)) return undefined;
  const o = data as Record<string, unknown>;
  if (!('id' in o) || !('method' in o)) return undefined;
  return typeof o.id === 'string' || typeof o.id === 'number' ? o.id : null;
}
