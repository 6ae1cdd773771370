/**
 * Proves the failure-mode fixtures really misbehave as documented, using the real
 * v2 client (`versionNegotiation: {mode: "auto"}`, what Toolwatch's worker uses)
 * or raw JSON-RPC where a client would hide the wire. These tests validate the
 * fixtures (tests/fixtures/misbehaving-server.ts, v1-legacy-server.ts), not
 * Toolwatch: the worker's own tests rely on exactly these behaviours.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, afterEach, describe, expect, it } from "vitest";
import {
  Client,
  ProtocolError,
  SdkError,
  SdkErrorCode,
  SdkHttpError,
  SSEClientTransport,
  StreamableHTTPClientTransport,
  type Transport,
} from "@modelcontextprotocol/client";
import { StdioClientTransport } from "@modelcontextprotocol/client/stdio";
import { initializeRequest, rawListPage, rawPost, RawStdio, rawWalkPages, type JsonObject } from "@/tests/fixtures/raw-jsonrpc";
import {
  misbehavingCommand,
  startMisbehavingHttp,
  startV1Fixture,
  v1StdioCommand,
  writeFixtureState,
  type FixtureTool,
  type Misbehaviour,
  type MisbehavingHttp,
  type StdioFixtureCommand,
} from "@/tests/fixtures/spawn-fixture";

const MiB = 1024 * 1024;
const cleanups: Array<() => Promise<unknown>> = [];
const later = (fn: () => Promise<unknown>) => void cleanups.push(fn);
afterEach(async () => {
  await Promise.allSettled(cleanups.splice(0).reverse().map((fn) => fn()));
});
const dir = mkdtempSync(join(tmpdir(), "toolwatch-fixture-behaviours-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** A v2 client as the worker builds it. `errors` collects onerror noise, which misbehaving servers cause on purpose. */
async function connect(transport: Transport, opts: { timeout?: number; mode?: "auto" | "legacy" } = {}) {
  const errors: string[] = [];
  const client = new Client({ name: "fixture-behaviours", version: "0.0.0" }, { versionNegotiation: { mode: opts.mode ?? "auto" } });
  client.onerror = (e) => void errors.push(e.message);
  later(() => transport.close()); // also reaps a stdio child when connect() itself failed
  later(() => client.close());
  await client.connect(transport, { timeout: opts.timeout ?? 20_000 });
  return { client, errors };
}
const stdio = (cmd: StdioFixtureCommand) => new StdioClientTransport({ ...cmd, stderr: "pipe" });
const http = (url: string) => new StreamableHTTPClientTransport(new URL(url));
async function mis(mode: Misbehaviour): Promise<MisbehavingHttp> {
  const server = await startMisbehavingHttp(mode);
  later(() => server.stop());
  return server;
}
function raw(cmd: StdioFixtureCommand): RawStdio {
  const child = new RawStdio(cmd);
  later(() => child.close());
  return child;
}
const rpc = (id: number, method: string, params?: JsonObject): JsonObject => ({ jsonrpc: "2.0", id, method, ...(params && { params }) });
const rejection = (promise: Promise<unknown>): Promise<unknown> =>
  promise.then(
    () => expect.fail("expected a rejection"),
    (error: unknown) => error,
  );
const sdkCode = (error: unknown) => (error instanceof SdkError ? error.code : `not an SdkError: ${String(error)}`);
const names = (tools: unknown) => (tools as Array<{ name: string }>).map((t) => t.name);

