import "@/tests/helpers/test-env";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { ServiceContext } from "@/lib/context";
import { AppError } from "@/lib/errors";
import { getOverview } from "@/lib/overview/get-overview";
import { listFleetRowExtras } from "@/lib/servers/list-fleet-row-extras";
import { insertServerRow, createTenantContext } from "@/tests/helpers/factories";

// The overview verb and the fleet table's per-row strip/alert query against real Postgres. A
// small team is written row by row at known instants around a fixed "now", so every number below
// is counted by hand from the plan in the comments (not from the product's own tables).

const NOW = new Date("2026-12-03T12:00:00.000Z");
const ago = (ms: number) => new Date(NOW.getTime() - ms);
const MIN = 60_000;
const H = 60 * MIN;
const D = 24 * H;
const http = { transport: "streamable_http" as const, url: "http://127.0.0.1:9/mcp", headers: {} };
const diff = (d: Partial<{ added: number; removed: number; changed: number; highest: "ERR" | "WARN" | "INFO" | null }>) => ({
  added: 0, removed: 0, changed: 0, renamed: 0, orderOnly: false, highest: null, levels: { ERR: 0, WARN: 0, INFO: 0 }, ...d,
});

// alpha: live; live since 30 h ago; degraded 5h30m ago, down 5h10m ago, live again 4h50m ago.
//        snapshots: first 10 d ago (no diff), +1 tool 3 d ago, 1 changed (WARN) 2 h ago → 3 tools.
//        alerts: critical open 1 h ago, critical open 26 h ago, high open 3 d ago,
//                medium acknowledged 4 d ago, low resolved 8 d ago.
// beta:  session degraded, no transitions at all; one first snapshot 20 h ago with 5 tools.
// gamma: disabled (stopped); connecting 2 h ago, live 30 s later, stopped 1h30m ago;
//        snapshots: first 6 d ago, −1 tool 25 h ago → 2 tools. alerts: info open 30 min ago.
// other team: a server with a critical open alert and a change 1 h ago; never counted above.
describe("overview and fleet strips (real Postgres, fixed now)", () => {
  let ctx: ServiceContext;
  let other: ServiceContext;
  const id: Record<string, string> = {};

  beforeAll(async () => {
    ctx = await createTenantContext("overview");
    other = await createTenantContext("overview-other");
    const db = ctx.db;
    id.alpha = (await insertServerRow(ctx, "alpha", http)).id;
    id.beta = (await insertServerRow(ctx, "beta", http)).id;
    id.gamma = (await insertServerRow(ctx, "gamma", http, { enabled: false })).id;
    id.foreign = (await insertServerRow(other, "foreign-server", http)).id;
    const t = ctx.tenantId;
    await db.serverSession.createMany({
      data: [
        { serverId: id.alpha, tenantId: t, status: "live" },
        { serverId: id.beta, tenantId: t, status: "degraded" },
        { serverId: id.gamma, tenantId: t, status: "stopped" },
        { serverId: id.foreign, tenantId: other.tenantId, status: "down" },
      ],
    });
    await db.sessionTransition.createMany({
      data: [
        { tenantId: t, serverId: id.alpha, fromStatus: null, toStatus: "connecting", at: ago(30 * H) },
        { tenantId: t, serverId: id.alpha, fromStatus: "connecting", toStatus: "live", at: ago(30 * H - MIN) },
        { tenantId: t, serverId: id.alpha, fromStatus: "live", toStatus: "degraded", at: ago(5 * H + 30 * MIN) },
        { tenantId: t, serverId: id.alpha, fromStatus: "degraded", toStatus: "down", at: ago(5 * H + 10 * MIN) },
        { tenantId: t, serverId: id.alpha, fromStatus: "down", toStatus: "live", at: ago(4 * H + 50 * MIN) },
        { tenantId: t, serverId: id.gamma, fromStatus: null, toStatus: "connecting", at: ago(2 * H) },
        { tenantId: t, serverId: id.gamma, fromStatus: "connecting", toStatus: "live", at: ago(2 * H - 30_000) },
        { tenantId: t, serverId: id.gamma, fromStatus: "live", toStatus: "stopped", at: ago(90 * MIN) },
        { tenantId: other.tenantId, serverId: id.foreign, fromStatus: null, toStatus: "down", at: ago(3 * H) },
      ],
    });
    const snap = (tenantId: string, serverId: string, n: number, at: Date, toolCount: number, diffSummary: object | null, contextTokens: number | null = null) => ({
      tenantId, serverId, contentHash: `h-${serverId}-${n}`, toolCount, trigger: "poll", takenAt: at, toolVersionIds: [], contextTokens, ...(diffSummary ? { diffSummary } : {}),
    });
    await db.snapshot.createMany({
      data: [
        snap(t, id.alpha, 1, ago(10 * D), 2, null),
        snap(t, id.alpha, 2, ago(3 * D), 3, diff({ added: 1, highest: "INFO" }), 999),
        snap(t, id.alpha, 3, ago(2 * H), 3, diff({ changed: 1, highest: "WARN" }), 300),
        snap(t, id.beta, 1, ago(20 * H), 5, null, 500),
        snap(t, id.gamma, 1, ago(6 * D), 3, null),
        snap(t, id.gamma, 2, ago(25 * H), 2, diff({ removed: 1, highest: "ERR" })),
        snap(other.tenantId, id.foreign, 1, ago(2 * D), 7, null),
        snap(other.tenantId, id.foreign, 2, ago(1 * H), 8, diff({ added: 1 }), 7000),
      ],
    });
    const alert = (tenantId: string, serverId: string, key: string, severity: "critical" | "high" | "medium" | "low" | "info", status: "open" | "acknowledged" | "resolved", at: Date) => ({
      tenantId, serverId, kind: "tool_changed" as const, severity, status, title: `${key} title`, toolName: key, dedupeKey: key, createdAt: at,
    });
    await db.alert.createMany({
      data: [
        alert(t, id.alpha, "crit-1", "critical", "open", ago(1 * H)),
        alert(t, id.alpha, "crit-2", "critical", "open", ago(26 * H)),
        alert(t, id.alpha, "high-1", "high", "open", ago(3 * D)),
        alert(t, id.alpha, "medium-ack", "medium", "acknowledged", ago(4 * D)),
        alert(t, id.alpha, "low-resolved", "low", "resolved", ago(8 * D)),
        alert(t, id.gamma, "info-1", "info", "open", ago(30 * MIN)),
        alert(other.tenantId, id.foreign, "foreign-crit", "critical", "open", ago(1 * H)),
      ],
    });
  });
  afterAll(async () => {
    await ctx.db.mcpServer.deleteMany({ where: { tenantId: { in: [ctx.tenantId, other.tenantId] } } });
  });

  it("getOverview() counts servers by status, open alerts by severity, changes, tools and context tokens", async () => {
    const o = await getOverview(ctx, { days: "7" }, NOW);
    expect(o.generatedAt).toBe("2026-12-03T12:00:00.000Z");
    expect(o.servers).toEqual({ total: 3, byStatus: { live: 1, degraded: 1, stopped: 1 } });
    expect(o.openAlerts).toEqual({ total: 4, bySeverity: { critical: 2, high: 1, info: 1 } });
    // 24 h: alpha's change 2 h ago (gamma's is 25 h old; beta's first listing is no change).
    expect(o.changes).toEqual({ last24h: 1, last7d: 3 });
    expect(o.tools).toEqual({ total: 3 + 5 + 2 });
    // Each server's latest snapshot: alpha 300 (not its older 999), beta 500, gamma uncounted;
    // the other team's 7,000 is not ours.
    expect(o.contextTokens).toBe(800);
  });

  it("getOverview() gives changes and opened alerts per UTC day, today last", async () => {
    const o = await getOverview(ctx, { days: "7" }, NOW);
    expect(o.timeline).toEqual({
      timeZone: "UTC",
      days: [
        { day: "2026-11-27", changes: 0, alerts: 0 },
        { day: "2026-11-28", changes: 0, alerts: 0 },
        { day: "2026-11-29", changes: 0, alerts: 1 },
        { day: "2026-11-30", changes: 1, alerts: 1 },
        { day: "2026-12-01", changes: 0, alerts: 0 },
        { day: "2026-12-02", changes: 1, alerts: 1 },
        { day: "2026-12-03", changes: 1, alerts: 2 },
      ],
    });
  });

  it("getOverview() counts the days of the caller's time zone (Auckland is UTC+13 in December)", async () => {
    const o = await getOverview(ctx, { days: "7", tz: "Pacific/Auckland" }, NOW);
    // Now is 2026-12-04 01:00 there. gamma's change at 11:00 UTC on 12-02 is 00:00 on 12-03: that day.
    expect(o.timeline.days).toEqual([
      { day: "2026-11-28", changes: 0, alerts: 0 },
      { day: "2026-11-29", changes: 0, alerts: 0 },
      { day: "2026-11-30", changes: 0, alerts: 1 },
      { day: "2026-12-01", changes: 1, alerts: 1 },
      { day: "2026-12-02", changes: 0, alerts: 1 },
      { day: "2026-12-03", changes: 2, alerts: 0 },
      { day: "2026-12-04", changes: 0, alerts: 2 },
    ]);
  });

  it("getOverview() lists the latest changes and alerts newest first, with server names", async () => {
    const o = await getOverview(ctx, {}, NOW);
    expect(o.timeline.days).toHaveLength(14);
    expect(o.latestChanges.map((c) => [c.serverName, c.takenAt, c.toolCount, c.added, c.removed, c.changed, c.highest])).toEqual([
      ["alpha", "2026-12-03T10:00:00.000Z", 3, 0, 0, 1, "WARN"],
      ["gamma", "2026-12-02T11:00:00.000Z", 2, 0, 1, 0, "ERR"],
      ["alpha", "2026-11-30T12:00:00.000Z", 3, 1, 0, 0, "INFO"],
    ]);
    expect(o.latestAlerts.map((a) => [a.serverName, a.toolName, a.severity, a.status])).toEqual([
      ["gamma", "info-1", "info", "open"],
      ["alpha", "crit-1", "critical", "open"],
      ["alpha", "crit-2", "critical", "open"],
      ["alpha", "high-1", "high", "open"],
      ["alpha", "medium-ack", "medium", "acknowledged"],
      ["alpha", "low-resolved", "low", "resolved"],
    ]);
  });

  it("getOverview() of the other team sees only its own server, change and alert", async () => {
    const o = await getOverview(other, {}, NOW);
    expect(o.servers).toEqual({ total: 1, byStatus: { down: 1 } });
    expect(o.openAlerts).toEqual({ total: 1, bySeverity: { critical: 1 } });
    expect(o.changes).toEqual({ last24h: 1, last7d: 1 });
    expect(o.tools.total).toBe(8);
    expect(o.latestChanges.map((c) => c.serverName)).toEqual(["foreign-server"]);
    expect(o.latestAlerts.map((a) => a.serverName)).toEqual(["foreign-server"]);
  });

  it("getOverview() refuses bad days and unknown time zones as invalid input, naming the parameter", async () => {
    for (const query of [{ days: "3" }, { days: "91" }, { days: "x" }, { tz: "Mars/Olympus_Mons" }, { tz: "'; DROP TABLE alert; --" }]) {
      const error = await getOverview(ctx, query, NOW).catch((e: unknown) => e);
      expect(error, JSON.stringify(query)).toBeInstanceOf(AppError);
      expect((error as AppError).code).toBe("INVALID_INPUT");
      expect(JSON.stringify((error as AppError).details)).toContain(Object.keys(query)[0]);
    }
  });

  it("listFleetRowExtras() folds 24 hourly buckets from the transitions, counts open alerts, and finds nothing of another team", async () => {
    const extras = await listFleetRowExtras(ctx, [id.alpha!, id.beta!, id.gamma!, id.foreign!], NOW);
    const live = (n: number) => Array<string>(n).fill("live");
    const none = (n: number) => Array<null>(n).fill(null);
    // Buckets are clock hours, the current one (12:00–13:00) last, so bucket 0 opens 12-02 13:00.
    // alpha: 06:30 and 06:50 fall in bucket 17, 07:10 in 18 (still down when bucket 18 opened).
    expect(extras.get(id.alpha!)).toEqual({
      statusStrip: { from: "2026-12-02T13:00:00.000Z", bucketMinutes: 60, buckets: [...live(17), "down", "down", ...live(5)] },
      openAlerts: { critical: 2, high: 1 },
    });
    expect(extras.get(id.beta!)).toEqual({ statusStrip: { from: "2026-12-02T13:00:00.000Z", bucketMinutes: 60, buckets: none(24) }, openAlerts: {} });
    // gamma: connecting (10:00 sharp), live and stopped all in bucket 21 (live ranks highest of the three); stopped after.
    expect(extras.get(id.gamma!)!.statusStrip.buckets).toEqual([...none(21), "live", "stopped", "stopped"]);
    expect(extras.get(id.gamma!)!.openAlerts).toEqual({ info: 1 });
    expect(extras.get(id.foreign!)).toEqual({ statusStrip: { from: "2026-12-02T13:00:00.000Z", bucketMinutes: 60, buckets: none(24) }, openAlerts: {} });
  });
});
