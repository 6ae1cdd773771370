import type { AlertKindName, AlertStatusName } from "@/lib/alerts/alert-dto";
import type { Severity } from "@/lib/detection/types";
import { requirePermission } from "@/lib/auth/permissions";
import type { ServiceContext } from "@/lib/context";
import { Prisma } from "@/lib/generated/prisma/client";
import { SERVER_STATUS_SQL } from "@/lib/servers/list-servers";
import { cachedServerPage } from "@/lib/servers/server-page-cache";
import type { StoredDiffSummary } from "@/lib/snapshots/summarize-change";
import { parseInput } from "@/lib/validation";
import { OVERVIEW_FEED_SIZE, OverviewQuery, type Overview, type OverviewAlert, type OverviewChange } from "./overview-dto";

// The team at a glance, aggregated in Postgres (a team may have 2,000 servers and 100,000
// snapshots; nothing is counted in JS). Every read is a range or probe on an index that starts
// with tenant_id: the fleet's status as the fleet list computes it (server_session by primary
// key), open alerts on alert(tenant_id, status, created_at), changes on snapshot(tenant_id,
// taken_at), the latest tool count per server on snapshot_server_latest_idx. A "change" is a
// snapshot with a previous one to differ from (diff_summary set): a server's first listing is not.

const STATUS = SERVER_STATUS_SQL;

type CountsRow = {
  byStatus: Record<string, number> | null;
  openBySeverity: Record<string, number> | null;
  changes24h: number;
  changes7d: number;
  toolTotal: number;
  /** Context tokens of each server's latest snapshot, and how many of those are counted. */
  tokenTotal: number;
  tokenCounted: number;
};

/** The counts statement (exported for EXPLAIN in the tests). */
export function overviewCountsSql(ctx: ServiceContext, now: Date): Prisma.Sql {
  const tenant = Prisma.sql`${ctx.tenantId}::uuid`;
  const day = new Date(now.getTime() - 24 * 3600_000);
  const week = new Date(now.getTime() - 7 * 24 * 3600_000);
  return Prisma.sql`
    SELECT
      (SELECT jsonb_object_agg(c.status, c.n) FROM (
        SELECT ${STATUS} AS status, count(*)::int AS n
        FROM mcp_server m LEFT JOIN server_session ss ON ss.server_id = m.id
        WHERE m.tenant_id = ${tenant} GROUP BY 1) c) AS "byStatus",
      (SELECT jsonb_object_agg(c.severity, c.n) FROM (
        SELECT a.severity::text AS severity, count(*)::int AS n FROM alert a
        WHERE a.tenant_id = ${tenant} AND a.status = 'open' GROUP BY 1) c) AS "openBySeverity",
      (SELECT count(*)::int FROM snapshot s
        WHERE s.tenant_id = ${tenant} AND s.taken_at > ${day} AND s.taken_at <= ${now} AND s.diff_summary IS NOT NULL) AS "changes24h",
      (SELECT count(*)::int FROM snapshot s
        WHERE s.tenant_id = ${tenant} AND s.taken_at > ${week} AND s.taken_at <= ${now} AND s.diff_summary IS NOT NULL) AS "changes7d",
      l."toolTotal", l."tokenTotal", l."tokenCounted"
    FROM (SELECT COALESCE(sum(latest.tool_count), 0)::int AS "toolTotal",
                 COALESCE(sum(latest.context_tokens), 0)::int AS "tokenTotal",
                 count(latest.context_tokens)::int AS "tokenCounted"
          FROM mcp_server m
          CROSS JOIN LATERAL (
            SELECT sn.tool_count, sn.context_tokens FROM snapshot sn WHERE sn.server_id = m.id
            ORDER BY sn.taken_at DESC, sn.id DESC LIMIT 1) latest
          WHERE m.tenant_id = ${tenant}) l`;
}

/**
 * Changes and alerts per local day: each day is its own range probe on the two time indexes
 * (at most 90), so no row outside the window is read. `d` is a local midnight; AT TIME ZONE turns
 * it back into the instant it is in that zone (23- and 25-hour days included).
 */
export function overviewTimelineSql(ctx: ServiceContext, now: Date, days: number, tz: string): Prisma.Sql {
  const tenant = Prisma.sql`${ctx.tenantId}::uuid`;
  return Prisma.sql`
    SELECT to_char(d, 'YYYY-MM-DD') AS day,
      (SELECT count(*)::int FROM snapshot s
        WHERE s.tenant_id = ${tenant} AND s.diff_summary IS NOT NULL
          AND s.taken_at >= (d AT TIME ZONE ${tz}) AND s.taken_at < ((d + interval '1 day') AT TIME ZONE ${tz})) AS changes,
      (SELECT count(*)::int FROM alert a
        WHERE a.tenant_id = ${tenant}
          AND a.created_at >= (d AT TIME ZONE ${tz}) AND a.created_at < ((d + interval '1 day') AT TIME ZONE ${tz})) AS alerts
    FROM generate_series(
      date_trunc('day', ${now}::timestamptz AT TIME ZONE ${tz}) - (${days - 1}::int * interval '1 day'),
      date_trunc('day', ${now}::timestamptz AT TIME ZONE ${tz}),
      interval '1 day') AS d
    ORDER BY d`;
}

