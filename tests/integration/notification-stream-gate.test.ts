import http from "node:http";
import { Server, WebStandardStreamableHTTPServerTransport, type ListToolsResult } from "@modelcontextprotocol/server";
import { afterAll, afterEach, describe, expect, it } from "vitest";
import { createGuardedFetch } from "@/lib/discovery/node/guarded-fetch";
import { skippingUnwantedStreams } from "@/lib/discovery/node/create-transport";
import { takeSnapshot } from "@/lib/discovery/take-snapshot";

// The SDK's 2025-era Streamable HTTP transport opens a standalone GET notification stream after
// every handshake. Toolwatch opens it only where the server advertises a listChanged it follows.
// A real 2025-era server (the SDK's own, stateless, JSON responses) records every request.

type Seen = { method: string; rpc?: string; lastEventId?: string };

async function startServer(listChanged: boolean): Promise<{ url: string; seen: Seen[]; close(): Promise<void> }> {
  const seen: Seen[] = [];
  const server = http.createServer((req, res) => {
    void (async () => {
      const chunks: Buffer[] = [];
      for await (const chunk of req) chunks.push(chunk as Buffer);
      const text = Buffer.concat(chunks).toString("utf8");
      const body: unknown = text ? JSON.parse(text) : undefined;
      seen.push({ method: req.method!, rpc: (body as { method?: string } | undefined)?.method, ...(req.headers["last-event-id"] ? { lastEventId: String(req.headers["last-event-id"]) } : {}) });
      if (req.method !== "POST") return void res.writeHead(405, { allow: "POST" }).end();
      const mcp = new Server({ name: "gate-fixture", version: "1.0.0" }, { capabilities: { tools: listChanged ? { listChanged: true } : {} } });
      mcp.setRequestHandler("tools/list", async () => ({ tools: [{ name: "echo", inputSchema: { type: "object" } }] }) as unknown as ListToolsResult);
      const transport = new WebStandardStreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true });
      await mcp.connect(transport);
      const headers = new Headers();
      for (const [k, v] of Object.entries(req.headers)) if (typeof v === "string") headers.set(k, v);
      const response = await transport.handleRequest(new Request(`http://127.0.0.1${req.url}`, { method: "POST", headers, body: text }), { parsedBody: body });
      res.writeHead(response.status, Object.fromEntries(response.headers));
      res.end(Buffer.from(await response.arrayBuffer()));
      void mcp.close().catch(() => undefined);
    })().catch(() => res.writeHead(500).end());
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  const port = (server.address() as { port: number }).port;
  return { url: `http://127.0.0.1:${port}/mcp`, seen, close: () => new Promise((r) => (server.closeAllConnections(), server.close(() => r()))) };
}

describe("the standalone GET notification stream", () => {
  const guarded = createGuardedFetch({ blockPrivate: false, maxResponseBytes: 16 * 1024 * 1024 });
  const opts = { connectTimeoutMs: 10_000, requestTimeoutMs: 10_000, maxPages: 10, fetch: guarded, fallbackToSse: false };
  let fixture: Awaited<ReturnType<typeof startServer>> | undefined;
  afterEach(async () => {
    await fixture?.close();
    fixture = undefined;
  });
  afterAll(() => guarded.close());

  it("is never requested from a server that advertises no listChanged, and the listing is whole", async () => {
    fixture = await startServer(false);
    const snapshot = await takeSnapshot({ transport: "streamable_http", url: fixture.url, headers: {} }, opts);
    expect(snapshot.tools.map((t) => t.name)).toEqual(["echo"]);
    expect(fixture.seen.filter((s) => s.method === "GET")).toEqual([]);
    // The handshake and the listing did reach the server.
    expect(fixture.seen.map((s) => s.rpc)).toEqual(expect.arrayContaining(["initialize", "notifications/initialized", "tools/list"]));
  });

  it("is still requested from a server that advertises tools.listChanged", async () => {
    fixture = await startServer(true);
    const snapshot = await takeSnapshot({ transport: "streamable_http", url: fixture.url, headers: {} }, opts);
    expect(snapshot.tools.map((t) => t.name)).toEqual(["echo"]);
    await expect.poll(() => fixture!.seen.filter((s) => s.method === "GET").length, { timeout: 5_000 }).toBeGreaterThanOrEqual(1);
  });

  it("answers an unwanted stream GET with 405 locally, and lets POSTs and resumptions (Last-Event-ID) through", async () => {
    fixture = await startServer(false);
    const gated = skippingUnwantedStreams(guarded, () => false);
    const refused = await gated(fixture.url, { method: "GET", headers: { accept: "text/event-stream" } });
    expect(refused.status).toBe(405);
    expect(fixture.seen).toEqual([]);
    const resumed = await gated(fixture.url, { method: "GET", headers: { accept: "text/event-stream", "last-event-id": "7" } });
    expect(resumed.status).toBe(405); // the server's own answer: the request went out
    expect(fixture.seen).toEqual([{ method: "GET", lastEventId: "7" }]);
    const wanted = skippingUnwantedStreams(guarded, () => true);
    await wanted(fixture.url, { method: "GET", headers: { accept: "text/event-stream" } });
    expect(fixture.seen.filter((s) => s.method === "GET")).toHaveLength(2);
  });
});
