import { z } from "zod";
import type { AlertKindName, AlertStatusName } from "@/lib/alerts/alert-dto";
import type { Severity } from "@/lib/detection/types";
import { requirePermission } from "@/lib/auth/permissions";
import { Prisma } from "@/lib/generated/prisma/client";
import type { ServiceContext } from "@/lib/context";
import { decodeCursor, encodeCursor, PageParams } from "@/lib/pagination";
import { parseInput } from "@/lib/validation";
import type { Collision, CollisionAlertLink, CollisionPage } from "./collision-dto";
import { qualifiedNames } from "./qualified-names";

export const MAX_SERVERS_PER_COLLISION = 50;
const CURSOR_KIND = "collisions";

export const ListCollisionsQuery = z.object({ ...PageParams });

type NameRow = { name: string; server_count: number; definition_count: number; servers: { serverId: string; serverName: string; since: string; hash: string }[] };
type AlertRow = { id: string; tool_name: string; kind: AlertKindName; severity: Severity; status: AlertStatusName; title: string; server_id: string };

/**
 * Tool names two or more of the team's servers offer now, by name, from the tool-name index
 * (tool_name_entry, one row per name of each server's latest snapshot). The names of a page come
 * from one walk of the (tenant_id, name, hash) index that stops after `limit` colliding names, so
 * a page costs the same at 2,000 servers as at 20 (docs/search-and-collisions.md has the plan).
 */
export async function listCollisions(ctx: ServiceContext, rawQuery: unknown): Promise<CollisionPage> {
  requirePermission(ctx, "team:read");
  const { limit, cursor } = parseInput(ListCollisionsQuery, rawQuery);
  const after = cursor ? (decodeCursor(cursor, CURSOR_KIND, ["string"])[0] as string) : null;

  const rows = await ctx.db.$queryRaw<NameRow[]>(collisionPageSql(ctx.tenantId, after, limit + 1));
  const page = rows.slice(0, limit);
  const alerts = await alertsFor(ctx, page.map((r) => r.name));
  return {
    items: page.map((row) => toCollision(row, alerts.get(row.name) ?? [])),
    nextCursor: rows.length > limit ? encodeCursor(CURSOR_KIND, [page.at(-1)!.name]) : null,
  };
}

/** One page of colliding names with their servers (exported for the plan check in the scale test). */
export function collisionPageSql(tenantId: string, after: string | null, take: number): Prisma.Sql {
  return Prisma.sql`
    WITH names AS (
      SELECT e.name, count(*)::int AS server_count, count(DISTINCT e.hash)::int AS definition_count
        FROM tool_name_entry e
       WHERE e.tenant_id = ${tenantId}::uuid AND e.name > ${after ?? ""}
       GROUP BY e.name
      HAVING count(*) > 1
       ORDER BY e.name
       LIMIT ${take}
    )
    SELECT n.name, n.server_count, n.definition_count, s.servers
      FROM names n
      CROSS JOIN LATERAL (
        SELECT coalesce(jsonb_agg(jsonb_build_object('serverId', x.server_id, 'serverName', x.server_name, 'since', x.created_at, 'hash', x.hash)
                                  ORDER BY x.created_at, x.server_name, x.server_id), '[]'::jsonb) AS servers
          FROM (SELECT e.server_id, m.name AS server_name, e.created_at, e.hash
                  FROM tool_name_entry e JOIN mcp_server m ON m.id = e.server_id AND m.tenant_id = ${tenantId}::uuid
                 WHERE e.tenant_id = ${tenantId}::uuid AND e.name = n.name
                 ORDER BY e.created_at, m.name, e.server_id
                 LIMIT ${MAX_SERVERS_PER_COLLISION}) AS x
      ) AS s
     ORDER BY n.name`;
}

/**
 * The unresolved alerts about these names: the name_collision alert, and suspicious_content alerts
 * on a tool of that name with a cross-server finding (R19 shadowing, R20 steering, R21 look-alikes).
 */
async function alertsFor(ctx: ServiceContext, names: string[]): Promise<Map<string, CollisionAlertLink[]>> {
  const out = new Map<string, CollisionAlertLink[]>();
  if (names.length === 0) return out;
  const rows = await ctx.db.$queryRaw<AlertRow[]>`
    SELECT a.id, a.tool_name, a.kind::text AS kind, a.severity::text AS severity, a.status::text AS status, a.title, a.server_id
      FROM alert a
     WHERE a.tenant_id = ${ctx.tenantId}::uuid AND a.status IN ('open', 'acknowledged') AND a.tool_name = ANY(${names}::text[])
       AND (a.kind = 'name_collision'
            OR (a.kind = 'suspicious_content' AND a.findings @? '$[*] ? (@.ruleId == "R19" || @.ruleId == "R20" || @.ruleId == "R21")'))
     ORDER BY a.created_at DESC, a.id DESC`;
  for (const r of rows) {
    const list = out.get(r.tool_name) ?? [];
    list.push({ id: r.id, kind: r.kind, severity: r.severity, status: r.status, title: r.title, serverId: r.server_id });
    out.set(r.tool_name, list);
  }
  return out;
}

function toCollision(row: NameRow, alerts: CollisionAlertLink[]): Collision {
  const definitions = new Map<string, number>();
  return {
    toolName: row.name,
    serverCount: row.server_count,
    definitionCount: row.definition_count,
    servers: row.servers.map((s) => {
      if (!definitions.has(s.hash)) definitions.set(s.hash, definitions.size + 1);
      return { serverId: s.serverId, serverName: s.serverName, since: new Date(s.since).toISOString(), definition: definitions.get(s.hash)!, qualifiedNames: qualifiedNames(s.serverName, row.name) };
    }),
    alerts,
  };
}
