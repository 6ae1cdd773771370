import fs from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startEmbeddedPostgres, type EmbeddedPostgres } from "@/scripts/embedded-postgres";
import { migrateDeploy } from "@/scripts/migrate-engine";
import { traversableTmpBase } from "@/scripts/traversable-tmp";
import { createDb, type Db } from "@/lib/db";
import { connectionColumns } from "@/lib/servers/connection-columns";
import { ensureTenant } from "@/lib/tenants/ensure-tenant";
import { startHttpFixture, writeFixtureState, type HttpFixture } from "@/tests/fixtures/spawn-fixture";
import { TEST_KEY, waitFor } from "@/tests/helpers/factories";
import { startProcess, type Proc } from "@/tests/helpers/processes";

// A 30 s database outage under a real worker (issue 12): Postgres is stopped and started again
// on the same port. The worker must ride it out: no lease storm (it keeps its sessions and
// leases), no server owned twice, and changes made during the outage are recorded once the
// database is back. This suite runs its own Postgres, so the shared one is never stopped.
const OUTAGE_MS = 30_000;
const LEASE_TTL_MS = 3_000;
const tool = (name: string, description = `${name} tool`) => ({ name, description, inputSchema: { type: "object", properties: {} } });

describe("a 30 s database outage", () => {
  let base: string;
  let pg: EmbeddedPostgres;
  let db: Db;
  let worker: Proc;
  let tenantId: string;
  const fixtures: HttpFixture[] = [];
  const states: string[] = [];
  const ids: string[] = [];

  const snapshotCounts = async () => {
    const rows = await db.snapshot.groupBy({ by: ["serverId"], where: { tenantId }, _count: { _all: true } });
    return new Map(rows.map((r) => [r.serverId, r._count._all]));
  };

  beforeAll(async () => {
    base = fs.mkdtempSync(path.join(traversableTmpBase(), "toolwatch-outage-"));
    pg = await startEmbeddedPostgres({ dataDir: path.join(base, "data"), persistent: true, database: "outage" });
    await migrateDeploy(pg.url);
    db = createDb(pg.url, 4);
    tenantId = (await ensureTenant(db, "outage", "Outage team")).id;
    for (let i = 0; i < 4; i++) {
      const state = path.join(base, `s${i}.json`);
      writeFixtureState(state, { tools: [tool(`alpha_${i}`), tool(`beta_${i}`)] });
      states.push(state);
      fixtures.push(await startHttpFixture(state));
      const config = { transport: "streamable_http" as const, url: fixtures[i]!.url, headers: {} };
      ids.push((await db.mcpServer.create({ data: { tenantId, name: `outage-${i}`, pollIntervalSeconds: 3600, ...connectionColumns(TEST_KEY, config) } })).id);
    }
    worker = await startProcess(
      "worker/main.ts",
      { DATABASE_URL: pg.url, TOOLWATCH_DEMO: "0", TOOLWATCH_WORKER_ID: "outage-worker", TOOLWATCH_LEASE_TTL_MS: String(LEASE_TTL_MS), TOOLWATCH_HEARTBEAT_MS: "500", TOOLWATCH_DEBOUNCE_MS: "100" },
      /watching \d+ server/,
    );
  }, 120_000);

  afterAll(async () => {
    await worker?.stop();
    await Promise.all(fixtures.map((f) => f.stop()));
    await db?.$disconnect();
    await pg?.stop();
    fs.rmSync(base, { recursive: true, force: true });
  }, 60_000);

  it("loses no lease and no change, and no server is ever owned twice", async () => {
    await waitFor("every server's first snapshot", snapshotCounts, (m) => ids.every((id) => m.get(id) === 1), 60_000);
    await waitFor("every session subscribed", () => db.serverSession.findMany({ where: { tenantId } }), (rows) => rows.length === 4 && rows.every((r) => r.status === "live"), 30_000);
    const connectsBefore = (worker.output().match(/session stopped|restarting session/g) ?? []).length;

    await db.$disconnect();
    await pg.stop();
    const downAt = Date.now();
    // Two servers change while the database is away; the worker hears list_changed for both.
    writeFixtureState(states[0]!, { tools: [tool("alpha_0", "alpha_0 tool, now with paging"), tool("beta_0")] });
    writeFixtureState(states[1]!, { tools: [tool("alpha_1"), tool("beta_1"), tool("gamma_1")] });
    await new Promise((resolve) => setTimeout(resolve, OUTAGE_MS - (Date.now() - downAt)));

    pg = await startEmbeddedPostgres({ dataDir: path.join(base, "data"), persistent: true, database: "outage", port: pg.port });
    db = createDb(pg.url, 4);

    // Both changes are recorded once the database is back (the stores were retried, not dropped).
    const counts = await waitFor("the outage's changes recorded", snapshotCounts, (m) => m.get(ids[0]!) === 2 && m.get(ids[1]!) === 2, 60_000);
    expect(counts.get(ids[2]!)).toBe(1);
    expect(counts.get(ids[3]!)).toBe(1);
    const latest = await db.snapshot.findFirst({ where: { serverId: ids[1]! }, orderBy: { takenAt: "desc" }, select: { toolCount: true, trigger: true } });
    expect(latest).toEqual({ toolCount: 3, trigger: "list_changed" });

    // Every lease still belongs to the one worker, renewed and unexpired; one row per server.
    const leases = await waitFor("leases renewed", () => db.serverLease.findMany({ where: { tenantId } }), (rows) => rows.length === 4 && rows.every((r) => r.expiresAt > new Date()), 20_000);
    expect(new Set(leases.map((l) => l.workerId))).toEqual(new Set(["outage-worker"]));
    expect(new Set(leases.map((l) => l.serverId))).toEqual(new Set(ids));

    // No lease storm: the worker never concluded it had lost its leases, stopped or restarted sessions.
    const log = worker.output();
    expect(log).not.toMatch(/lost \d+ lease/);
    expect(log).not.toMatch(/stopping all sessions/);
    expect((log.match(/session stopped|restarting session/g) ?? []).length).toBe(connectsBefore);
    expect(log).toMatch(/lease renewal failed/);
    expect(log).toMatch(/could not store listing \(attempt 1/);
    const sessions = await waitFor("sessions report live again", () => db.serverSession.findMany({ where: { tenantId } }), (rows) => rows.every((r) => r.status === "live"), 30_000);
    expect(sessions.every((s) => s.workerId === "outage-worker")).toBe(true);
  }, 240_000);
});
