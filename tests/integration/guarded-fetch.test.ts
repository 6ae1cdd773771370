import dc from "node:diagnostics_channel";
import { once } from "node:events";
import fs from "node:fs";
import http from "node:http";
import type { AddressInfo } from "node:net";
import os from "node:os";
import path from "node:path";
import zlib from "node:zlib";
import { Client, StreamableHTTPClientTransport } from "@modelcontextprotocol/client";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { createGuardedFetch, isLongLivedStream, type GuardedFetch } from "@/lib/discovery/node/guarded-fetch";
import { startHttpFixture, writeFixtureState } from "@/tests/fixtures/spawn-fixture";

// Real sockets, but only ever to 127.0.0.1: every non-loopback target below must be refused
// before a socket exists (asserted through the net.client.socket diagnostics channel).
const MIB = 1024 * 1024;
const CHUNK = Buffer.alloc(64 * 1024, 0x61);

/** Backpressure without piling up listeners: one pair per wait, both removed on either event. */
function drainedOrClosed(res: http.ServerResponse): Promise<void> {
  return new Promise((resolve) => {
    const done = () => {
      res.off("drain", done).off("close", done);
      resolve();
    };
    res.on("drain", done).on("close", done);
  });
}

async function writeBytes(res: http.ServerResponse, total: number, line?: (chunk: Buffer) => Buffer): Promise<void> {
  for (let sent = 0; sent < total && !res.destroyed; sent += CHUNK.length) {
    if (!res.write(line ? line(CHUNK) : CHUNK)) await drainedOrClosed(res);
  }
}
const sseEvent = (chunk: Buffer) => Buffer.concat([Buffer.from("data: "), chunk.subarray(0, chunk.length - 8), Buffer.from("\n\n")]);

let server: http.Server;
let base: string;
const seen: string[] = [];

beforeAll(async () => {
  server = http.createServer((req, res) => {
    res.on("error", () => undefined); // the client hanging up mid-body is part of several tests
    const url = new URL(req.url ?? "/", "http://x");
    seen.push(url.pathname);
    const bytes = Number(url.searchParams.get("n") ?? 0);
    if (url.pathname === "/hello") return void res.end("hello");
    if (url.pathname === "/redirect") return void res.writeHead(302, { location: url.searchParams.get("to")! }).end();
    if (url.pathname === "/bytes") {
      res.writeHead(200, { "content-type": "application/octet-stream", ...(url.searchParams.has("declare") ? { "content-length": bytes } : {}) });
      return void writeBytes(res, bytes).then(() => res.end());
    }
    if (url.pathname === "/gzip") {
      // A small compressed body that inflates to n bytes: its Content-Length says nothing about the inflated size.
      const packed = zlib.gzipSync(Buffer.alloc(bytes, 0x61));
      return void res.writeHead(200, { "content-type": "application/json", "content-encoding": "gzip", "content-length": packed.length }).end(packed);
    }
    if (url.pathname === "/lying-length") {
      // Declares 1,000 bytes, then keeps sending: written to the socket directly, past what HTTP allows.
      res.socket!.write("HTTP/1.1 200 OK\r\ncontent-type: application/octet-stream\r\ncontent-length: 1000\r\n\r\n");
      const chunks = Array.from({ length: Math.ceil(bytes / CHUNK.length) }, () => CHUNK);
      return void res.socket!.end(Buffer.concat(chunks));
    }
    if (url.pathname === "/stream") {
      // Never ends on its own, like an SSE / subscription stream.
      res.writeHead(200, { "content-type": "text/event-stream" });
      return void writeBytes(res, bytes, sseEvent);
    }
    res.writeHead(404).end();
  });
  server.listen(0, "127.0.0.1");
  await once(server, "listening");
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});

const fetches: GuardedFetch[] = [];
const guarded = (blockPrivate: boolean, maxResponseBytes = 16 * MIB) => {
  const f = createGuardedFetch({ blockPrivate, maxResponseBytes });
  fetches.push(f);
  return f;
};
afterEach(async () => {
  await Promise.all(fetches.splice(0).map((f) => f.close()));
});

/** How many TCP client sockets `run` created. */
async function socketsCreatedBy(run: () => Promise<unknown>): Promise<number> {
  let count = 0;
  const onSocket = () => count++;
  dc.subscribe("net.client.socket", onSocket);
  try {
    await run();
  } finally {
    dc.unsubscribe("net.client.socket", onSocket);
  }
  return count;
}

async function readAtLeast(res: Response, bytes: number): Promise<number> {
  const reader = res.body!.getReader();
  let got = 0;
  while (got < bytes) {
    const { done, value } = await reader.read();
    if (done) break;
    got += value.byteLength;
  }
  await reader.cancel();
  return got;
}

