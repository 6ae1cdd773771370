import { deserializeMessage, type JSONRPCMessage } from "@modelcontextprotocol/client";

/**
 * The stdio transport's read buffer with the SDK ReadBuffer's contract (append throws "ReadBuffer
 * exceeded maximum size of N bytes" past the cap; readMessage returns the next JSON-RPC message,
 * skips lines that are not JSON, throws on JSON that is not JSON-RPC), in linear time. The SDK's
 * copies the whole pending line on every 64 KiB chunk (Buffer.concat) and searches it for "\n"
 * from the start each time: quadratic, so a 16 MiB answer took a loaded core ~10-20 s to read (the
 * oversized misbehaviour hit its request timeout before the size cap). This one grows its buffer
 * by doubling and only searches bytes it has not searched before.
 */
export class LinearReadBuffer {
  private buf: Buffer = Buffer.alloc(0);
  private start = 0; // first unread byte
  private end = 0; // one past the last byte appended
  private scanned = 0; // bytes before this hold no "\n"

  constructor(private readonly maxBufferSize: number) {}

  append(chunk: Buffer): void {
    const pending = this.end - this.start;
    if (pending + chunk.length > this.maxBufferSize) {
      this.clear();
      throw new Error(`ReadBuffer exceeded maximum size of ${this.maxBufferSize} bytes`);
    }
    if (pending === 0) this.start = this.end = this.scanned = 0; // everything read: reuse the buffer from its start
    if (this.end + chunk.length > this.buf.length) {
      const next = Buffer.allocUnsafe(Math.max(2 * (pending + chunk.length), 64 * 1024));
      this.buf.copy(next, 0, this.start, this.end);
      this.scanned -= this.start;
      this.start = 0;
      this.end = pending;
      this.buf = next;
    }
    chunk.copy(this.buf, this.end);
    this.end += chunk.length;
  }

  readMessage(): JSONRPCMessage | null {
    while (this.start < this.end) {
      const newline = this.buf.subarray(0, this.end).indexOf(10, Math.max(this.scanned, this.start));
      if (newline === -1) {
        this.scanned = this.end;
        return null;
      }
      const line = this.buf.toString("utf8", this.start, newline).replace(/\r$/, "");
      this.start = this.scanned = newline + 1;
      try {
        return deserializeMessage(line);
      } catch (error) {
        if (error instanceof SyntaxError) continue;
        throw error;
      }
    }
    return null;
  }

  clear(): void {
    this.buf = Buffer.alloc(0);
    this.start = this.end = this.scanned = 0;
  }
}
