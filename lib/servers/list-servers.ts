import { requirePermission } from "@/lib/auth/permissions";
import type { ServiceContext } from "@/lib/context";
import { Prisma } from "@/lib/generated/prisma/client";
import { decodeCursor, encodeCursor, type CursorField, type CursorValue } from "@/lib/pagination";
import { getSecretKey } from "@/lib/secrets";
import { invalidInput } from "@/lib/validation";
import type { SORT_KEYS } from "@/lib/views/view-input";
import { listFleetRowExtras } from "./list-fleet-row-extras";
import type { FleetServer, Page, ServerSummary } from "./server-dto";
import { ListServersQuery, type ServerPageCounts } from "./server-list-query";
import { cachedServerPage } from "./server-page-cache";
import { toServerSummary, type ServerRow } from "./to-server-summary";

// The fleet list in one SQL statement: filter → keyset page → per-row latest snapshot (LATERAL on
// snapshot(tenant_id, server_id, taken_at DESC)) and snapshot count, with the filtered set's
// totals by status aggregated alongside. Order: the sort key (missing values last either way),
// then name, then id — the same order lib/views/match-servers.ts sortServers gives, made total.

type SortKey = (typeof SORT_KEYS)[number];
type Sort = { by: SortKey; dir: "asc" | "desc" };
type Filters = Pick<ListServersQuery, "tag" | "status" | "transport" | "q">;

/** A server's fleet status (stopped when disabled, pending before its first session), over `mcp_server m` and `server_session ss`; the overview counts by it too. */
export const SERVER_STATUS_SQL = Prisma.sql`(CASE WHEN NOT m.enabled THEN 'stopped' ELSE COALESCE(ss.status::text, 'pending') END)`;
const STATUS = SERVER_STATUS_SQL;
const LATEST_TOOL_COUNT = Prisma.sql`(SELECT sn.tool_count FROM snapshot sn WHERE sn.tenant_id = m.tenant_id AND sn.server_id = m.id ORDER BY sn.taken_at DESC, sn.id DESC LIMIT 1)`;
const SORT_SQL: Record<SortKey, Prisma.Sql> = {
  name: Prisma.sql`m.name`,
  status: STATUS,
  transport: Prisma.sql`m.transport::text`,
  protocolVersion: Prisma.sql`ss.protocol_version`,
  toolCount: LATEST_TOOL_COUNT,
  lastChangeAt: Prisma.sql`ss.last_change_at`,
};
const SORT_FIELD: Record<SortKey, CursorField> = {
  name: "string",
  status: "string",
  transport: "string",
  protocolVersion: "nullable-string",
  toolCount: "nullable-number",
  lastChangeAt: "nullable-date",
};
const cursorKind = (sort: Sort) => `servers:${sort.by}:${sort.dir}`;

type Row = {
  id: string; name: string; transport: ServerRow["transport"]; command: string | null; args: string[]; url: string | null; tags: string[];
  enabled: boolean; demoKey: string | null; envEncrypted: string | null; headersEncrypted: string | null; pollIntervalSeconds: number;
  auditPolicy: ServerRow["auditPolicy"]; updatedAt: Date; hasSession: boolean; sessionStatus: string | null; statusReason: string | null;
  era: string | null; protocolVersion: string | null; serverInfo: unknown; lastChangeAt: Date | null; lastListedAt: Date | null;
  connectedAt: Date | null; lastError: string | null; lastErrorCode: string | null; lastErrorAt: Date | null; transportUsed: string | null;
  warnings: unknown; sessionUpdatedAt: Date | null; latestId: string | null; latestToolCount: number | null; latestContextTokens: number | null; snapshotCount: number;
  sortKey: string | number | Date | null; authConfig: unknown; oauthStatus: string | null; oauthStatusReason: string | null;
};
type Totals = { total: number; byStatus: Record<string, number> | null; teamTotal: number; teamTags: string[] | null };

function whereFilters(ctx: ServiceContext, f: Filters): Prisma.Sql {
  const parts = [Prisma.sql`m.tenant_id = ${ctx.tenantId}::uuid`];
  if (f.tag?.length) parts.push(Prisma.sql`m.tags @> ${f.tag}::text[]`);
  if (f.status?.length) parts.push(Prisma.sql`${STATUS} = ANY(${f.status}::text[])`);
  if (f.transport?.length) parts.push(Prisma.sql`m.transport::text = ANY(${f.transport}::text[])`);
  if (f.q) parts.push(Prisma.sql`strpos(lower(m.name), lower(${f.q})) > 0`);
  return Prisma.join(parts, " AND ");
}

