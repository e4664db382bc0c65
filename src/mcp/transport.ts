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
 * Batches (JSON arrays) are answered with one `-32600` per request in them. When stdin ends, the
 * session closes only after every request received has been answered.
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
  /** Stdin has ended: close once nothing is left to answer. */
  private ending = false;
  /** Requests handed to the server and not answered yet, by id (as JSON; a careless client may repeat one). */
  private readonly unanswered = new Map<string, number>();
  /** Of those, the ones the client cancelled: the SDK drops their answers, so they are not waited for. */
  private readonly cancelled = new Set<string>();
  /** Senders waiting for stdout to drain (one `drain` listener serves them all). */
  private drainWaiters: (() => void)[] = [];

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
  private readonly onEnd = () => {
    this.ending = true;
    this.closeWhenAnswered();
  };

  private closeWhenAnswered(): void {
    if (!this.ending) return;
    for (const key of this.unanswered.keys()) if (!this.cancelled.has(key)) return;
    void this.close();
  }

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
    if (Array.isArray(data)) {
      this.refuseBatch(data);
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
    const message = parsed.data;
    if ('method' in message) {
      if ('id' in message) this.count(message.id, 1);
      else if (message.method === 'notifications/cancelled') {
        const id = (message.params as { requestId?: unknown } | undefined)?.requestId;
        if (id !== undefined && this.unanswered.has(JSON.stringify(id))) this.cancelled.add(JSON.stringify(id));
      }
    }
    this.onmessage?.(message);
  }

  /**
   * A batch (JSON-RPC 2.0 §6) is not supported: one array of `-32600` errors, one for each element that
   * is a request or not a message at all (id null when it has none); notifications and responses get
   * none, and when nothing is left nothing is sent. An empty array is one `-32600` error.
   */
  private refuseBatch(batch: unknown[]): void {
    if (batch.length === 0) {
      this.reply(null, ErrorCode.InvalidRequest, 'Invalid Request: an empty batch');
      return;
    }
    const errors = batch.filter(answered).map((element) => ({
      jsonrpc: '2.0',
      id: batchId(element),
      error: { code: ErrorCode.InvalidRequest, message: 'Invalid Request: batch requests are not supported; send one JSON-RPC message per line' },
    }));
    if (errors.length > 0) void this.write(`${JSON.stringify(errors)}\n`);
  }

  private count(id: unknown, delta: 1 | -1): void {
    const key = JSON.stringify(id);
    const n = (this.unanswered.get(key) ?? 0) + delta;
    if (n > 0) this.unanswered.set(key, n);
    else {
      this.unanswered.delete(key);
      this.cancelled.delete(key);
    }
  }

  private reply(id: Id, code: number, message: string): void {
    void this.write(`${JSON.stringify({ jsonrpc: '2.0', id, error: { code, message } })}\n`);
  }

  async send(message: JSONRPCMessage): Promise<void> {
    const answers = !('method' in message) && 'id' in message && this.unanswered.has(JSON.stringify(message.id));
    const written = this.write(`${JSON.stringify(message)}\n`);
    if (answers) {
      this.count(message.id, -1);
      this.closeWhenAnswered();
    }
    await written;
  }

  /**
   * Writes one line; resolves once the stream takes more. Back-pressure is waited for with one `drain`
   * listener for all waiting writers (one per message piled up listeners: MaxListenersExceededWarning).
   */
  private write(line: string): Promise<void> {
    return new Promise((resolve) => {
      if (this.closed || this.output.write(line)) return resolve();
      this.drainWaiters.push(resolve);
      if (this.drainWaiters.length === 1) {
        this.output.once('drain', () => {
          for (const w of this.drainWaiters.splice(0)) w();
        });
      }
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

/** A batch element that would get an answer: anything but a notification (a method, no id) or a response. */
function answered(element: unknown): boolean {
  if (element === null || typeof element !== 'object' || Array.isArray(element)) return true;
  const o = element as Record<string, unknown>;
  if (typeof o.method === 'string') return 'id' in o;
  return !('id' in o && ('result' in o || 'error' in o));
}

/** The id to answer a batch element with: its own when it is a string or a number, else null. */
function batchId(element: unknown): Id {
  if (element === null || typeof element !== 'object') return null;
  const id = (element as Record<string, unknown>).id;
  return typeof id === 'string' || typeof id === 'number' ? id : null;
}

/** The id of something that looks like a request (an object with an `id` and a `method` key), if any. */
function idOf(data: unknown): Id | undefined {
  if (data === null || typeof data !== 'object' || Array.isArray(data)) return undefined;
  const o = data as Record<string, unknown>;
  if (!('id' in o) || !('method' in o)) return undefined;
  return typeof o.id === 'string' || typeof o.id === 'number' ? o.id : null;
}
