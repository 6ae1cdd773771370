import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { ServiceContext } from "@/lib/context";
import { startHttpFixture, writeFixtureState, type HttpFixture } from "@/tests/fixtures/spawn-fixture";
import { insertServerRow, createTenantContext, testDb, waitFor } from "@/tests/helpers/factories";
import { freePort, startProcess, type Proc } from "@/tests/helpers/processes";
import { parsePrometheusText, samplesOf, type Family } from "@/tests/helpers/prometheus-text";
import { testDatabaseUrl } from "@/tests/helpers/test-database";

// The real worker process with TOOLWATCH_WORKER_METRICS_PORT set, watching a real fixture MCP
// server and one whose port refuses connections; its /metrics is scraped over HTTP and parsed
// strictly. Expected values are written by hand from what the test made happen.

const tool = (name: string) => ({ name, description: `The ${name} tool`, inputSchema: { type: "object" } });
const TOKEN = "integration-metrics-token-7f3a";

describe("the worker's /metrics", () => {
  let ctx: ServiceContext;
  let worker: Proc;
  let fixture: HttpFixture;
  let dir: string;
  let statePath: string;
  let metricsUrl: string;
  let liveId: string;
  let refusedId: string;

  const scrape = async (authorization?: string) => {
    const res = await fetch(metricsUrl, { headers: authorization ? { authorization } : {} });
    return { status: res.status, text: await res.text() };
  };
  const metrics = async (): Promise<Map<string, Family>> => {
    const { status, text } = await scrape(`Bearer ${TOKEN}`);
    expect(status).toBe(200);
    return parsePrometheusText(text);
  };
  const value = (families: Map<string, Family>, name: string, labels: Record<string, string> = {}, sampleName = name) =>
    samplesOf(families, name, labels, sampleName).reduce((sum, s) => sum + s.value, 0);

  beforeAll(async () => {
    // A worker takes every enabled server: switch off what earlier suites left enabled.
    await testDb().mcpServer.updateMany({ where: { enabled: true }, data: { enabled: false } });
    dir = fs.mkdtempSync(path.join(os.tmpdir(), "toolwatch-metrics-"));
    statePath = path.join(dir, "tools.json");
    writeFixtureState(statePath, { tools: [tool("alpha"), tool("beta"), tool("gamma"), tool("delta")] });
    fixture = await startHttpFixture(statePath);
    ctx = await createTenantContext("metrics");
    liveId = (await insertServerRow(ctx, "metrics-live", { transport: "streamable_http", url: fixture.url, headers: {} })).id;
    const closedPort = await freePort();
    refusedId = (await insertServerRow(ctx, "metrics-refused", { transport: "streamable_http", url: `http://127.0.0.1:${closedPort}/mcp`, headers: {} })).id;
    const port = await freePort();
    metricsUrl = `http://127.0.0.1:${port}/metrics`;
    worker = await startProcess(
      "worker/main.ts",
      {
        DATABASE_URL: testDatabaseUrl(),
        TOOLWATCH_DEMO: "0",
        TOOLWATCH_WORKER_ID: "metrics-worker",
        TOOLWATCH_DEBOUNCE_MS: "100",
        TOOLWATCH_BACKOFF_MAX_MS: "2000",
        HOST: "127.0.0.1",
        TOOLWATCH_WORKER_METRICS_PORT: String(port),
        TOOLWATCH_METRICS_TOKEN: TOKEN,
      },
      /metrics served at/,
    );
  });

  afterAll(async () => {
    await worker?.stop();
    await fixture?.stop();
    await ctx?.db.mcpServer.updateMany({ where: { tenantId: ctx.tenantId }, data: { enabled: false } });
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it("answers 401 without the bearer token or with a wrong one, 200 with it", async () => {
    const none = await scrape();
    expect(none.status).toBe(401);
    expect(none.text).not.toContain("toolwatch_");
    expect((await scrape(`Bearer not-the-${TOKEN}`)).status).toBe(401);
    expect((await scrape(`Basic ${TOKEN}`)).status).toBe(401);
    expect((await scrape(`Bearer ${TOKEN}`)).status).toBe(200);
  });

  it("counts the first listing, shows each session's status, the refused connects and the pools", async () => {
    await waitFor("the live server's first snapshot", () => ctx.db.snapshot.count({ where: { serverId: liveId } }), (n) => n === 1);
    await waitFor("the refused server's error", () => ctx.db.serverSession.findUnique({ where: { serverId: refusedId } }), (s) => s?.lastErrorCode === "CONNECTION_REFUSED");
    const families = await waitFor("the sessions gauge", metrics, (f) => value(f, "toolwatch_sessions", { status: "live" }) === 1);

    expect(families.get("toolwatch_listings_total")).toMatchObject({ type: "counter", help: expect.stringMatching(/listings/i) });
    expect(value(families, "toolwatch_listings_total", { trigger: "connect" })).toBeGreaterThanOrEqual(1);
    expect(value(families, "toolwatch_snapshots_recorded_total", { result: "changed" })).toBe(1);
    // Two servers, one session each: the live one, and the refused one degraded or down.
    expect(value(families, "toolwatch_sessions")).toBe(2);
    expect(value(families, "toolwatch_sessions", { status: "degraded" }) + value(families, "toolwatch_sessions", { status: "down" })).toBe(1);
    expect(value(families, "toolwatch_discovery_errors_total", { code: "CONNECTION_REFUSED" })).toBeGreaterThanOrEqual(1);

    for (const pool of ["main", "lease"]) {
      expect(samplesOf(families, "toolwatch_db_pool_connections", { pool })).toHaveLength(1);
      expect(samplesOf(families, "toolwatch_db_pool_idle_connections", { pool })).toHaveLength(1);
      expect(samplesOf(families, "toolwatch_db_pool_waiting_requests", { pool })).toHaveLength(1);
    }
    expect(value(families, "toolwatch_db_pool_connections", { pool: "main" })).toBeGreaterThanOrEqual(1);
    expect(value(families, "toolwatch_db_pool_connections", { pool: "lease" })).toBeLessThanOrEqual(2);
    expect(samplesOf(families, "toolwatch_evaluation_queue_depth")).toHaveLength(1);
    // The webhook queue is shared; its depth is a number once pg-boss runs (NaN only while it is down).
    expect(samplesOf(families, "toolwatch_webhook_queue_depth")).toHaveLength(1);
    expect(samplesOf(families, "toolwatch_webhook_deliveries_total", { outcome: "delivered" })).toHaveLength(1);
    // prom-client's default process metrics.
    expect(families.get("process_cpu_user_seconds_total")?.type).toBe("counter");
    expect(families.has("nodejs_eventloop_lag_seconds")).toBe(true);
  });

  it("times a list_changed to its committed snapshot and counts the alert it opened", async () => {
    // The refused server is down for good by now (three failures): one server_down alert (medium).
    await waitFor("the refused server's alert", () => ctx.db.alert.count({ where: { serverId: refusedId, kind: "server_down" } }), (n) => n === 1);
    // Wait for the first look (baselines pinned), so removing a tool is a change to judge.
    await waitFor("baselines", () => ctx.db.toolBaseline.count({ where: { serverId: liveId } }), (n) => n === 4);
    writeFixtureState(statePath, { tools: [tool("alpha"), tool("beta"), tool("gamma")] });
    await waitFor("the second snapshot", () => ctx.db.snapshot.count({ where: { serverId: liveId } }), (n) => n === 2);
    await waitFor("the removal alert", () => ctx.db.alert.count({ where: { serverId: liveId, kind: "tool_removed" } }), (n) => n === 1);
    const families = await waitFor("the alert counter", metrics, (f) => value(f, "toolwatch_alerts_opened_total") >= 2);

    expect(value(families, "toolwatch_snapshots_recorded_total", { result: "changed" })).toBe(2);
    expect(value(families, "toolwatch_listings_total", { trigger: "list_changed" })).toBe(1);
    expect(value(families, "toolwatch_list_changed_to_snapshot_seconds", {}, "toolwatch_list_changed_to_snapshot_seconds_count")).toBe(1);
    const seconds = value(families, "toolwatch_list_changed_to_snapshot_seconds", {}, "toolwatch_list_changed_to_snapshot_seconds_sum");
    expect(seconds).toBeGreaterThan(0);
    expect(seconds).toBeLessThan(20);
    expect(value(families, "toolwatch_list_changed_to_snapshot_seconds", { le: "+Inf" }, "toolwatch_list_changed_to_snapshot_seconds_bucket")).toBe(1);
    expect(value(families, "toolwatch_alerts_opened_total", { kind: "tool_removed", severity: "low" })).toBe(1);
    expect(value(families, "toolwatch_alerts_opened_total", { kind: "server_down", severity: "medium" })).toBe(1);
    expect(value(families, "toolwatch_alerts_opened_total")).toBe(2);
  });

  it("labels no series with a server or tenant id", async () => {
    const { text } = await scrape(`Bearer ${TOKEN}`);
    for (const id of [liveId, refusedId, ctx.tenantId]) expect(text).not.toContain(id);
    expect(text).not.toMatch(/[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/);
  });
});
