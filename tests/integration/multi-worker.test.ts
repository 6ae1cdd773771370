import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { ServiceContext } from "@/lib/context";
import { recordSnapshot } from "@/lib/snapshots/record-snapshot";
import { acquireLeases, releaseLeases, renewLeases } from "@/lib/workers/leases";
import { startHttpFixture, writeFixtureState } from "@/tests/fixtures/spawn-fixture";
import { insertServerRow, createTenantContext, testDb, waitFor } from "@/tests/helpers/factories";
import { startProcess, type Proc } from "@/tests/helpers/processes";
import { testDatabaseUrl } from "@/tests/helpers/test-database";

// Two real worker processes against one database. Lease TTL is shortened to 3 s (default 15 s)
// so takeover is observable quickly; the 30 s takeover promise holds with the default.
const tool = (name: string) => ({ name, description: `${name} tool`, inputSchema: { type: "object", properties: {} } });
const LEASE_TTL_MS = 3_000;

describe("several workers share one database", () => {
  let ctx: ServiceContext;
  let dir: string;
  let fast: { url: string; stop(): Promise<void> };
  let slow: { url: string; stop(): Promise<void> };
  const workers = new Map<string, Proc>();
  const serverIds: string[] = [];
  let slowId: string;

  const leases = () =>
    ctx.db.serverLease.findMany({ where: { tenantId: ctx.tenantId }, select: { serverId: true, workerId: true, expiresAt: true } });

  const startWorker = (id: string) =>
    startProcess("worker/main.ts", {
      DATABASE_URL: testDatabaseUrl(),
      TOOLWATCH_DEMO: "0",
      TOOLWATCH_WORKER_ID: id,
      TOOLWATCH_LEASE_TTL_MS: String(LEASE_TTL_MS),
      TOOLWATCH_HEARTBEAT_MS: "500",
      TOOLWATCH_DEBOUNCE_MS: "100",
    }, /watching \d+ server/).then((p) => workers.set(id, p));

  beforeAll(async () => {
    // Other suites' servers must not be picked up by these workers.
    await testDb().mcpServer.updateMany({ where: { enabled: true }, data: { enabled: false } });
    dir = fs.mkdtempSync(path.join(os.tmpdir(), "toolwatch-multi-"));
    writeFixtureState(path.join(dir, "fast.json"), { tools: [tool("a"), tool("b"), tool("c")] });
    writeFixtureState(path.join(dir, "slow.json"), { tools: Array.from({ length: 10 }, (_, i) => tool(`s${i}`)), pageSize: 1, pageDelayMs: 300 });
    // The slow server logs each tools/list call ("<token> <cursor>"): the kill test reads where a walk is.
    [fast, slow] = await Promise.all([startHttpFixture(path.join(dir, "fast.json")), startHttpFixture(path.join(dir, "slow.json"), { env: { FIXTURE_CALL_LOG: path.join(dir, "slow-calls.log") } })]);
    ctx = await createTenantContext("multi");
    for (let i = 0; i < 6; i++) serverIds.push((await insertServerRow(ctx, `fast-${i}`, { transport: "streamable_http", url: fast.url, headers: {} })).id);
    slowId = (await insertServerRow(ctx, "slow", { transport: "streamable_http", url: slow.url, headers: {} })).id;
    serverIds.push(slowId);
  });

  afterAll(async () => {
    await Promise.all([...workers.values()].map((w) => w.stop()));
    await Promise.all([fast?.stop(), slow?.stop()]);
    await ctx?.db.mcpServer.updateMany({ where: { tenantId: ctx.tenantId }, data: { enabled: false } });
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it("acquireLeases() racing from two workers never hands one server to both", async () => {
    const results = await Promise.all([acquireLeases(testDb(), "race-a", 100, 60_000), acquireLeases(testDb(), "race-b", 100, 60_000)]);
    const [a, b] = results.map((ids) => new Set(ids.filter((id) => serverIds.includes(id))));
    expect([...a!].filter((id) => b!.has(id))).toEqual([]);
    expect(a!.size + b!.size).toBe(serverIds.length);
    // A held lease is not taken by anyone else; an expired one is.
    expect((await acquireLeases(testDb(), "race-c", 100)).filter((id) => serverIds.includes(id))).toEqual([]);
    // An expired lease nobody took is still its holder's (a database outage must not cost it)…
    await testDb().$executeRaw`UPDATE server_lease SET expires_at = now() - interval '1 second' WHERE worker_id = 'race-a'`;
    expect(new Set(await renewLeases(testDb(), "race-a"))).toEqual(a);
    // …but once another worker takes it over, the old holder's renewal no longer returns it.
    await testDb().$executeRaw`UPDATE server_lease SET expires_at = now() - interval '1 second' WHERE worker_id = 'race-a'`;
    const c = (await acquireLeases(testDb(), "race-c", 100)).filter((id) => serverIds.includes(id));
    expect(new Set(c)).toEqual(a);
    expect(await renewLeases(testDb(), "race-a")).toEqual([]);
    await Promise.all(["race-a", "race-b", "race-c"].map((w) => releaseLeases(testDb(), w)));
  });

  it("a write by a worker that does not hold the lease is refused (fencing)", async () => {
    await acquireLeases(testDb(), "fence-owner", 100, 60_000);
    await expect(recordSnapshot(ctx, { serverId: serverIds[0]!, tools: [tool("x")], trigger: "poll", leaseHolder: "fence-intruder" })).rejects.toMatchObject({ code: "LEASE_LOST" });
    expect(await ctx.db.snapshot.count({ where: { serverId: serverIds[0]! } })).toBe(0);
    await releaseLeases(testDb(), "fence-owner");
  });

  it("two worker processes split the servers, each owned by exactly one of them", async () => {
    await Promise.all([startWorker("worker-a"), startWorker("worker-b")]);
    await waitFor("every server snapshotted", () => ctx.db.snapshot.groupBy({ by: ["serverId"], where: { tenantId: ctx.tenantId } }), (g) => g.length === serverIds.length, 40_000);
    const owned = await waitFor("a fair split", leases, (l) => {
      const a = l.filter((x) => x.workerId === "worker-a").length;
      return l.length === serverIds.length && a >= 3 && a <= 4;
    }, 20_000);
    expect(new Set(owned.map((l) => l.serverId)).size).toBe(serverIds.length);
    // Sessions are run by the lease holder: once handed over (the first worker up may take
    // everything, then give the newcomer its share), each session row names its server's owner.
    await waitFor(
      "session rows written by their owners",
      async () => ({ sessions: await ctx.db.serverSession.findMany({ where: { tenantId: ctx.tenantId } }), leases: await leases() }),
      ({ sessions, leases: now }) =>
        sessions.length === serverIds.length && sessions.every((s) => s.status === "live" && s.workerId === now.find((l) => l.serverId === s.serverId)?.workerId),
      20_000,
    );
  });

  it("killing a worker mid-walk leaves no partial snapshot; the survivor owns its servers within 30 s", async () => {
    const owner = (await leases()).find((l) => l.serverId === slowId)!.workerId;
    const survivor = owner === "worker-a" ? "worker-b" : "worker-a";
    const victimServers = (await leases()).filter((l) => l.workerId === owner).map((l) => l.serverId);
    // Trigger a 3.3 s walk (11 slow pages) on the owner, then kill it in the middle of it: once the
    // slow server has answered the walk's first page and been asked for a later one.
    const callLog = path.join(dir, "slow-calls.log");
    const calls = () => (fs.existsSync(callLog) ? fs.readFileSync(callLog, "utf8").split("\n").filter(Boolean) : []);
    const callsBefore = calls().length;
    writeFixtureState(path.join(dir, "slow.json"), { tools: Array.from({ length: 11 }, (_, i) => tool(`s${i}`)), pageSize: 1, pageDelayMs: 300 });
    await waitFor("the walk past its first page", async () => calls().slice(callsBefore), (walk) => walk.length >= 2, 20_000);
    workers.get(owner)!.child.kill("SIGKILL");
    const walkAtKill = calls().slice(callsBefore).map((line) => line.split(" ")[1]);
    const completeAtKill = await ctx.db.snapshot.count({ where: { serverId: slowId, toolCount: 11 } });
    // Proof the worker died mid-walk: the walk had started (first page, no cursor), gone on
    // (later pages, with cursors), and not finished (fewer than 11 pages, no 11-tool snapshot).
    expect(walkAtKill[0]).toBe("-");
    expect(walkAtKill.slice(1).every((cursor) => cursor !== "-")).toBe(true);
    expect(walkAtKill.length).toBeGreaterThanOrEqual(2);
    expect(walkAtKill.length).toBeLessThan(11);
    expect(completeAtKill).toBe(0);
    const killedAt = Date.now();
    await workers.get(owner)!.exited;
    workers.delete(owner);

    const after = await waitFor("takeover", leases, (l) => victimServers.every((id) => l.find((x) => x.serverId === id)?.workerId === survivor), 30_000);
    const takeoverMs = Date.now() - killedAt;
    console.log(`takeover of ${victimServers.length} server(s) after kill -9: ${takeoverMs} ms (lease TTL ${LEASE_TTL_MS} ms)`);
    expect(after.filter((l) => l.workerId === survivor).length).toBe(serverIds.length);

    const snaps = await waitFor("the complete new list", () => ctx.db.snapshot.findMany({ where: { serverId: slowId }, orderBy: { takenAt: "asc" } }), (s) => s.some((x) => x.toolCount === 11), 30_000);
    // Only complete lists were ever stored: 10 tools before, 11 after, nothing in between.
    expect(snaps.map((s) => s.toolCount)).toEqual([10, 11]);
  });
});