describe("address guard", () => {
  it("connects to loopback when private networks are allowed", async () => {
    const res = await guarded(false)(`${base}/hello`);
    expect(res.status).toBe(200);
    expect(res.url).toBe(`${base}/hello`);
    expect(await res.text()).toBe("hello");
  });

  it("refuses loopback with TARGET_LOOPBACK when private networks are blocked, before any request", async () => {
    const before = seen.length;
    const err = await guarded(true)(`${base}/hello`).catch((e: unknown) => e);
    expect(err).toMatchObject({ code: "TARGET_LOOPBACK" });
    expect((err as Error).message).toContain("127.0.0.1");
    // The rule that refused it and its setting (no privateRule given: the instance-wide "none").
    expect((err as Error).message).toContain("TOOLWATCH_PRIVATE_TARGETS=none");
    expect(seen.length).toBe(before);
  });

  it.each(["http://169.254.169.254/latest/meta-data/", "https://169.254.169.254/", "http://[::ffff:169.254.169.254]/", "http://[fd00:ec2::254]/"])(
    "refuses the metadata address %s fast, without creating a socket",
    async (url) => {
      const f = guarded(false);
      let err: unknown;
      const started = performance.now();
      const sockets = await socketsCreatedBy(async () => (err = await f(url).catch((e: unknown) => e)));
      expect(performance.now() - started).toBeLessThan(100);
      expect(err).toMatchObject({ code: "TARGET_METADATA" });
      expect(sockets).toBe(0);
    },
  );

  it("judges the address a hostname resolves to (localhost), not the name", async () => {
    const port = new URL(base).port;
    const before = seen.length;
    const f = guarded(true);
    const err = await f(`http://localhost:${port}/hello`).catch((e: unknown) => e);
    expect(err).toMatchObject({ code: "TARGET_LOOPBACK" });
    expect((err as Error).message).toMatch(/localhost \(resolved to (127\.0\.0\.1|::1)\)/);
    // Unusual spellings of 127.0.0.1 are normalised by URL parsing and refused the same way.
    for (const host of ["0x7f.1", "2130706433", "[::ffff:7f00:1]"]) {
      await expect(f(`http://${host}:${port}/hello`)).rejects.toMatchObject({ code: "TARGET_LOOPBACK" });
    }
    expect(seen.length).toBe(before);
  });

  it.each([
    ["http://169.254.169.254/latest/meta-data/", "TARGET_METADATA"],
    ["http://0.0.0.0:PORT/hello", "TARGET_RESERVED"], // 0.0.0.0 would reach this very machine
  ])("refuses a redirect from an allowed server to %s", async (target, code) => {
    const to = target.replace("PORT", new URL(base).port);
    const before = seen.length;
    await expect(guarded(false)(`${base}/redirect?to=${encodeURIComponent(to)}`)).rejects.toMatchObject({ code });
    expect(seen.slice(before)).toEqual(["/redirect"]);
  });

  it("refuses URLs with credentials or a non-http scheme before connecting", async () => {
    const f = guarded(false);
    await expect(f("http://user:secret@127.0.0.1/")).rejects.toMatchObject({ code: "CREDENTIALS_IN_URL" });
    await expect(f("file:///etc/passwd")).rejects.toMatchObject({ code: "UNSUPPORTED_SCHEME" });
  });
});

