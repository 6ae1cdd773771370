import type { Db, Tx } from "@/lib/db";
import { Prisma } from "@/lib/generated/prisma/client";

/** The team's total on one UTC day: the sum over servers of each one's latest snapshot at the day's end. */
export type DailyTeamTokens = {
  /** YYYY-MM-DD (UTC). */
  day: string;
  /** null while no server has a counted snapshot by the end of the day. */
  tokens: number | null;
  /** Servers whose latest snapshot by the end of the day has a count. */
  countedServers: number;
};

type Row = { day: Date | string; tokens: bigint | number; counted: bigint | number };

const utcDay = (date: Date) => date.toISOString().slice(0, 10);

/**
 * The team's context tokens per UTC day for the `days` days ending today, oldest first, in one
 * statement whose cost grows with the snapshots in the window, not with days × servers:
 *
 * - every server's value as the window opens (its latest snapshot before the first day: one probe
 *   of snapshot_server_latest_idx per server), plus every snapshot taken inside the window;
 * - each of those rows changes the team's total by its count minus the same server's previous
 *   row's count (LAG per server), so the changes of one server telescope to its latest count;
 * - a running sum of the changes, day by day, is then the sum of each server's latest count at
 *   that day's end. Uncounted snapshots (NULL) count as 0 and not as a counted server.
 *
 * Deleted servers take their snapshots with them, so they leave the past totals too.
 */
export async function sumTeamTokensPerDay(db: Db | Tx, tenantId: string, days: number, now = new Date()): Promise<DailyTeamTokens[]> {
  const rows = await db.$queryRaw<Row[]>(teamTokensPerDaySql(tenantId, days, now));
  return rows.map((r) => {
    const counted = Number(r.counted);
    return { day: typeof r.day === "string" ? r.day.slice(0, 10) : utcDay(r.day), tokens: counted > 0 ? Number(r.tokens) : null, countedServers: counted };
  });
}

/** The statement alone, for EXPLAIN (bench/context-budget-trend.ts). */
export function teamTokensPerDaySql(tenantId: string, days: number, now: Date): Prisma.Sql {
  // The bounds as parameters, not computed in SQL: the planner then sees them as constants and
  // reads only the window's rows from the snapshot indexes.
  const today = utcDay(now);
  const firstDay = new Date(`${today}T00:00:00Z`);
  firstDay.setUTCDate(firstDay.getUTCDate() - (days - 1));
  const opensAt = firstDay;
  const closesAt = new Date(`${today}T00:00:00Z`);
  closesAt.setUTCDate(closesAt.getUTCDate() + 1);
  return Prisma.sql`
    WITH bounds AS (SELECT ${utcDay(firstDay)}::date AS first_day),
    points AS (
      SELECT m.id AS server_id, o.taken_at, o.id, o.context_tokens
        FROM mcp_server m
        CROSS JOIN LATERAL (
          SELECT sn.taken_at, sn.id, sn.context_tokens FROM snapshot sn
           WHERE sn.server_id = m.id AND sn.tenant_id = m.tenant_id AND sn.taken_at < ${opensAt}::timestamptz
           ORDER BY sn.taken_at DESC, sn.id DESC LIMIT 1
        ) o
       WHERE m.tenant_id = ${tenantId}::uuid
      UNION ALL
      SELECT sn.server_id, sn.taken_at, sn.id, sn.context_tokens
        FROM snapshot sn
       WHERE sn.tenant_id = ${tenantId}::uuid AND sn.taken_at >= ${opensAt}::timestamptz AND sn.taken_at < ${closesAt}::timestamptz
    ),
    steps AS (
      SELECT GREATEST((p.taken_at AT TIME ZONE 'UTC')::date, b.first_day) AS day,
             COALESCE(p.context_tokens, 0) - COALESCE(LAG(p.context_tokens) OVER w, 0) AS tokens,
             (p.context_tokens IS NOT NULL)::int - (LAG(p.context_tokens) OVER w IS NOT NULL)::int AS counted
        FROM points p CROSS JOIN bounds b
      WINDOW w AS (PARTITION BY p.server_id ORDER BY p.taken_at, p.id)
    ),
    per_day AS (SELECT day, sum(tokens) AS tokens, sum(counted) AS counted FROM steps GROUP BY day)
    SELECT d.day::date AS day,
           sum(COALESCE(p.tokens, 0)) OVER (ORDER BY d.day)::bigint AS tokens,
           sum(COALESCE(p.counted, 0)) OVER (ORDER BY d.day)::bigint AS counted
      FROM bounds b
     CROSS JOIN LATERAL generate_series(b.first_day, ${today}::date, interval '1 day') AS d(day)
      LEFT JOIN per_day p ON p.day = d.day::date
     ORDER BY d.day`;
}