describe("misbehaving-server", () => {
  it("normal: legacy-only (discover → -32601, 2025-06-18), GET → 405, three tools", async () => {
    const viaStdio = await connect(stdio(misbehavingCommand("normal")));
    expect([viaStdio.client.getProtocolEra(), viaStdio.client.getNegotiatedProtocolVersion()]).toEqual(["legacy", "2025-06-18"]);
    expect(viaStdio.client.getServerVersion()).toMatchObject({ name: "misbehaving", version: "1.0.0" });
    expect(viaStdio.client.getServerCapabilities()?.tools?.listChanged).toBe(true);
    expect(names((await viaStdio.client.listTools()).tools)).toEqual(["alpha", "beta", "gamma"]);

    const server = await mis("normal");
    const discover = await rawPost(server.url, rpc(1, "server/discover", { _meta: { "io.modelcontextprotocol/protocolVersion": "2026-07-28" } }));
    expect([discover.status, (discover.json as { error: { code: number } }).error.code]).toEqual([200, -32601]);
    const echoed = await rawPost(server.url, initializeRequest(2, "2024-11-05"));
    expect(echoed.json).toMatchObject({ result: { protocolVersion: "2024-11-05", serverInfo: { name: "misbehaving" } } });
    expect((await fetch(server.url)).status).toBe(405);
    const viaHttp = await connect(http(server.url));
    expect(names((await viaHttp.client.listTools()).tools)).toEqual(["alpha", "beta", "gamma"]);
    await viaHttp.client.ping();
  });

  it("hang-connect: connect times out with REQUEST_TIMEOUT on stdio and http", async () => {
    // stdio: the probe timeout means "legacy", then initialize hangs too (≈ 2 × timeout).
    expect(sdkCode(await rejection(connect(stdio(misbehavingCommand("hang-connect")), { timeout: 500 })))).toBe(SdkErrorCode.RequestTimeout);
    // http: a probe timeout is an outage, not "legacy".
    const error = await rejection(connect(http((await mis("hang-connect")).url), { timeout: 500 }));
    expect(sdkCode(error)).toBe(SdkErrorCode.RequestTimeout);
    expect((error as Error).message).toMatch(/probe timed out/);
  });

  it("hang-list: tools/list is never answered while everything else is", async () => {
    const { client } = await connect(http((await mis("hang-list")).url));
    expect(sdkCode(await rejection(client.listTools(undefined, { timeout: 500 })))).toBe(SdkErrorCode.RequestTimeout);
    await client.ping();

    const child = raw(misbehavingCommand("hang-list"));
    await child.handshake();
    child.send(rpc(1, "tools/list"));
    expect(await child.nextLine(300)).toBeUndefined();
    expect(await child.call(rpc(2, "ping"))).toMatchObject({ id: 2, result: {} });
  });

  it("garbage: tools/list is answered with non-JSON (stdio lines, http 200 body)", async () => {
    const child = raw(misbehavingCommand("garbage"));
    await child.handshake();
    child.send(rpc(1, "tools/list"));
    const line = await child.nextLine(5000);
    expect(() => JSON.parse(line ?? "")).toThrow(SyntaxError);

    const server = await mis("garbage");
    const reply = await rawPost(server.url, rpc(1, "tools/list"));
    expect([reply.status, reply.headers.get("content-type"), reply.json]).toEqual([200, "application/json", undefined]);
    // The v2 HTTP transport surfaces the parse failure as a bare SyntaxError …
    const { client } = await connect(http(server.url));
    expect(await rejection(client.listTools())).toBeInstanceOf(SyntaxError);
    // … while its stdio transport silently skips non-JSON lines, so the call just times out.
    const viaStdio = await connect(stdio(misbehavingCommand("garbage")));
    expect(sdkCode(await rejection(viaStdio.client.listTools(undefined, { timeout: 500 })))).toBe(SdkErrorCode.RequestTimeout);
  });

  it("cursor-cycle / repeated-page / endless-cursors: pagination never ends", async () => {
    const cycle = await mis("cursor-cycle");
    const cyclePages = (await rawWalkPages(cycle.url, 5)).map((p) => [p.nextCursor, ...names(p.tools)]);
    expect(cyclePages).toEqual([["a", "start"], ["b", "from-a"], ["a", "from-b"], ["b", "from-a"], ["a", "from-b"]]);
    const repeated = await mis("repeated-page");
    const repeatedPages = await rawWalkPages(repeated.url, 4);
    expect(repeatedPages.map((p) => p.nextCursor)).toEqual(["p1", "p2", "p3", "p4"]);
    expect(new Set(repeatedPages.map((p) => JSON.stringify(p.tools))).size).toBe(1);
    const endless = await mis("endless-cursors");
    const endlessPages = await rawWalkPages(endless.url, 4);
    expect(endlessPages.map((p) => [p.nextCursor, ...names(p.tools)])).toEqual([0, 1, 2, 3].map((i) => [`c${i + 1}`, `endless-${i}`]));
    expect((await rawPost(endless.url, rpc(9, "tools/list", { cursor: "bogus" }))).json).toMatchObject({ error: { code: -32602 } });

    for (const server of [cycle, repeated, endless]) {
      const before = (await server.stats()).listCalls;
      const { client } = await connect(http(server.url));
      expect(sdkCode(await rejection(client.listTools()))).toBe(SdkErrorCode.ListPaginationExceeded);
      expect((await server.stats()).listCalls - before).toBe(64); // the client's default listMaxPages
    }
  });

  it("oversized: one tools/list response > 16 MiB (http passes it, stdio closes)", async () => {
    const server = await mis("oversized");
    const reply = await rawPost(server.url, rpc(1, "tools/list"));
    expect(reply.text.length).toBeGreaterThan(16 * MiB);
    expect((reply.json as { result: { tools: unknown[] } }).result.tools).toHaveLength(4000);
    const viaHttp = await connect(http(server.url));
    expect((await viaHttp.client.listTools()).tools).toHaveLength(4000);

    const viaStdio = await connect(stdio(misbehavingCommand("oversized")));
    expect(sdkCode(await rejection(viaStdio.client.listTools(undefined, { timeout: 20_000 })))).toBe(SdkErrorCode.ConnectionClosed);
    expect(viaStdio.errors.join("\n")).toMatch(/ReadBuffer exceeded maximum size/);
  });

  it("crash-after-connect: 'fatal: simulated crash' on stderr, then exit 1, when tools/list arrives", async () => {
    const child = raw(misbehavingCommand("crash-after-connect"));
    await child.handshake();
    child.send(rpc(1, "tools/list"));
    expect(await child.exited).toBe(1);
    expect(child.stderr).toMatch(/^fatal: simulated crash$/m);

    const transport = stdio(misbehavingCommand("crash-after-connect"));
    const { client } = await connect(transport);
    expect(sdkCode(await rejection(client.listTools()))).toBe(SdkErrorCode.ConnectionClosed);

    const server = await mis("crash-after-connect");
    const viaHttp = await connect(http(server.url));
    const error = await rejection(viaHttp.client.listTools());
    expect([(error as Error).name, (error as Error).message]).toEqual(["TypeError", "fetch failed"]); // not an SdkError
    expect(await server.exited).toBe(1);
  });

  it("duplicate-names and invalid-schema: served raw, as described", async () => {
    const dup = await connect(http((await mis("duplicate-names")).url));
    expect(names((await dup.client.listTools()).tools)).toEqual(["search", "fetch", "search", "list"]);

    const server = await mis("invalid-schema");
    const { tools } = await rawListPage(server.url);
    expect(tools).toHaveLength(5);
    expect(tools[0]).toHaveProperty("inputSchema.type", "object");
    expect(tools[1]).not.toHaveProperty("inputSchema");
    expect(tools[2]).toHaveProperty("inputSchema.type", "object");
    expect(tools[3]).toHaveProperty("inputSchema", { type: "array" });
    expect(tools[4]).toBe("junk");
    const { client } = await connect(http(server.url));
    expect(sdkCode(await rejection(client.listTools()))).toBe(SdkErrorCode.InvalidResult);
  });

  it("storm (stdio): trigger file → version bump + 500 list_changed within 2 s; counter file counts tools/list", async () => {
    const trigger = join(dir, "storm.trigger");
    const counter = join(dir, "storm.counter");
    const { client } = await connect(stdio(misbehavingCommand("storm", { FIXTURE_TRIGGER: trigger, FIXTURE_COUNTER: counter })));
    const received: number[] = [];
    client.setNotificationHandler("notifications/tools/list_changed", () => void received.push(Date.now()));
    expect((await client.listTools()).tools[0]).toMatchObject({ name: "v", description: "version 1" });
    const start = Date.now();
    writeFileSync(trigger, "go");
    await expect.poll(() => received.length, { timeout: 2000, interval: 20 }).toBe(500);
    expect(received.at(-1)! - start).toBeLessThan(2000);
    expect((await client.listTools()).tools[0]).toMatchObject({ name: "v", description: "version 2" });
    expect(readFileSync(counter, "utf8").trim().split("\n")).toHaveLength(2);
  });

  it("storm (http): POST /__control/storm → 500 list_changed on the GET stream; stats count tools/list", async () => {
    const server = await mis("storm");
    const { client } = await connect(http(server.url));
    const received: number[] = [];
    client.setNotificationHandler("notifications/tools/list_changed", () => void received.push(Date.now()));
    await client.listTools();
    // The client opens its GET stream asynchronously after connect; storming earlier would be lost.
    await expect.poll(async () => (await server.stats()).notificationStreams, { timeout: 5000, interval: 20 }).toBe(1);
    const start = Date.now();
    await server.storm();
    await expect.poll(() => received.length, { timeout: 2000, interval: 20 }).toBe(500);
    expect(received.at(-1)! - start).toBeLessThan(2000);
    expect((await client.listTools()).tools[0]).toMatchObject({ name: "v", description: "version 2" });
    expect(await server.stats()).toEqual({ listCalls: 2, notificationStreams: 1 });
  });

  it("invalid-cursor-once: the first page-2 request gets -32602, a restart from page 1 succeeds", async () => {
    const server = await mis("invalid-cursor-once");
    const { client } = await connect(http(server.url));
    const error = await rejection(client.listTools());
    expect(error).toBeInstanceOf(ProtocolError);
    expect((error as ProtocolError).code).toBe(-32602);
    expect(names((await client.listTools()).tools)).toEqual(["page-1", "page-2", "page-3"]);
    expect((await server.stats()).listCalls).toBe(5);
  });

  it("nonconforming-modern: a 2026-07-28 server whose tools/list lacks resultType/ttlMs/cacheScope", async () => {
    const { client } = await connect(stdio(misbehavingCommand("nonconforming-modern")));
    expect([client.getProtocolEra(), client.getNegotiatedProtocolVersion()]).toEqual(["modern", "2026-07-28"]);
    const subscription = await client.listen({ toolsListChanged: true, promptsListChanged: true }, { timeout: 2000 });
    expect(subscription.honoredFilter).toEqual({ toolsListChanged: true });
    await subscription.close();
    const error = await rejection(client.listTools());
    expect(sdkCode(error)).toBe(SdkErrorCode.InvalidResult);
    expect((error as Error).message).toMatch(/missing required resultType/);

    const server = await mis("nonconforming-modern");
    const meta = { _meta: { "io.modelcontextprotocol/protocolVersion": "2026-07-28", "io.modelcontextprotocol/clientCapabilities": {} } };
    const discover = (await rawPost(server.url, rpc(1, "server/discover", meta))).json as { result: JsonObject };
    expect(discover.result).toMatchObject({ supportedVersions: ["2026-07-28"], resultType: "complete", ttlMs: 0, cacheScope: "private" });
    const list = (await rawPost(server.url, rpc(2, "tools/list", meta))).json as { result: JsonObject };
    expect(names(list.result.tools)).toEqual(["alpha", "beta", "gamma"]);
    expect(Object.keys(list.result)).toEqual(["tools"]);
    // Dual-era: a legacy-mode client can still snapshot it.
    const legacy = await connect(http(server.url), { mode: "legacy" });
    expect((await legacy.client.listTools()).tools).toHaveLength(3);
  });
});