/** Rows strictly after the cursor's (sort key, name, id) in the list's order; missing keys sort last. */
function afterCursor(sort: Sort, [key, name, id]: CursorValue[]): Prisma.Sql {
  const rest = Prisma.sql`(f.name, f.id) > (${name}, ${id}::uuid)`;
  if (key === null) return Prisma.sql`(f.sort_key IS NULL AND ${rest})`;
  const value = sort.by === "lastChangeAt" ? new Date(key as string) : key;
  const beyond = sort.dir === "asc" ? Prisma.sql`f.sort_key > ${value}` : Prisma.sql`f.sort_key < ${value}`;
  return Prisma.sql`(${beyond} OR f.sort_key IS NULL OR (f.sort_key = ${value} AND ${rest}))`;
}

const cursorOf = (sort: Sort, row: Row): CursorValue[] => [row.sortKey instanceof Date ? row.sortKey.toISOString() : row.sortKey, row.name, row.id];

/** The statement itself (exported for the bench's EXPLAIN ANALYZE). */
export function serverListSql(ctx: ServiceContext, filters: Filters, sort: Sort, limit: number | null, after: CursorValue[] | null): Prisma.Sql {
  const dir = sort.dir === "asc" ? Prisma.sql`ASC` : Prisma.sql`DESC`;
  const order = Prisma.sql`f.sort_key ${dir} NULLS LAST, f.name, f.id`;
  // The totals row is the left side so an empty page still carries the counts.
  return Prisma.sql`
    WITH filtered AS (
      SELECT m.id, m.name, ${STATUS} AS status, ${SORT_SQL[sort.by]} AS sort_key
      FROM mcp_server m LEFT JOIN server_session ss ON ss.server_id = m.id
      WHERE ${whereFilters(ctx, filters)}
    ),
    page AS (
      SELECT f.id, f.sort_key FROM filtered f
      WHERE ${after ? afterCursor(sort, after) : Prisma.sql`TRUE`}
      ORDER BY ${order}
      ${limit === null ? Prisma.empty : Prisma.sql`LIMIT ${limit + 1}`}
    ),
    totals AS (
      SELECT
        (SELECT count(*)::int FROM filtered) AS total,
        (SELECT jsonb_object_agg(status, n) FROM (SELECT status, count(*)::int AS n FROM filtered GROUP BY status) c) AS "byStatus",
        (SELECT count(*)::int FROM mcp_server WHERE tenant_id = ${ctx.tenantId}::uuid) AS "teamTotal",
        (SELECT array_agg(DISTINCT t ORDER BY t) FROM mcp_server, unnest(tags) t WHERE tenant_id = ${ctx.tenantId}::uuid) AS "teamTags"
    )
    SELECT totals.*, m.id, m.name, m.transport::text AS transport, m.command, m.args, m.url, m.tags, m.enabled, m.demo_key AS "demoKey",
      m.env_encrypted AS "envEncrypted", m.headers_encrypted AS "headersEncrypted", m.poll_interval_seconds AS "pollIntervalSeconds",
      m.audit_policy::text AS "auditPolicy", m.updated_at AS "updatedAt", (ss.server_id IS NOT NULL) AS "hasSession",
      ss.status::text AS "sessionStatus", ss.status_reason AS "statusReason", ss.era, ss.protocol_version AS "protocolVersion",
      ss.server_info AS "serverInfo", ss.last_change_at AS "lastChangeAt", ss.last_listed_at AS "lastListedAt", ss.connected_at AS "connectedAt",
      ss.last_error AS "lastError", ss.last_error_code AS "lastErrorCode", ss.last_error_at AS "lastErrorAt", ss.transport_used AS "transportUsed",
      ss.warnings, ss.updated_at AS "sessionUpdatedAt", latest.id AS "latestId", latest.tool_count AS "latestToolCount", latest.context_tokens AS "latestContextTokens",
      (SELECT count(*)::int FROM snapshot c WHERE c.tenant_id = m.tenant_id AND c.server_id = m.id) AS "snapshotCount",
      p.sort_key AS "sortKey", m.auth_config AS "authConfig", os.status AS "oauthStatus", os.status_reason AS "oauthStatusReason"
    FROM totals
    LEFT JOIN page p ON TRUE
    LEFT JOIN mcp_server m ON m.id = p.id
    LEFT JOIN server_session ss ON ss.server_id = m.id
    LEFT JOIN server_oauth_state os ON os.server_id = m.id AND os.tenant_id = m.tenant_id
    LEFT JOIN LATERAL (
      SELECT sn.id, sn.tool_count, sn.context_tokens FROM snapshot sn
      WHERE sn.tenant_id = m.tenant_id AND sn.server_id = m.id
      ORDER BY sn.taken_at DESC, sn.id DESC LIMIT 1
    ) latest ON TRUE
    ORDER BY ${Prisma.sql`p.sort_key ${dir} NULLS LAST, m.name, m.id`}`;
}