describe("response size cap", () => {
  // The request or the reading of its body fails (a JSON answer is read whole before fetch returns;
  // an event stream as it comes): what the caller meets is RESPONSE_TOO_LARGE either way.
  it("errors with RESPONSE_TOO_LARGE once a 20 MiB body passes a 16 MiB cap", async () => {
    const err = await guarded(false, 16 * MIB)(`${base}/bytes?n=${20 * MIB}`).then((res) => res.arrayBuffer()).catch((e: unknown) => e);
    expect(err).toMatchObject({ code: "RESPONSE_TOO_LARGE" });
    expect((err as Error).message).toContain("16 MiB");
  });

  it("lets a 1 MiB body through", async () => {
    const res = await guarded(false, 16 * MIB)(`${base}/bytes?n=${MIB}`);
    expect((await res.arrayBuffer()).byteLength).toBe(MIB);
  });

  it("lets a 1 MiB body with a declared length through whole (the path that skips counting)", async () => {
    const res = await guarded(false, 16 * MIB)(`${base}/bytes?n=${MIB}&declare=1`);
    expect((await res.arrayBuffer()).byteLength).toBe(MIB);
  });

  it("counts a compressed body after inflating it: 20 KiB of gzip that inflates to 20 MiB passes no 16 MiB cap", async () => {
    // What crosses the wire (read raw, not inflated): well under a mebibyte.
    const wire = await new Promise<number>((resolve, reject) => {
      http.get(`${base}/gzip?n=${20 * MIB}`, (res) => {
        let n = 0;
        res.on("data", (chunk: Buffer) => (n += chunk.length)).on("end", () => resolve(n)).on("error", reject);
      });
    });
    expect(wire).toBeLessThan(MIB);
    await expect(guarded(false, 16 * MIB)(`${base}/gzip?n=${20 * MIB}`).then((res) => res.arrayBuffer())).rejects.toMatchObject({ code: "RESPONSE_TOO_LARGE" });
  });

  it("never reads past a declared Content-Length: a server that declares 1,000 bytes and sends 20 MiB yields 1,000", async () => {
    const res = await guarded(false, 64 * 1024)(`${base}/lying-length?n=${20 * MIB}`);
    const got = await res.arrayBuffer().then((b) => b.byteLength, (e: unknown) => e);
    expect(got).toBe(1000);
  });

  it("rejects up front when Content-Length already exceeds the cap", async () => {
    await expect(guarded(false, 16 * MIB)(`${base}/bytes?n=${20 * MIB}&declare=1`)).rejects.toMatchObject({ code: "RESPONSE_TOO_LARGE" });
  });

  it("does not cap a long-lived SSE GET, but does cap the same GET not asking for a stream", async () => {
    const f = guarded(false, 64 * 1024);
    const sse = await f(`${base}/stream?n=${2 * MIB}`, { headers: { accept: "text/event-stream" } });
    expect(await readAtLeast(sse, 2 * MIB)).toBeGreaterThanOrEqual(2 * MIB);
    const plain = await f(`${base}/stream?n=${2 * MIB}`);
    await expect(readAtLeast(plain, 2 * MIB)).rejects.toMatchObject({ code: "RESPONSE_TOO_LARGE" });
  });

  it("does not cap a POST of subscriptions/listen, but caps other POSTs", async () => {
    const f = guarded(false, 64 * 1024);
    const post = (method: string) =>
      f(`${base}/stream?n=${2 * MIB}`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ jsonrpc: "2.0", id: 1, method }) });
    expect(await readAtLeast(await post("subscriptions/listen"), 2 * MIB)).toBeGreaterThanOrEqual(2 * MIB);
    await expect(readAtLeast(await post("tools/list"), 2 * MIB)).rejects.toMatchObject({ code: "RESPONSE_TOO_LARGE" });
  });

  it("isLongLivedStream follows exactly the GET-SSE / subscriptions/listen rule", () => {
    const listen = JSON.stringify({ jsonrpc: "2.0", id: 1, method: "subscriptions/listen" });
    expect(isLongLivedStream({ method: "GET", headers: { Accept: "text/event-stream" } })).toBe(true);
    expect(isLongLivedStream({ headers: [["accept", "application/json, text/event-stream"]] })).toBe(true);
    expect(isLongLivedStream({ method: "GET" })).toBe(false);
    expect(isLongLivedStream(undefined)).toBe(false);
    expect(isLongLivedStream({ method: "POST", body: listen })).toBe(true);
    expect(isLongLivedStream({ method: "POST", body: `[${listen}]` })).toBe(true);
    expect(isLongLivedStream({ method: "POST", body: listen.replace("listen", "list") })).toBe(false);
    expect(isLongLivedStream({ method: "POST", headers: { accept: "text/event-stream" }, body: "{}" })).toBe(false);
    expect(isLongLivedStream({ method: "DELETE", headers: { accept: "text/event-stream" } })).toBe(false);
  });
});

describe("MCP client over the guarded fetch", () => {
  let dir: string;
  let fixture: { url: string; stop(): Promise<void> };
  beforeAll(async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), "toolwatch-guarded-"));
    const tool = (name: string) => ({ name, description: `Tool ${name}`, inputSchema: { type: "object" } });
    writeFixtureState(path.join(dir, "state.json"), { tools: [tool("alpha"), tool("beta")] });
    fixture = await startHttpFixture(path.join(dir, "state.json"));
  });
  afterAll(async () => {
    await fixture?.stop();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  const connect = async (blockPrivate: boolean) => {
    const client = new Client({ name: "toolwatch-test", version: "0.0.0" }, { versionNegotiation: { mode: "auto" } });
    const transport = new StreamableHTTPClientTransport(new URL(fixture.url), { fetch: guarded(blockPrivate) });
    try {
      await client.connect(transport, { timeout: 15_000 });
      return client;
    } catch (error) {
      await client.close();
      throw error;
    }
  };

  it("connects through StreamableHTTPClientTransport and lists tools with private networks allowed", async () => {
    const client = await connect(false);
    try {
      const { tools } = await client.listTools();
      expect(tools.map((t) => t.name).sort()).toEqual(["alpha", "beta"]);
    } finally {
      await client.close();
    }
  });

  it("fails the connect with TARGET_LOOPBACK somewhere in the error chain when private networks are blocked", async () => {
    const err = await connect(true).catch((e: unknown) => e);
    const chain: unknown[] = [];
    for (let e = err; e instanceof Error; e = e.cause) chain.push(e);
    expect(chain).toContainEqual(expect.objectContaining({ code: "TARGET_LOOPBACK" }));
  });
});
