import { ReadBuffer } from "@modelcontextprotocol/client";
import { describe, expect, it } from "vitest";
import { createTransport } from "@/lib/discovery/node/create-transport";
import { LinearReadBuffer } from "@/lib/discovery/node/line-buffer";

const line = (message: object) => `${JSON.stringify(message)}\n`;
const ping = (id: number) => ({ jsonrpc: "2.0", id, method: "ping" });
const drain = (buffer: { readMessage(): unknown }) => {
  const out: unknown[] = [];
  for (let m = buffer.readMessage(); m !== null; m = buffer.readMessage()) out.push(m);
  return out;
};

// The stdio transport's read buffer (lib/discovery/node/line-buffer.ts) must behave as the SDK's.
describe("LinearReadBuffer", () => {
  it("reads messages split across chunks, several in one chunk, CRLF endings, and skips non-JSON lines, as the SDK's ReadBuffer does", () => {
    const wire = Buffer.from(`${line(ping(1))}not json at all\n${line(ping(2)).replace("\n", "\r\n")}${line(ping(3))}${line(ping(4)).slice(0, 10)}`);
    for (const size of [1, 3, 7, 64, wire.length]) {
      const ours = new LinearReadBuffer(1024);
      const sdk = new ReadBuffer({ maxBufferSize: 1024 });
      const got: unknown[] = [];
      const want: unknown[] = [];
      for (let i = 0; i < wire.length; i += size) {
        const chunk = wire.subarray(i, i + size);
        ours.append(chunk);
        sdk.append(chunk);
        got.push(...drain(ours));
        want.push(...drain(sdk));
      }
      expect(got).toEqual([ping(1), ping(2), ping(3)]);
      expect(got).toEqual(want);
      ours.append(Buffer.from(line(ping(4)).slice(10)));
      expect(drain(ours)).toEqual([ping(4)]);
    }
  });

  it("throws the SDK's message once a line passes the cap, and starts afresh after it", () => {
    const buffer = new LinearReadBuffer(100);
    buffer.append(Buffer.alloc(60, "x"));
    expect(() => buffer.append(Buffer.alloc(60, "x"))).toThrow("ReadBuffer exceeded maximum size of 100 bytes");
    buffer.append(Buffer.from(line(ping(5))));
    expect(drain(buffer)).toEqual([ping(5)]);
  });

  it("JSON that is not JSON-RPC throws (the transport reports it), and the next line still reads", () => {
    const buffer = new LinearReadBuffer(1024);
    buffer.append(Buffer.from(`{"hello":1}\n${line(ping(6))}`));
    expect(() => buffer.readMessage()).toThrow();
    expect(drain(buffer)).toEqual([ping(6)]);
  });

  it("reads a 16 MiB line in 64 KiB chunks in linear time", () => {
    const tools = Array.from({ length: 3000 }, (_, i) => ({ name: `t${i}`, description: "x".repeat(5500) }));
    const wire = Buffer.from(line({ jsonrpc: "2.0", id: 1, result: { tools } }));
    const buffer = new LinearReadBuffer(32 * 1024 * 1024);
    const started = performance.now();
    for (let i = 0; i < wire.length; i += 65536) buffer.append(wire.subarray(i, i + 65536));
    const [message] = drain(buffer) as Array<{ result: { tools: unknown[] } }>;
    expect(message!.result.tools).toHaveLength(3000);
    expect(performance.now() - started).toBeLessThan(5_000); // the SDK's took ~10 s on a loaded core
  });

  it("is what the stdio transport reads with (an SDK upgrade that renames the field shows up here)", () => {
    const { transport } = createTransport({ transport: "stdio", command: "true", args: [], env: {} } as never, "stdio", { maxMessageBytes: 1234 } as never);
    expect((transport as unknown as { _readBuffer: unknown })._readBuffer).toBeInstanceOf(LinearReadBuffer);
  });
});
