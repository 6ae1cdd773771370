import type { ServiceContext } from "@/lib/context";
import { Prisma } from "@/lib/generated/prisma/client";
import type { SeverityCounts } from "./server-dto";
import { foldStatusStrip, stripWindow, STRIP_BUCKET_MS, STRIP_BUCKETS, type BucketGroup, type StatusStrip } from "./status-strip";

// What the fleet table shows next to each server of the visible page, beyond its summary: the
// last 24 h of its status history and its open alerts by severity. One statement for the whole
// page (not one per server): per id, an index probe on session_transition(tenant_id, server_id,
// at) for the status held when the window opened, the window's transitions grouped per bucket in
// SQL (a flapping server still answers at most 24 small groups), and the open alerts counted on
// alert(tenant_id, server_id, …).

export type FleetRowExtras = { statusStrip: StatusStrip; openAlerts: SeverityCounts };

type Row = { id: string; startStatus: string | null; groups: BucketGroup[] | null; openAlerts: SeverityCounts | null };

/** The statement itself (exported for EXPLAIN in the tests). */
export function fleetRowExtrasSql(ctx: ServiceContext, serverIds: string[], window: { from: Date; to: Date }): Prisma.Sql {
  return Prisma.sql`
    SELECT p.id::text AS id,
      (SELECT t.to_status::text FROM session_transition t
        WHERE t.tenant_id = ${ctx.tenantId}::uuid AND t.server_id = p.id AND t.at < ${window.from}
        ORDER BY t.at DESC, t.id DESC LIMIT 1) AS "startStatus",
      (SELECT jsonb_agg(jsonb_build_object('b', g.b, 'seen', g.seen, 'last', g.last, 'firstMs', g.first_ms)) FROM (
        SELECT floor(extract(epoch FROM t.at - ${window.from}::timestamptz) * 1000 / ${STRIP_BUCKET_MS})::int AS b,
          array_agg(DISTINCT t.to_status::text) AS seen,
          (array_agg(t.to_status::text ORDER BY t.at DESC, t.id DESC))[1] AS last,
          floor(extract(epoch FROM min(t.at) - ${window.from}::timestamptz) * 1000)::bigint AS first_ms
        FROM session_transition t
        WHERE t.tenant_id = ${ctx.tenantId}::uuid AND t.server_id = p.id AND t.at >= ${window.from} AND t.at < ${window.to}
        GROUP BY 1) g) AS groups,
      (SELECT jsonb_object_agg(c.severity, c.n) FROM (
        SELECT a.severity::text AS severity, count(*)::int AS n FROM alert a
        WHERE a.tenant_id = ${ctx.tenantId}::uuid AND a.server_id = p.id AND a.status = 'open'
        GROUP BY a.severity) c) AS "openAlerts"
    FROM unnest(${serverIds}::uuid[]) AS p(id)`;
}

/** Strips and open-alert counts for these servers of the team (others' ids simply find nothing). */
export async function listFleetRowExtras(ctx: ServiceContext, serverIds: string[], now = new Date()): Promise<Map<string, FleetRowExtras>> {
  const out = new Map<string, FleetRowExtras>();
  if (serverIds.length === 0) return out;
  const window = stripWindow(now);
  const rows = await ctx.db.$queryRaw<Row[]>(fleetRowExtrasSql(ctx, serverIds, window));
  for (const r of rows) {
    out.set(r.id, { statusStrip: foldStatusStrip(window.from, r.startStatus, r.groups ?? [], STRIP_BUCKETS, STRIP_BUCKET_MS), openAlerts: r.openAlerts ?? {} });
  }
  return out;
}