describe("v1-legacy-server", () => {
  const tool = (name: string): FixtureTool => ({ name, description: `v1 ${name}`, inputSchema: { type: "object" } });
  const five = ["a", "b", "c", "d", "e"].map(tool);
  function stateFile(name: string): string {
    const path = join(dir, `${name}.json`);
    writeFixtureState(path, { tools: five, pageSize: 2 });
    return path;
  }
  /** Edit the state until a list_changed arrives (an http client's GET stream may open only after the first edit). */
  async function changeUntilNotified(path: string, client: Client): Promise<void> {
    let notified = false;
    client.setNotificationHandler("notifications/tools/list_changed", () => void (notified = true));
    for (let attempt = 1; attempt <= 3 && !notified; attempt++) {
      writeFixtureState(path, { tools: [...five, tool(`new-${attempt}`)], pageSize: 2 });
      await expect.poll(() => notified, { timeout: 2000, interval: 20 }).toBe(true).catch(() => undefined);
    }
    expect(notified).toBe(true);
  }

  it("stdio: legacy era, first nextCursor is \"\", bogus cursor → -32602, list_changed on edit", async () => {
    const path = stateFile("v1-stdio");
    const { client } = await connect(stdio(v1StdioCommand(path)));
    expect([client.getProtocolEra(), client.getNegotiatedProtocolVersion()]).toEqual(["legacy", "2025-11-25"]);
    expect((await client.request({ method: "tools/list", params: {} })).nextCursor).toBe("");
    expect(names((await client.listTools()).tools)).toEqual(["a", "b", "c", "d", "e"]);
    expect(await rejection(client.listTools({ cursor: "bogus" }))).toMatchObject({ code: -32602 });
    await changeUntilNotified(path, client);
    expect(names((await client.listTools()).tools)).toContain("new-1");
  });

  it("streamable http: session id, \"\" cursor, list_changed via GET stream, 404 after expire-sessions", async () => {
    const path = stateFile("v1-http");
    const server = await startV1Fixture(path, { transport: "http" });
    later(() => server.stop());
    const init = await rawPost(server.url, initializeRequest(1));
    expect(init.headers.get("mcp-session-id")).toMatch(/^[0-9a-f-]{36}$/);

    const transport = http(server.url);
    const { client } = await connect(transport);
    expect(client.getProtocolEra()).toBe("legacy");
    expect(transport.sessionId).toBeTypeOf("string");
    expect((await client.request({ method: "tools/list", params: {} })).nextCursor).toBe("");
    expect((await client.listTools()).tools).toHaveLength(5);
    await changeUntilNotified(path, client);

    expect(await server.expireSessions()).toBeGreaterThanOrEqual(1);
    const gone = await rejection(client.listTools());
    expect(gone).toBeInstanceOf(SdkHttpError);
    expect((gone as SdkHttpError).status).toBe(404);
    const fresh = await connect(http(server.url)); // recovery = new transport + new client
    expect((await fresh.client.listTools()).tools.length).toBeGreaterThanOrEqual(5);
  });

  it("http+sse: SSEClientTransport connects (auto → legacy) and lists every page", async () => {
    const server = await startV1Fixture(stateFile("v1-sse"), { transport: "sse" });
    later(() => server.stop());
    expect(server.url).toMatch(/\/sse$/);
    const { client } = await connect(new SSEClientTransport(new URL(server.url)));
    expect(client.getProtocolEra()).toBe("legacy");
    expect(names((await client.listTools()).tools)).toEqual(["a", "b", "c", "d", "e"]);
  });
});
