import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import type { ServiceContext } from "@/lib/context";
import { startHttpFixture, writeFixtureState, type HttpFixture } from "@/tests/fixtures/spawn-fixture";
import { insertServerRow, createTenantContext, waitFor } from "@/tests/helpers/factories";
import { startProcess, type Proc } from "@/tests/helpers/processes";
import { testDatabaseUrl } from "@/tests/helpers/test-database";

// Graceful shutdown of a real worker process: SIGTERM while a slow listing is in flight. The
// fixture serves 4 pages of one tool, each after 1.5 s, so the walk takes about 6 s.
const tool = (name: string) => ({ name, description: `${name} tool`, inputSchema: { type: "object", properties: {} } });
const PAGES = 4;

describe("worker shutdown", () => {
  let ctx: ServiceContext;
  let dir: string;
  let slow: HttpFixture;
  let serverId: string;
  let worker: Proc | undefined;
  const callLog = () => path.join(dir, "calls.log");
  const listCalls = () => (fs.existsSync(callLog()) ? fs.readFileSync(callLog(), "utf8").trim().split("\n").filter(Boolean).length : 0);
  const snapshots = () => ctx.db.snapshot.findMany({ where: { tenantId: ctx.tenantId, serverId } });
  const leasesOf = (workerId: string) => ctx.db.serverLease.findMany({ where: { workerId } });

  const startWorker = (workerId: string) =>
    startProcess("worker/main.ts", { DATABASE_URL: testDatabaseUrl(), TOOLWATCH_DEMO: "0", TOOLWATCH_WORKER_ID: workerId, TOOLWATCH_LIST_CACHE: "0", TOOLWATCH_LOG_FORMAT: "json" }, /watching \d+ server/);

  beforeAll(async () => {
    ctx = await createTenantContext("shutdown");
    // Other suites' servers must not be picked up by this worker.
    await ctx.db.mcpServer.updateMany({ where: { enabled: true }, data: { enabled: false } });
    dir = fs.mkdtempSync(path.join(os.tmpdir(), "toolwatch-shutdown-"));
    writeFixtureState(path.join(dir, "slow.json"), { tools: Array.from({ length: PAGES }, (_, i) => tool(`t${i}`)), pageSize: 1, pageDelayMs: 1_500 });
    slow = await startHttpFixture(path.join(dir, "slow.json"), { env: { FIXTURE_CALL_LOG: callLog() } });
    serverId = (await insertServerRow(ctx, "slow", { transport: "streamable_http", url: slow.url, headers: {} })).id;
  });

  afterEach(async () => {
    await worker?.stop();
    worker = undefined;
    await ctx.db.snapshot.deleteMany({ where: { tenantId: ctx.tenantId } });
    fs.rmSync(callLog(), { force: true });
  });

  afterAll(async () => {
    await slow?.stop();
    await ctx?.db.mcpServer.updateMany({ where: { tenantId: ctx.tenantId }, data: { enabled: false } });
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it("on SIGTERM lets the listing in flight finish and be stored, releases its leases, then exits 0", async () => {
    const proc = (worker = await startWorker("shutdown-graceful"));
    // Background work yields the CPU to the web process: niceness 10 by default (TOOLWATCH_WORKER_NICE),
    // never lower than what it inherited. Field 19 of /proc/<pid>/stat (after the parenthesised name).
    const nice = Number(fs.readFileSync(`/proc/${proc.child.pid}/stat`, "utf8").replace(/^.*\) /s, "").split(" ")[16]);
    expect(nice).toBe(Math.max(10, os.getPriority()));
    await waitFor("the listing in flight", async () => listCalls(), (n) => n >= 1, 30_000);
    expect(await leasesOf("shutdown-graceful")).toHaveLength(1);
    expect(await snapshots()).toHaveLength(0);

    const signalledAt = new Date();
    proc.child.kill("SIGTERM");
    const code = await proc.exited;
    const exitedAt = new Date();

    expect(code).toBe(0);
    expect(listCalls()).toBe(PAGES); // the walk went on to its last page after the signal
    const [snapshot, ...more] = await snapshots();
    expect(more).toHaveLength(0);
    expect(snapshot).toMatchObject({ toolCount: PAGES, trigger: "connect" });
    expect(snapshot!.takenAt.getTime()).toBeGreaterThan(signalledAt.getTime());
    expect(snapshot!.takenAt.getTime()).toBeLessThanOrEqual(exitedAt.getTime());
    expect(await leasesOf("shutdown-graceful")).toHaveLength(0);
    // JSON log lines: the shutdown says what it waits for and that it ended.
    const lines = proc.output().trim().split("\n").map((l) => JSON.parse(l) as { msg: string; workerId?: string });
    expect(lines.map((l) => l.msg)).toEqual(expect.arrayContaining(["SIGTERM: stopping 1 session(s); listings and deliveries in flight get 10000 ms", "worker stopped"]));
    expect(lines.every((l) => l.workerId === "shutdown-graceful")).toBe(true);
  }, 60_000);

  it("a second signal exits at once, without waiting for the listing", async () => {
    const proc = (worker = await startWorker("shutdown-forced"));
    await waitFor("the listing in flight", async () => listCalls(), (n) => n >= 1, 30_000);
    proc.child.kill("SIGTERM");
    await waitFor("the first signal taken", async () => proc.output(), (out) => out.includes("SIGTERM: stopping"), 5_000);
    proc.child.kill("SIGTERM");
    expect(await proc.exited).toBe(1);
    expect(listCalls()).toBeLessThan(PAGES);
    expect(await snapshots()).toHaveLength(0);
  }, 60_000);
});
