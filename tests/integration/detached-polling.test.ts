import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { ServiceContext } from "@/lib/context";
import { Scheduler } from "@/worker/scheduler";
import { startHttpFixture, writeFixtureState, type HttpFixture } from "@/tests/fixtures/spawn-fixture";
import { insertServerRow, createTenantContext, TEST_KEY, testDb, waitFor } from "@/tests/helpers/factories";
import { testTargets } from "@/tests/helpers/guarded";
import { silentLogger } from "@/lib/logger";

// A server that pushes nothing (no tools.listChanged) costs what it needs (issue 12): the worker
// holds no MCP client and no connection between polls; each listing connects, lists and closes.
const tool = (name: string) => ({ name, description: `${name} tool`, inputSchema: { type: "object", properties: {} } });

describe("servers without a push channel are polled without a standing connection", () => {
  let ctx: ServiceContext;
  let scheduler: Scheduler;
  let dir: string;
  let quiet: HttpFixture;
  let pushing: HttpFixture;
  let callLog: string;
  const ids: Record<string, string> = {};

  beforeAll(async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), "toolwatch-detached-"));
    callLog = path.join(dir, "calls.log");
    writeFixtureState(path.join(dir, "quiet.json"), { tools: [tool("alpha"), tool("beta")], listChanged: false });
    writeFixtureState(path.join(dir, "pushing.json"), { tools: [tool("gamma")] });
    quiet = await startHttpFixture(path.join(dir, "quiet.json"), { env: { FIXTURE_CALL_LOG: callLog } });
    pushing = await startHttpFixture(path.join(dir, "pushing.json"));
    ctx = await createTenantContext("detached");
    ids.quiet = (await insertServerRow(ctx, "quiet", { transport: "streamable_http", url: quiet.url, headers: {} })).id;
    ids.pushing = (await insertServerRow(ctx, "pushing", { transport: "streamable_http", url: pushing.url, headers: {} })).id;
    scheduler = new Scheduler(
      testDb(),
      TEST_KEY,
      `detached-${ctx.tenantId.slice(0, 8)}`,
      { discovery: { connectTimeoutMs: 15_000, requestTimeoutMs: 15_000, maxPages: 100, debounceMs: 100, backoffMaxMs: 2_000 }, targets: testTargets(), privateTargets: "all", liveWorkerWindowMs: 15_000, stdioPolicy: "all" },
      silentLogger(),
    );
    await scheduler.start();
  });

  afterAll(async () => {
    await scheduler?.stopAll();
    await ctx?.db.mcpServer.updateMany({ where: { tenantId: ctx.tenantId }, data: { enabled: false } });
    await Promise.all([quiet?.stop(), pushing?.stop()]);
    fs.rmSync(dir, { recursive: true, force: true });
  });

  const snapshots = (serverId: string) => ctx.db.snapshot.findMany({ where: { serverId }, orderBy: { takenAt: "asc" } });
  const status = async (serverId: string) => (await ctx.db.serverSession.findUnique({ where: { serverId } }))?.status;
  const listCalls = () => (fs.existsSync(callLog) ? fs.readFileSync(callLog, "utf8").trim().split("\n").length : 0);

  it("lists once, goes to polling and closes the connection; a server with list_changed stays connected", async () => {
    await waitFor("first snapshots", async () => [(await snapshots(ids.quiet!)).length, (await snapshots(ids.pushing!)).length], ([a, b]) => a === 1 && b === 1, 30_000);
    await waitFor("quiet server polling", () => status(ids.quiet!), (s) => s === "polling");
    await waitFor("pushing server live", () => status(ids.pushing!), (s) => s === "live");
    const quietSession = scheduler.sessionOf(ids.quiet!)!;
    await waitFor("connection closed", async () => quietSession.connected, (c) => c === false);
    expect(quietSession.stats.connects).toBe(1);
    expect(listCalls()).toBe(1);
    expect(scheduler.sessionOf(ids.pushing!)!.connected).toBe(true);
  });

  it("a refresh connects, lists, records the change and closes again", async () => {
    writeFixtureState(path.join(dir, "quiet.json"), { tools: [tool("alpha"), tool("beta"), tool("delta")], listChanged: false });
    await new Promise((resolve) => setTimeout(resolve, 500)); // the fixture re-reads its state every 100 ms
    const session = scheduler.sessionOf(ids.quiet!)!;
    expect(scheduler.refresh(ids.quiet!)).toBe(true);
    const snaps = await waitFor("second snapshot", () => snapshots(ids.quiet!), (s) => s.length === 2, 30_000);
    expect(snaps[1]).toMatchObject({ toolCount: 3, trigger: "manual" });
    await waitFor("closed again", async () => session.connected, (c) => c === false);
    expect(session.stats.connects).toBe(2);
    expect(listCalls()).toBe(2);
    // Still polling, never reported as a failure or a reconnect.
    expect(await status(ids.quiet!)).toBe("polling");
    const transitions = await ctx.db.sessionTransition.findMany({ where: { serverId: ids.quiet! }, orderBy: { id: "asc" }, select: { toStatus: true } });
    expect(transitions.map((t) => t.toStatus)).toEqual(["connecting", "polling"]);
  });
});
