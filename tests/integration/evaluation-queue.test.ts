import "@/tests/helpers/test-env";
import { describe, expect, it } from "vitest";
import { recordSnapshot } from "@/lib/snapshots/record-snapshot";
import { acquireLeases, releaseLeases } from "@/lib/workers/leases";
import { EvaluationQueue } from "@/worker/evaluation-queue";
import { insertServerRow, createTenantContext, testDb } from "@/tests/helpers/factories";
import { POISONED_ADD, notes } from "./alerts-fixtures";

// The worker's evaluation queue (issue 12): judging runs off the listing path, coalesces per
// server, and never loses a judgement — a failed one leaves the snapshot unjudged for a catch-up.
describe("EvaluationQueue", () => {
  it("coalesces requests per server, judges the latest snapshot once as 'created', and marks it judged", async () => {
    const ctx = await createTenantContext("evalq");
    const serverId = (await insertServerRow(ctx, "evalq", { transport: "streamable_http", url: "http://127.0.0.1:9/mcp", headers: {} }, { enabled: false })).id;
    // Stored as the worker stores them: new versions uncounted, counted by the queue.
    const first = await recordSnapshot(ctx, { serverId, tools: [notes()], trigger: "connect", tokens: "later" });
    const second = await recordSnapshot(ctx, { serverId, tools: [notes(), POISONED_ADD], trigger: "list_changed", tokens: "later" });
    expect(second.kind).toBe("created");
    const tokens = async () => (await testDb().snapshot.findMany({ where: { serverId }, orderBy: { takenAt: "asc" }, select: { contextTokens: true } })).map((s) => s.contextTokens);
    expect(await tokens()).toEqual([null, null]);
    const lines: string[] = [];
    const queue = new EvaluationQueue({ width: 1 });
    // Hold the only slot so both requests meet in the queue.
    const blocker = insertServerRow(ctx, "evalq-other", { transport: "streamable_http", url: "http://127.0.0.1:9/mcp", headers: {} }, { enabled: false });
    queue.request({ ctx, serverId: (await blocker).id, kind: "confirmed", leaseHolder: "", log: () => undefined });
    queue.request({ ctx, serverId, kind: "confirmed", leaseHolder: "", log: (l) => lines.push(l) });
    queue.request({ ctx, serverId, kind: "created", leaseHolder: "", log: (l) => lines.push(l) });
    expect(queue.waiting).toBe(2);
    await queue.drainWithoutDropping();
    // One evaluation ran for the server (one "alerts:" line), with list-level rules on ("created").
    expect(lines.filter((l) => l.startsWith("alerts:"))).toHaveLength(1);
    const alerts = await testDb().alert.findMany({ where: { serverId } });
    expect(alerts.map((a) => [a.kind, a.toolName])).toEqual([["suspicious_content", "add"]]);
    const snaps = await testDb().snapshot.findMany({ where: { serverId }, orderBy: { takenAt: "asc" }, select: { id: true, evaluated: true } });
    expect(snaps).toEqual([{ id: first.snapshotId, evaluated: false }, { id: second.snapshotId, evaluated: true }]);
    // Both snapshots counted (the coalesced one too), before the budget check that reads them.
    const versions = Object.fromEntries((await testDb().toolVersion.findMany({ where: { tenantId: ctx.tenantId }, select: { name: true, contextTokens: true } })).map((v) => [v.name, v.contextTokens]));
    expect(versions.read_notes).toBeGreaterThan(0);
    expect(versions.add).toBeGreaterThan(0);
    expect(await tokens()).toEqual([versions.read_notes, versions.read_notes! + versions.add!]);
  });

  it("a judgement refused by the lease fence leaves the snapshot unjudged, so the next owner catches up", async () => {
    const ctx = await createTenantContext("evalq-fence");
    const serverId = (await insertServerRow(ctx, "fenced", { transport: "streamable_http", url: "http://127.0.0.1:9/mcp", headers: {} })).id;
    await acquireLeases(testDb(), "evalq-owner", 10_000, 60_000);
    try {
      const snap = await recordSnapshot(ctx, { serverId, tools: [POISONED_ADD], trigger: "connect" });
      const lines: string[] = [];
      const queue = new EvaluationQueue({ width: 2 });
      queue.request({ ctx, serverId, kind: "created", leaseHolder: "evalq-intruder", log: (l) => lines.push(l) });
      await queue.drainWithoutDropping();
      expect(lines.join("\n")).toMatch(/could not evaluate alerts: .*no longer holds the lease/);
      expect(await testDb().alert.count({ where: { serverId } })).toBe(0);
      expect((await testDb().snapshot.findUniqueOrThrow({ where: { id: snap.snapshotId } })).evaluated).toBe(false);
      // The next listing of the unchanged list says it still needs judging.
      const again = await recordSnapshot(ctx, { serverId, tools: [POISONED_ADD], trigger: "poll" });
      expect(again).toMatchObject({ kind: "confirmed", evaluated: false });
    } finally {
      await releaseLeases(testDb(), "evalq-owner");
      await testDb().mcpServer.updateMany({ where: { tenantId: ctx.tenantId }, data: { enabled: false } });
    }
  });

  it("first looks step aside while listings wait for a slot; a change to a known server is judged meanwhile", async () => {
    const ctx = await createTenantContext("evalq-lanes");
    const config = { transport: "streamable_http" as const, url: "http://127.0.0.1:9/mcp", headers: {} };
    const fresh = (await insertServerRow(ctx, "fresh", config, { enabled: false })).id;
    const known = (await insertServerRow(ctx, "known", config, { enabled: false })).id;
    const freshSnap = await recordSnapshot(ctx, { serverId: fresh, tools: [POISONED_ADD], trigger: "connect" });
    const knownFirst = await recordSnapshot(ctx, { serverId: known, tools: [notes()], trigger: "connect" });
    const knownChange = await recordSnapshot(ctx, { serverId: known, tools: [notes(), POISONED_ADD], trigger: "list_changed" });
    expect([freshSnap.firstLook, knownFirst.firstLook, knownChange.firstLook]).toEqual([true, true, false]);
    const evaluated = async (id: string) => (await testDb().snapshot.findUniqueOrThrow({ where: { id } })).evaluated;

    let listingsWaiting = true;
    const queue = new EvaluationQueue({ width: 1, listingsWaiting: () => listingsWaiting });
    queue.request({ ctx, serverId: fresh, kind: "created", firstLook: true, leaseHolder: "", log: () => undefined });
    queue.request({ ctx, serverId: known, kind: "created", firstLook: false, leaseHolder: "", log: () => undefined });
    for (let i = 0; i < 100 && !(await evaluated(knownChange.snapshotId)); i++) await new Promise((r) => setTimeout(r, 50));
    expect(await evaluated(knownChange.snapshotId)).toBe(true);
    // The first look is still holding back: nothing judged, no alert yet.
    expect(await evaluated(freshSnap.snapshotId)).toBe(false);
    expect(await testDb().alert.count({ where: { serverId: fresh } })).toBe(0);
    expect(queue.waiting).toBe(1);
    listingsWaiting = false;
    await queue.drainWithoutDropping();
    expect(await evaluated(freshSnap.snapshotId)).toBe(true);
    expect((await testDb().alert.findMany({ where: { serverId: fresh } })).map((a) => [a.kind, a.toolName])).toEqual([["suspicious_content", "add"]]);
    expect(queue.stats.yielded).toBe(1);
  });

  it("a first look holds back for at most maxYieldMs, even while listings keep waiting", async () => {
    const ctx = await createTenantContext("evalq-maxyield");
    const serverId = (await insertServerRow(ctx, "starved", { transport: "streamable_http", url: "http://127.0.0.1:9/mcp", headers: {} }, { enabled: false })).id;
    const snap = await recordSnapshot(ctx, { serverId, tools: [POISONED_ADD], trigger: "connect" });
    const queue = new EvaluationQueue({ width: 1, listingsWaiting: () => true, maxYieldMs: 300 });
    queue.request({ ctx, serverId, kind: "created", firstLook: true, leaseHolder: "", log: () => undefined });
    await queue.drainWithoutDropping();
    expect((await testDb().snapshot.findUniqueOrThrow({ where: { id: snap.snapshotId } })).evaluated).toBe(true);
    expect(queue.stats.yielded).toBe(1);
    expect(queue.stats.yieldedMs).toBeGreaterThanOrEqual(300);
  });

  it("a pushed change holds new first looks back for the time given (holdFirstLooks), then they run", async () => {
    const ctx = await createTenantContext("evalq-hold");
    const serverId = (await insertServerRow(ctx, "held", { transport: "streamable_http", url: "http://127.0.0.1:9/mcp", headers: {} }, { enabled: false })).id;
    const snap = await recordSnapshot(ctx, { serverId, tools: [POISONED_ADD], trigger: "connect" });
    const queue = new EvaluationQueue({ width: 1, listingsWaiting: () => false });
    queue.holdFirstLooks(600);
    queue.request({ ctx, serverId, kind: "created", firstLook: true, leaseHolder: "", log: () => undefined });
    await new Promise((r) => setTimeout(r, 300));
    expect((await testDb().snapshot.findUniqueOrThrow({ where: { id: snap.snapshotId } })).evaluated).toBe(false);
    await queue.drainWithoutDropping();
    expect((await testDb().snapshot.findUniqueOrThrow({ where: { id: snap.snapshotId } })).evaluated).toBe(true);
    expect(queue.stats.yielded).toBe(1);
  });
});
