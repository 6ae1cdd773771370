import "@/tests/helpers/test-env";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { ServiceContext } from "@/lib/context";
import type { Prisma } from "@/lib/generated/prisma/client";
import { getOverview, overviewCountsSql, overviewTimelineSql } from "@/lib/overview/get-overview";
import { fleetRowExtrasSql, listFleetRowExtras } from "@/lib/servers/list-fleet-row-extras";
import { stripWindow } from "@/lib/servers/status-strip";
import { connectionColumns } from "@/lib/servers/connection-columns";
import { createTenantContext, TEST_KEY } from "@/tests/helpers/factories";

// The overview and the fleet strips at the fleet size of issue 17 (2,000 servers, 100,000
// snapshots over 30 days, 10,000 transitions, 5,000 alerts), written with generate_series in a
// few statements. EXPLAIN ANALYZE must show index scans on the big tables, never a sequential
// scan of snapshot, alert or session_transition (a sequential scan of a 2,000-row server table
// for the per-status count is fine), and the answers must match counts derived from the plan.

const SERVERS = 2_000;
const SNAPSHOTS_PER_SERVER = 50;
const NOW = new Date("2026-12-03T12:00:00.000Z");

type PlanNode = { "Node Type": string; "Relation Name"?: string; "Index Name"?: string; Plans?: PlanNode[] };
const nodes = (n: PlanNode): PlanNode[] => [n, ...(n.Plans ?? []).flatMap(nodes)];

