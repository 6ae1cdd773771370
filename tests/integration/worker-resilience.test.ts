import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { ServiceContext } from "@/lib/context";
import { Scheduler } from "@/worker/scheduler";
import { misbehavingCommand, type Misbehaviour } from "@/tests/fixtures/spawn-fixture";
import { insertServerRow, createTenantContext, TEST_KEY, testDb, waitFor } from "@/tests/helpers/factories";
import { testTargets } from "@/tests/helpers/guarded";
import { silentLogger } from "@/lib/logger";

// The real scheduler and sessions, writing to Postgres, with bad servers next to a good one.
describe("the worker keeps serving everyone while some servers misbehave", () => {
  let ctx: ServiceContext;
  let scheduler: Scheduler;
  let dir: string;
  const ids: Partial<Record<Misbehaviour, string>> = {};
  const session = (id: string) => ctx.db.serverSession.findUnique({ where: { serverId: id } });
  const snapshots = (id: string) => ctx.db.snapshot.findMany({ where: { serverId: id }, orderBy: { takenAt: "asc" } });
  const listCalls = () => fs.readFileSync(path.join(dir, "counter"), "utf8").split("\n").filter(Boolean).length;

  beforeAll(async () => {
    await testDb().mcpServer.updateMany({ where: { enabled: true }, data: { enabled: false } });
    dir = fs.mkdtempSync(path.join(os.tmpdir(), "toolwatch-resilience-"));
    fs.writeFileSync(path.join(dir, "counter"), "");
    ctx = await createTenantContext("resilience");
    for (const mode of ["normal", "crash-after-connect", "hang-connect", "cursor-cycle", "invalid-schema", "storm"] as const) {
      const extra: Record<string, string> = mode === "storm" ? { FIXTURE_TRIGGER: path.join(dir, "trigger"), FIXTURE_COUNTER: path.join(dir, "counter") } : {};
      ids[mode] = (await insertServerRow(ctx, mode, { transport: "stdio", ...misbehavingCommand(mode, extra) })).id;
    }
    scheduler = new Scheduler(
      testDb(),
      TEST_KEY,
      `resilience-${ctx.tenantId.slice(0, 8)}`,
      {
        // A burst postpones the re-list until it has been quiet for debounceMs, for up to
        // debounceMaxWaitMs: both wide enough that a storm slowed down by a busy machine is still one burst.
        discovery: { connectTimeoutMs: 8_000, requestTimeoutMs: 3_000, maxPages: 50, debounceMs: 1_000, debounceMaxWaitMs: 30_000, backoffMaxMs: 1_500 },
        targets: testTargets(),
        privateTargets: "all",
        liveWorkerWindowMs: 15_000,
        stdioPolicy: "all",
      },
      silentLogger(),
    );
    await scheduler.start();
  });

  afterAll(async () => {
    await scheduler?.stopAll();
    await ctx?.db.mcpServer.updateMany({ where: { tenantId: ctx.tenantId }, data: { enabled: false } });
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it("records each failure as a precise error state while the healthy server stays live", async () => {
    await waitFor("healthy server live", () => session(ids.normal!), (s) => s?.status === "live", 40_000);
    const crash = await waitFor("crash recorded", () => session(ids["crash-after-connect"]!), (s) => s?.lastErrorCode === "CONNECTION_CLOSED", 20_000);
    expect(crash?.lastError).toContain("simulated crash");
    const hang = await waitFor("hang recorded", () => session(ids["hang-connect"]!), (s) => Boolean(s?.lastErrorCode), 40_000);
    expect(hang).toMatchObject({ lastErrorCode: "CONNECT_TIMEOUT", status: "degraded" });
    expect((await waitFor("cycle recorded", () => session(ids["cursor-cycle"]!), (s) => Boolean(s?.lastErrorCode), 20_000))?.lastErrorCode).toBe("CURSOR_CYCLE");
    // No snapshot is ever written for a list that could not be read completely.
    expect(await snapshots(ids["cursor-cycle"]!)).toEqual([]);
    expect(await snapshots(ids["crash-after-connect"]!)).toEqual([]);
    // The malformed list is salvaged: valid tools kept, each dropped item recorded.
    const salvaged = await waitFor("salvaged snapshot", () => snapshots(ids["invalid-schema"]!), (s) => s.length === 1, 20_000);
    expect(salvaged[0]!.toolCount).toBe(2);
    expect((salvaged[0]!.diagnostics as { dropped: unknown[] }).dropped).toHaveLength(3);
    expect(((await session(ids["invalid-schema"]!))?.warnings as string[]).length).toBe(3);
    // Through all of it, the healthy server never left "live".
    const transitions = await ctx.db.sessionTransition.findMany({ where: { serverId: ids.normal! } });
    expect(transitions.map((t) => t.toStatus)).toEqual(["connecting", "live"]);
  });

  it("a storm of 500 list_changed in one second gives exactly one re-list and exactly one new snapshot", async () => {
    await waitFor("storm server snapshotted", () => snapshots(ids.storm!), (s) => s.length === 1, 40_000);
    const before = listCalls();
    fs.writeFileSync(path.join(dir, "trigger"), String(Date.now()));
    await waitFor("the change snapshotted", () => snapshots(ids.storm!), (s) => s.length === 2, 20_000);
    await new Promise((r) => setTimeout(r, 2_500)); // let any straggling re-list land
    const relists = listCalls() - before;
    const received = scheduler.sessionOf(ids.storm!)!.stats.notifications;
    console.log(`storm: ${received} list_changed received, ${relists} re-list(s), ${(await snapshots(ids.storm!)).length - 1} new snapshot(s)`);
    expect(received).toBeGreaterThanOrEqual(500);
    expect(relists).toBe(1);
    expect(await snapshots(ids.storm!)).toHaveLength(2);
  });
});