async function queryServers(ctx: ServiceContext, filters: Filters, sort: Sort, limit: number | null, after: CursorValue[] | null) {
  const rows = await ctx.db.$queryRaw<(Partial<Row> & Totals)[]>(serverListSql(ctx, filters, sort, limit, after));
  const first = rows[0];
  const counts: ServerPageCounts = { total: first?.total ?? 0, byStatus: first?.byStatus ?? {}, teamTotal: first?.teamTotal ?? 0, tags: first?.teamTags ?? [] };
  return { rows: rows.filter((r): r is Row & Totals => typeof r.id === "string"), counts };
}

function toSummary(key: Buffer, r: Row): ServerSummary {
  const session: ServerRow["session"] = r.hasSession
    ? {
        status: r.sessionStatus as NonNullable<ServerRow["session"]>["status"],
        statusReason: r.statusReason, era: r.era, protocolVersion: r.protocolVersion,
        serverInfo: r.serverInfo as Prisma.JsonValue, lastChangeAt: r.lastChangeAt, lastListedAt: r.lastListedAt,
        connectedAt: r.connectedAt, lastError: r.lastError, lastErrorCode: r.lastErrorCode, lastErrorAt: r.lastErrorAt,
        transportUsed: r.transportUsed, warnings: r.warnings as Prisma.JsonValue, updatedAt: r.sessionUpdatedAt!,
      }
    : null;
  const oauthState = r.oauthStatus ? { status: r.oauthStatus, statusReason: r.oauthStatusReason } : null;
  const row: ServerRow = { ...r, session, oauthState, _count: { snapshots: r.snapshotCount } };
  return toServerSummary(key, row, r.latestId ? { id: r.latestId, toolCount: r.latestToolCount ?? 0, contextTokens: r.latestContextTokens } : null);
}

export type ServerPage = Page<FleetServer> & ServerPageCounts;

/**
 * One page of the team's servers, filtered and sorted as the fleet page asks (query-string
 * values; bad ones are a 400 naming the parameter). Viewers may read.
 */
export async function listServerPage(ctx: ServiceContext, rawQuery: unknown): Promise<ServerPage> {
  const q = parseQuery(ctx, rawQuery);
  return cachedServerPage(ctx.tenantId, JSON.stringify(q), () => readServerPage(ctx, q));
}

/** A page's JSON text; one object per cached answer, so what is derived from it (gzip) can be kept with it. */
export type PageJson = { readonly text: string };

/**
 * The same page as JSON text, for the API: a repeated query answers with the cached text, so a
 * hit costs no serialising (100 summaries were ~1 ms of the web process's CPU per request).
 */
export async function listServerPageJson(ctx: ServiceContext, rawQuery: unknown): Promise<PageJson> {
  const q = parseQuery(ctx, rawQuery);
  return cachedServerPage(ctx.tenantId, `json\n${JSON.stringify(q)}`, async (): Promise<PageJson> => ({ text: JSON.stringify(await readServerPage(ctx, q)) }));
}

function parseQuery(ctx: ServiceContext, rawQuery: unknown): ListServersQuery {
  requirePermission(ctx, "team:read");
  const parsed = ListServersQuery.safeParse(rawQuery);
  if (!parsed.success) throw invalidInput(parsed.error);
  return parsed.data;
}

async function readServerPage(ctx: ServiceContext, q: ListServersQuery): Promise<ServerPage> {
  const sort: Sort = { by: q.sort, dir: q.dir };
  const after = q.cursor ? decodeCursor(q.cursor, cursorKind(sort), [SORT_FIELD[sort.by], "string", "uuid"]) : null;
  const { rows, counts } = await queryServers(ctx, q, sort, q.limit, after);
  const page = rows.slice(0, q.limit);
  const key = getSecretKey();
  const last = page.at(-1);
  const extras = await listFleetRowExtras(ctx, page.map((r) => r.id));
  // unnest() answers one row per id asked for, so every row of the page has its extras.
  const items = page.map((r): FleetServer => ({ ...toSummary(key, r), ...extras.get(r.id)! }));
  return { items, nextCursor: rows.length > q.limit && last ? encodeCursor(cursorKind(sort), cursorOf(sort, last)) : null, ...counts };
}

/** Every server of the team by name (share links and their relay render a whole view at once). */
export async function listServers(ctx: ServiceContext): Promise<ServerSummary[]> {
  requirePermission(ctx, "team:read");
  const { rows } = await queryServers(ctx, {}, { by: "name", dir: "asc" }, null, null);
  const key = getSecretKey();
  return rows.map((r) => toSummary(key, r));
}
