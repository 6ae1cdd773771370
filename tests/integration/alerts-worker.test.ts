import "@/tests/helpers/test-env";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { ServiceContext } from "@/lib/context";
import { hashTool } from "@/lib/snapshots/canonical-hash";
import { Scheduler } from "@/worker/scheduler";
import { stdioFixtureCommand, writeFixtureState, type FixtureTool } from "@/tests/fixtures/spawn-fixture";
import { insertServerRow, createTenantContext, TEST_KEY, testDb, waitFor } from "@/tests/helpers/factories";
import { POISONED_ADD, add, notes } from "./alerts-fixtures";
import { testTargets } from "@/tests/helpers/guarded";
import { sealWebhookUrl } from "@/lib/webhooks/webhook-url";
import { captureLogger } from "@/tests/helpers/capture-logger";

// End to end with the real worker: scheduler → discovery session over real stdio → snapshot →
// evaluation → alert. The fixture server rewrites a tool into the classic poisoning payload and
// sends list_changed; a critical alert must follow, while a plain wording fix on another tool is
// auto-accepted. A server that cannot start goes down and gets exactly one server_down alert.
describe("alerts from a real worker", () => {
  let ctx: ServiceContext;
  let scheduler: Scheduler;
  let dir: string;
  const ids: Record<string, string> = {};
  const captured = captureLogger();
  const logs = captured.messages;
  const state = (tools: FixtureTool[]) => writeFixtureState(path.join(dir, "state.json"), { tools });

  beforeAll(async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), "toolwatch-alerts-"));
    state([add() as FixtureTool, notes() as FixtureTool]);
    ctx = await createTenantContext("alerts-worker");
    const stdio = stdioFixtureCommand(path.join(dir, "state.json"));
    ids.fixture = (await insertServerRow(ctx, "poisonable", { transport: "stdio", command: stdio.command, args: stdio.args, env: stdio.env })).id;
    ids.broken = (await insertServerRow(ctx, "never-starts", { transport: "stdio", command: process.execPath, args: ["-e", "process.exit(3)"], env: {} })).id;
    // A webhook of the team: an opened alert must be queued for it in the same transaction.
    await ctx.db.webhook.create({ data: { tenantId: ctx.tenantId, name: "receiver", ...sealWebhookUrl(TEST_KEY, "http://127.0.0.1:9/hook"), secretEncrypted: "unused-here", minSeverity: "high" } });
    scheduler = new Scheduler(
      testDb(),
      TEST_KEY,
      `alerts-worker-${ctx.tenantId.slice(0, 8)}`,
      {
        discovery: { connectTimeoutMs: 15_000, requestTimeoutMs: 15_000, maxPages: 100, debounceMs: 100, backoffMaxMs: 1_000 },
        targets: testTargets(),
        privateTargets: "all",
        liveWorkerWindowMs: 15_000,
        stdioPolicy: "all",
      },
      captured.logger,
    );
    await scheduler.start();
  });

  afterAll(async () => {
    await scheduler?.stopAll();
    await ctx?.db.mcpServer.updateMany({ where: { tenantId: ctx.tenantId }, data: { enabled: false } });
    fs.rmSync(dir, { recursive: true, force: true });
  });

  const alerts = (serverId: string) => ctx.db.alert.findMany({ where: { tenantId: ctx.tenantId, serverId }, orderBy: { createdAt: "asc" } });

  it("pins the first version of every tool as the worker records the first snapshot", async () => {
    const baselines = await waitFor("baselines pinned", () => ctx.db.toolBaseline.findMany({ where: { tenantId: ctx.tenantId, serverId: ids.fixture! } }), (b) => b.length === 2, 30_000);
    expect(baselines.map((b) => [b.toolName, b.source, b.approvedHash])).toEqual(
      expect.arrayContaining([
        ["add", "first_seen", hashTool(add())],
        ["read_notes", "first_seen", hashTool(notes())],
      ]),
    );
    expect(await alerts(ids.fixture!)).toEqual([]);
  });

  it("a poisoning rewrite announced by list_changed raises a critical alert within seconds; a wording fix beside it is auto-accepted", async () => {
    await waitFor("fixture live", () => ctx.db.serverSession.findUnique({ where: { serverId: ids.fixture! } }), (s) => s?.status === "live", 30_000);
    const fixed = notes("Read the notes of the current project, newest first.");
    state([POISONED_ADD as FixtureTool, fixed as FixtureTool]);
    const [alert] = await waitFor("critical alert", () => alerts(ids.fixture!), (list) => list.some((a) => a.severity === "critical"), 30_000);
    expect(alert).toMatchObject({ kind: "suspicious_content", severity: "critical", status: "open", toolName: "add", candidateHash: hashTool(POISONED_ADD), baselineHash: hashTool(add()) });
    const snapshot = await ctx.db.snapshot.findUniqueOrThrow({ where: { id: alert!.snapshotId! } });
    expect(snapshot).toMatchObject({ trigger: "list_changed", notified: true });
    expect((alert!.findings as { ruleId: string }[]).map((f) => f.ruleId)).toEqual(expect.arrayContaining(["R6", "R13"]));
    expect(await ctx.db.toolBaseline.findUniqueOrThrow({ where: { serverId_toolName: { serverId: ids.fixture!, toolName: "read_notes" } } })).toMatchObject({ approvedHash: hashTool(fixed), source: "auto_accepted" });
    expect(await ctx.db.auditEvent.count({ where: { tenantId: ctx.tenantId, action: "baseline.auto_accepted" } })).toBe(1);
    expect(await alerts(ids.fixture!)).toHaveLength(1);
    const deliveries = await ctx.db.webhookDelivery.findMany({ where: { tenantId: ctx.tenantId, alertId: alert!.id } });
    expect(deliveries.map((d) => d.event)).toEqual(["alert.opened"]);
    expect(logs.some((l) => l.includes("poisonable: alerts: 1 opened"))).toBe(true);
  });

  it("a server that cannot start goes down with exactly one server_down alert", async () => {
    const down = await waitFor("broken server down", () => ctx.db.serverSession.findUnique({ where: { serverId: ids.broken! } }), (s) => s?.status === "down", 40_000);
    // It keeps failing while down (each attempt records its error); the alert is not repeated.
    const failedAt = down!.lastErrorAt!.getTime();
    await waitFor("a later failure", () => ctx.db.serverSession.findUnique({ where: { serverId: ids.broken! } }), (s) => (s?.lastErrorAt?.getTime() ?? 0) > failedAt, 20_000);
    expect(await alerts(ids.broken!)).toMatchObject([{ kind: "server_down", severity: "medium", status: "open" }]);
  });
});