describe("overview at fleet size", () => {
  let ctx: ServiceContext;

  async function explain(sql: Prisma.Sql): Promise<{ scans: string[]; ms: number }> {
    const rows = await ctx.db.$queryRawUnsafe<{ "QUERY PLAN": [{ Plan: PlanNode; "Execution Time": number }] }[]>(`EXPLAIN (ANALYZE, FORMAT JSON) ${sql.text}`, ...sql.values);
    const plan = rows[0]!["QUERY PLAN"][0];
    const scans = nodes(plan.Plan)
      .filter((n) => n["Relation Name"] || n["Index Name"]) // a Bitmap Index Scan names only its index
      .map((n) => `${n["Node Type"]} ${n["Relation Name"] ?? ""}${n["Index Name"] ? ` (${n["Index Name"]})` : ""}`);
    return { scans, ms: plan["Execution Time"] };
  }

  beforeAll(async () => {
    ctx = await createTenantContext("overview-scale");
    const t = ctx.tenantId;
    const db = ctx.db;
    const connection = connectionColumns(TEST_KEY, { transport: "streamable_http", url: "http://127.0.0.1:9/mcp", headers: {} });
    await db.mcpServer.createMany({ data: Array.from({ length: SERVERS }, (_, i) => ({ tenantId: t, name: `srv-${String(i).padStart(4, "0")}`, ...connection })) });
    // Status by i % 4: live, live, degraded, down.
    await db.$executeRaw`
      INSERT INTO server_session (server_id, tenant_id, status, updated_at)
      SELECT m.id, m.tenant_id, (ARRAY['live','live','degraded','down'])[(substr(m.name, 5)::int % 4) + 1]::session_status, now()
      FROM mcp_server m WHERE m.tenant_id = ${t}::uuid`;
    // Snapshot k of each server (k = 0…49) taken (49 − k) × 14.4 h before now: the newest at now,
    // the oldest 29.4 days ago. k = 0 is the first listing (no diff); tool_count = k.
    await db.$executeRaw`
      INSERT INTO snapshot (id, tenant_id, server_id, content_hash, tool_count, trigger, taken_at, last_confirmed_at, tool_version_ids, diff_summary)
      SELECT gen_random_uuid(), m.tenant_id, m.id, m.id::text || '-' || k, k, 'poll',
        ${NOW}::timestamptz - ((${SNAPSHOTS_PER_SERVER - 1} - k) * interval '864 minutes'),
        ${NOW}::timestamptz, '{}',
        CASE WHEN k = 0 THEN NULL ELSE '{"added":1,"removed":0,"changed":0,"renamed":0,"orderOnly":false,"highest":"INFO","levels":{"ERR":0,"WARN":0,"INFO":1}}'::jsonb END
      FROM mcp_server m CROSS JOIN generate_series(0, ${SNAPSHOTS_PER_SERVER - 1}) k WHERE m.tenant_id = ${t}::uuid`;
    // Five transitions per server in the last day, 4 h apart from 20 h ago.
    await db.$executeRaw`
      INSERT INTO session_transition (tenant_id, server_id, from_status, to_status, at)
      SELECT m.tenant_id, m.id, 'live', (ARRAY['degraded','live'])[(j % 2) + 1]::session_status, ${NOW}::timestamptz - ((20 - 4 * j) * interval '1 hour')
      FROM mcp_server m CROSS JOIN generate_series(0, 4) j WHERE m.tenant_id = ${t}::uuid`;
    // Every 4th server has 10 alerts, one a day for the last 10 days; the newest two are open.
    await db.$executeRaw`
      INSERT INTO alert (id, tenant_id, server_id, kind, severity, status, title, dedupe_key, created_at, updated_at)
      SELECT gen_random_uuid(), m.tenant_id, m.id, 'tool_changed', (CASE WHEN d = 0 THEN 'critical' ELSE 'medium' END)::alert_severity,
        (CASE WHEN d < 2 THEN 'open' ELSE 'resolved' END)::alert_status, 'changed', 'k' || d, ${NOW}::timestamptz - (d * interval '1 day') - interval '1 minute', now()
      FROM mcp_server m CROSS JOIN generate_series(0, 9) d WHERE m.tenant_id = ${t}::uuid AND substr(m.name, 5)::int % 4 = 0`;
    await db.$executeRawUnsafe("ANALYZE mcp_server, server_session, snapshot, session_transition, alert");
  }, 120_000);
  afterAll(async () => {
    await ctx.db.mcpServer.deleteMany({ where: { tenantId: ctx.tenantId } });
  });

  it("getOverview() answers counts derived from the plan above", async () => {
    const o = await getOverview(ctx, { days: "30" }, NOW);
    expect(o.servers).toEqual({ total: 2_000, byStatus: { live: 1_000, degraded: 500, down: 500 } });
    // 500 servers × 2 open alerts (today's critical, yesterday's medium).
    expect(o.openAlerts).toEqual({ total: 1_000, bySeverity: { critical: 500, medium: 500 } });
    // Snapshots 14.4 h apart ending at now: within 24 h the ones 0 and 14.4 h old (2 per server);
    // within 7 d those up to 158.4 h old (12 per server). None of them is a first listing.
    expect(o.changes).toEqual({ last24h: 4_000, last7d: 24_000 });
    expect(o.tools.total).toBe(2_000 * 49);
    expect(o.timeline.days).toHaveLength(30);
    expect(o.timeline.days.reduce((n, d) => n + d.changes, 0)).toBe(2_000 * 49);
    expect(o.timeline.days.at(-1)).toEqual({ day: "2026-12-03", changes: expect.any(Number), alerts: 500 });
    expect(o.latestChanges).toHaveLength(10);
    expect(o.latestAlerts).toHaveLength(10);
  });

  it("EXPLAIN: the counts and the timeline read snapshot and alert through indexes", async () => {
    const counts = await explain(overviewCountsSql(ctx, NOW));
    const timeline = await explain(overviewTimelineSql(ctx, NOW, 30, "UTC"));
    for (const { scans } of [counts, timeline]) {
      expect(scans.filter((s) => /^Seq Scan (snapshot|alert|session_transition)$/.test(s))).toEqual([]);
    }
    expect(counts.scans.some((s) => s.includes("snapshot_tenant_id_taken_at_idx"))).toBe(true);
    expect(timeline.scans.some((s) => s.includes("snapshot_tenant_id_taken_at_idx"))).toBe(true);
    expect(timeline.scans.some((s) => /alert \(alert_tenant_id_created_at_id_idx\)/.test(s))).toBe(true);
    console.log(`overview counts ${counts.ms.toFixed(1)} ms: ${counts.scans.join("; ")}\ntimeline ${timeline.ms.toFixed(1)} ms: ${timeline.scans.join("; ")}`);
  });

  it("EXPLAIN: a page of 100 strips probes session_transition and alert by server, no sequential scan", async () => {
    const ids = (await ctx.db.mcpServer.findMany({ where: { tenantId: ctx.tenantId }, select: { id: true }, orderBy: { name: "asc" }, take: 100 })).map((s) => s.id);
    const { scans, ms } = await explain(fleetRowExtrasSql(ctx, ids, stripWindow(NOW)));
    expect(scans.filter((s) => s.startsWith("Seq Scan"))).toEqual([]);
    expect(scans.some((s) => s.includes("session_transition_tenant_id_server_id_at_idx"))).toBe(true);
    console.log(`fleet strips for 100 servers ${ms.toFixed(1)} ms: ${[...new Set(scans)].join("; ")}`);
    const extras = await listFleetRowExtras(ctx, ids, NOW);
    // srv-0000, with bucket 0 opening 23 h before the current hour: nothing before the window;
    // degraded 20 h ago (bucket 3), live 16 h ago (7), degraded 12 h ago, live 8 h ago, degraded 4 h ago (19) until now.
    const n = (k: number, s: string | null) => Array<string | null>(k).fill(s);
    expect(extras.get(ids[0]!)!.statusStrip.buckets).toEqual([...n(3, null), ...n(4, "degraded"), ...n(4, "live"), ...n(4, "degraded"), ...n(4, "live"), ...n(5, "degraded")]);
    expect(extras.get(ids[0]!)!.openAlerts).toEqual({ critical: 1, medium: 1 });
    expect(extras.get(ids[1]!)!.openAlerts).toEqual({});
  });
});