type ChangeRow = { snapshotId: string; serverId: string; serverName: string; takenAt: Date; toolCount: number; diffSummary: StoredDiffSummary };
type AlertRow = { id: string; serverId: string; serverName: string; kind: AlertKindName; severity: Severity; status: AlertStatusName; title: string; toolName: string | null; createdAt: Date };

async function latestChanges(ctx: ServiceContext): Promise<OverviewChange[]> {
  const rows = await ctx.db.$queryRaw<ChangeRow[]>`
    SELECT s.id::text AS "snapshotId", s.server_id::text AS "serverId", m.name AS "serverName", s.taken_at AS "takenAt",
      s.tool_count AS "toolCount", s.diff_summary AS "diffSummary"
    FROM snapshot s JOIN mcp_server m ON m.id = s.server_id AND m.tenant_id = s.tenant_id
    WHERE s.tenant_id = ${ctx.tenantId}::uuid AND s.diff_summary IS NOT NULL
    ORDER BY s.taken_at DESC, s.id DESC LIMIT ${OVERVIEW_FEED_SIZE}`;
  return rows.map((r) => ({
    snapshotId: r.snapshotId, serverId: r.serverId, serverName: r.serverName, takenAt: r.takenAt.toISOString(), toolCount: r.toolCount,
    added: r.diffSummary.added ?? 0, removed: r.diffSummary.removed ?? 0, changed: r.diffSummary.changed ?? 0, highest: r.diffSummary.highest ?? null,
  }));
}

async function latestAlerts(ctx: ServiceContext): Promise<OverviewAlert[]> {
  const rows = await ctx.db.$queryRaw<AlertRow[]>`
    SELECT a.id::text AS id, a.server_id::text AS "serverId", m.name AS "serverName", a.kind::text AS kind, a.severity::text AS severity,
      a.status::text AS status, a.title, a.tool_name AS "toolName", a.created_at AS "createdAt"
    FROM alert a JOIN mcp_server m ON m.id = a.server_id AND m.tenant_id = a.tenant_id
    WHERE a.tenant_id = ${ctx.tenantId}::uuid
    ORDER BY a.created_at DESC, a.id DESC LIMIT ${OVERVIEW_FEED_SIZE}`;
  return rows.map((r) => ({ ...r, createdAt: r.createdAt.toISOString() }));
}

const sum = (counts: Record<string, number>) => Object.values(counts).reduce((a, b) => a + b, 0);

/**
 * The overview of the caller's team: servers by status, open alerts by severity, changes in the
 * last 24 h and 7 d, tools in total, a per-day timeline of changes and alerts, and the latest of
 * each. `rawQuery`: `days` (7–90, default 14) and `tz` (IANA name, default UTC) for the timeline.
 */
export async function getOverview(ctx: ServiceContext, rawQuery: unknown, now = new Date()): Promise<Overview> {
  requirePermission(ctx, "team:read");
  const q = parseInput(OverviewQuery, rawQuery);
  // A browser refetches on every change of its team; between changes repeated answers come from
  // memory, invalidated by the same events as the fleet list (and never older than 5 s).
  return cachedServerPage(ctx.tenantId, `overview\n${q.days}\n${q.tz}`, () => readOverview(ctx, q, now));
}

async function readOverview(ctx: ServiceContext, q: OverviewQuery, now: Date): Promise<Overview> {
  const [[counts], timeline, changes, alerts] = await Promise.all([
    ctx.db.$queryRaw<CountsRow[]>(overviewCountsSql(ctx, now)),
    ctx.db.$queryRaw<{ day: string; changes: number; alerts: number }[]>(overviewTimelineSql(ctx, now, q.days, q.tz)),
    latestChanges(ctx),
    latestAlerts(ctx),
  ]);
  const byStatus = counts?.byStatus ?? {};
  const bySeverity = counts?.openBySeverity ?? {};
  return {
    generatedAt: now.toISOString(),
    servers: { total: sum(byStatus), byStatus },
    openAlerts: { total: sum(bySeverity), bySeverity },
    changes: { last24h: counts?.changes24h ?? 0, last7d: counts?.changes7d ?? 0 },
    tools: { total: counts?.toolTotal ?? 0 },
    // null until at least one server's latest snapshot is counted (a fresh instance backfills).
    contextTokens: counts && counts.tokenCounted > 0 ? counts.tokenTotal : null,
    timeline: { timeZone: q.tz, days: timeline },
    latestChanges: changes,
    latestAlerts: alerts,
  };
}
