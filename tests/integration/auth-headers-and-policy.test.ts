import fs from "node:fs";
import http from "node:http";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DiscoverySession } from "@/lib/discovery/discovery-session";
import { createGuardedFetch } from "@/lib/discovery/node/guarded-fetch";
import { takeSnapshot } from "@/lib/discovery/take-snapshot";
import { Scheduler } from "@/worker/scheduler";
import { startHttpFixture, stdioFixtureCommand, writeFixtureState } from "@/tests/fixtures/spawn-fixture";
import { insertServerRow, createTenantContext, TEST_KEY, testDb, waitFor } from "@/tests/helpers/factories";
import { testTargets } from "@/tests/helpers/guarded";
import { silentLogger } from "@/lib/logger";

const TOKEN = "tok_live_4f9a8b7c6d5e";

/** A gate in front of a real MCP server: 401 unless every request carries the bearer token. */
async function startAuthGate(target: string): Promise<{ url: string; seen: () => { ok: number; refused: number }; close(): Promise<void> }> {
  const counts = { ok: 0, refused: 0 };
  const upstream = new URL(target);
  const server = http.createServer((req, res) => {
    if (req.headers.authorization !== `Bearer ${TOKEN}`) {
      counts.refused++;
      res.writeHead(401, { "content-type": "application/json" }).end('{"error":"unauthorized"}');
      return;
    }
    counts.ok++;
    const proxied = http.request({ host: upstream.hostname, port: upstream.port, path: req.url, method: req.method, headers: req.headers }, (up) => {
      res.writeHead(up.statusCode ?? 502, up.headers);
      up.pipe(res);
    });
    req.pipe(proxied);
    res.on("close", () => proxied.destroy());
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  const port = (server.address() as { port: number }).port;
  return { url: `http://127.0.0.1:${port}/mcp`, seen: () => ({ ...counts }), close: () => new Promise((r) => (server.closeAllConnections(), server.close(() => r()))) };
}

describe("custom headers and the stdio policy", () => {
  let dir: string;
  let fixture: { url: string; stop(): Promise<void> };
  let gate: Awaited<ReturnType<typeof startAuthGate>>;
  const guarded = createGuardedFetch({ blockPrivate: false, maxResponseBytes: 16 * 1024 * 1024 });

  beforeAll(async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), "toolwatch-auth-"));
    writeFixtureState(path.join(dir, "s.json"), { tools: [{ name: "secret_tool", inputSchema: { type: "object" } }] });
    fixture = await startHttpFixture(path.join(dir, "s.json"));
    gate = await startAuthGate(fixture.url);
  });
  afterAll(async () => {
    await gate?.close();
    await fixture?.stop();
    await guarded.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it("sends the configured Authorization header on every request, including the listen stream", async () => {
    const opts = { connectTimeoutMs: 10_000, requestTimeoutMs: 10_000, maxPages: 10, fetch: guarded };
    const denied = await takeSnapshot({ transport: "streamable_http", url: gate.url, headers: {} }, { ...opts, fallbackToSse: false }).catch((e: Error) => e);
    expect(denied).toBeInstanceOf(Error);
    const before = gate.seen().refused;
    const listings: number[] = [];
    const session = new DiscoverySession(
      { transport: "streamable_http", url: gate.url, headers: { Authorization: `Bearer ${TOKEN}` } },
      { ...opts, debounceMs: 50, pollIntervalMs: 60_000, backoffMaxMs: 1_000 },
      { log: () => undefined, state: async () => undefined, listing: async (l) => void listings.push(l.tools.length) },
    );
    session.start();
    try {
      await waitFor("first listing", async () => listings, (l) => l.length === 1, 15_000);
      writeFixtureState(path.join(dir, "s.json"), { tools: [{ name: "secret_tool", inputSchema: { type: "object" } }, { name: "more", inputSchema: { type: "object" } }] });
      await waitFor("change heard through the gate", async () => listings, (l) => l.at(-1) === 2, 15_000);
      expect(gate.seen().refused).toBe(before);
      expect(gate.seen().ok).toBeGreaterThan(2);
    } finally {
      await session.stop();
    }
  });

  it("with TOOLWATCH_STDIO_POLICY=off the worker runs no stdio server and says why", async () => {
    await testDb().mcpServer.updateMany({ where: { enabled: true }, data: { enabled: false } });
    const ctx = await createTenantContext("policy");
    const cmd = stdioFixtureCommand(path.join(dir, "s.json"));
    const { id } = await insertServerRow(ctx, "local-tool", { transport: "stdio", ...cmd });
    const scheduler = new Scheduler(
      testDb(),
      TEST_KEY,
      `policy-${ctx.tenantId.slice(0, 8)}`,
      { discovery: { connectTimeoutMs: 5_000, requestTimeoutMs: 5_000, maxPages: 10, debounceMs: 100, backoffMaxMs: 1_000 }, targets: testTargets(), privateTargets: "all", liveWorkerWindowMs: 15_000, stdioPolicy: "off" },
      silentLogger(),
    );
    try {
      await scheduler.start();
      const s = await waitFor("refused", () => ctx.db.serverSession.findUnique({ where: { serverId: id } }), (x) => Boolean(x?.lastErrorCode), 10_000);
      expect(s).toMatchObject({ status: "down", lastErrorCode: "STDIO_DISABLED" });
      expect(scheduler.size).toBe(0);
      expect(await ctx.db.snapshot.count({ where: { serverId: id } })).toBe(0);
    } finally {
      await scheduler.stopAll();
      await ctx.db.mcpServer.updateMany({ where: { tenantId: ctx.tenantId }, data: { enabled: false } });
    }
  });
});
