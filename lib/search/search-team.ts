import { z } from "zod";
import type { AlertKindName, AlertStatusName } from "@/lib/alerts/alert-dto";
import type { Severity } from "@/lib/detection/types";
import { requirePermission } from "@/lib/auth/permissions";
import { Prisma } from "@/lib/generated/prisma/client";
import type { ServiceContext } from "@/lib/context";
import { parseInput } from "@/lib/validation";
import { MAX_SEARCH_QUERY, SEARCH_LIMIT, type AlertHit, type SearchResult, type ServerHit, type ToolHit } from "./search-dto";

export const SearchQuery = z.object({
  q: z
    .string({ error: "q is required" })
    .transform((s) => s.trim())
    .pipe(z.string().min(1, "q must not be empty").max(MAX_SEARCH_QUERY, `q is at most ${MAX_SEARCH_QUERY} characters`)),
});

// Each group first takes up to CANDIDATES matches in index order (a trigram GIN index answers the
// ILIKE, migrations 20261203120000 and 20261206090000), then ranks only those: exact, then prefix, then the rest. A
// query that matches half the fleet ("get") costs CANDIDATES rows, not half the fleet.
const CANDIDATES = 200;

/** `%`, `_` and `\` match themselves: the query is a substring, not a pattern. */
const likeEscape = (s: string) => s.replace(/[\\%_]/g, (c) => `\\${c}`);

/**
 * The team's servers by name, current tools (of each server's latest snapshot) by name and
 * description, and alerts by title, SEARCH_LIMIT of each. Viewers may search.
 */
export async function searchTeam(ctx: ServiceContext, rawQuery: unknown): Promise<SearchResult> {
  requirePermission(ctx, "team:read");
  const { q } = parseInput(SearchQuery, rawQuery);
  const contains = `%${likeEscape(q)}%`;
  const prefix = `${likeEscape(q)}%`;
  const [servers, tools, alerts] = await Promise.all([searchServers(ctx, q, contains, prefix), searchTools(ctx, q), searchAlerts(ctx, contains)]);
  return { query: q, servers, tools, alerts };
}

function searchServers(ctx: ServiceContext, q: string, contains: string, prefix: string): Promise<ServerHit[]> {
  return ctx.db.$queryRaw<ServerHit[]>`
    SELECT c.id, c.name, s.status::text AS status
      FROM (SELECT m.id, m.name FROM mcp_server m
             WHERE m.tenant_id = ${ctx.tenantId}::uuid AND m.name ILIKE ${contains}
             LIMIT ${CANDIDATES}) AS c
      LEFT JOIN server_session s ON s.server_id = c.id
     ORDER BY lower(c.name) = lower(${q}) DESC, c.name ILIKE ${prefix} DESC, lower(c.name), c.id
     LIMIT ${SEARCH_LIMIT}`;
}

/**
 * Current tools only: the tool-name index holds one row per name of each server's latest snapshot,
 * with its description, and carries the trigram indexes (migration 20261206090000; history in
 * tool_version is not indexed for search). Name matches rank before description matches.
 */
async function searchTools(ctx: ServiceContext, q: string): Promise<ToolHit[]> {
  const rows = await ctx.db.$queryRaw<(ToolHit & { rank: number })[]>(toolSearchSql(ctx.tenantId, q));
  return rows.map(({ rank: _rank, ...hit }) => hit);
}

/** The tool query (exported for the plan check in the scale test). */
export function toolSearchSql(tenantId: string, q: string): Prisma.Sql {
  const contains = `%${likeEscape(q)}%`;
  const prefix = `${likeEscape(q)}%`;
  return Prisma.sql`
    SELECT c.server_id AS "serverId", m.name AS "serverName", c.name, c.description, c.rank
      FROM (SELECT e.server_id, e.name, left(e.description, 200) AS description,
                   CASE WHEN lower(e.name) = lower(${q}) THEN 0 WHEN e.name ILIKE ${prefix} THEN 1 WHEN e.name ILIKE ${contains} THEN 2 ELSE 3 END AS rank
              FROM tool_name_entry e
             WHERE e.tenant_id = ${tenantId}::uuid
               AND (e.name ILIKE ${contains} OR e.description ILIKE ${contains})
             LIMIT ${CANDIDATES}) AS c
      JOIN mcp_server m ON m.id = c.server_id AND m.tenant_id = ${tenantId}::uuid
     ORDER BY c.rank, lower(c.name), lower(m.name), c.server_id
     LIMIT ${SEARCH_LIMIT}`;
}

type AlertRow = { id: string; serverId: string; serverName: string; kind: AlertKindName; severity: Severity; status: AlertStatusName; title: string };

/** Unresolved alerts first, then newest. */
function searchAlerts(ctx: ServiceContext, contains: string): Promise<AlertHit[]> {
  return ctx.db.$queryRaw<AlertRow[]>`
    SELECT c.id, c.server_id AS "serverId", m.name AS "serverName", c.kind::text AS kind, c.severity::text AS severity, c.status::text AS status, c.title
      FROM (SELECT a.id, a.server_id, a.kind, a.severity, a.status, a.title, a.created_at
              FROM alert a
             WHERE a.tenant_id = ${ctx.tenantId}::uuid AND a.title ILIKE ${contains}
             ORDER BY a.created_at DESC
             LIMIT ${CANDIDATES}) AS c
      JOIN mcp_server m ON m.id = c.server_id AND m.tenant_id = ${ctx.tenantId}::uuid
     ORDER BY c.status = 'resolved', c.created_at DESC, c.id DESC
     LIMIT ${SEARCH_LIMIT}`;
}
