import { requirePermission } from "@/lib/auth/permissions";
import type { ServiceContext } from "@/lib/context";
import type { Db, Tx } from "@/lib/db";
import { CONTEXT_TOKEN_ENCODING } from "./encoding";

export type ServerContextTokens = { serverId: string; serverName: string; contextTokens: number };

export type TeamContextTokens = {
  /** Sum over each server's latest snapshot (servers without a count add nothing). */
  totalTokens: number;
  /** The team's servers, and how many of them have a counted latest snapshot. */
  servers: number;
  countedServers: number;
  /** The largest servers by their latest snapshot's tokens, at most five. */
  largest: ServerContextTokens[];
  encoding: typeof CONTEXT_TOKEN_ENCODING;
};

type Row = { servers: number; counted: number; total: bigint | number; largest: ServerContextTokens[] };

/**
 * The team's tool lists together, from the sums stored on snapshots (nothing is tokenized on a
 * read): one index probe per server for its latest snapshot (snapshot_server_latest_idx).
 */
export async function sumTeamContextTokens(db: Db | Tx, tenantId: string): Promise<TeamContextTokens> {
  const [row] = await db.$queryRaw<Row[]>`
    WITH latest AS (
      SELECT m.id, m.name, l.context_tokens
        FROM mcp_server m
        LEFT JOIN LATERAL (
          SELECT sn.context_tokens FROM snapshot sn
           WHERE sn.tenant_id = m.tenant_id AND sn.server_id = m.id
           ORDER BY sn.taken_at DESC, sn.id DESC LIMIT 1
        ) l ON TRUE
       WHERE m.tenant_id = ${tenantId}::uuid
    )
    SELECT (SELECT count(*)::int FROM latest) AS servers,
           (SELECT count(context_tokens)::int FROM latest) AS counted,
           (SELECT COALESCE(sum(context_tokens), 0)::bigint FROM latest) AS total,
           (SELECT COALESCE(jsonb_agg(jsonb_build_object('serverId', t.id, 'serverName', t.name, 'contextTokens', t.context_tokens) ORDER BY t.context_tokens DESC, t.name), '[]'::jsonb)
              FROM (SELECT * FROM latest WHERE context_tokens IS NOT NULL ORDER BY context_tokens DESC, name LIMIT 5) t) AS largest`;
  return {
    totalTokens: Number(row?.total ?? 0),
    servers: row?.servers ?? 0,
    countedServers: row?.counted ?? 0,
    largest: row?.largest ?? [],
    encoding: CONTEXT_TOKEN_ENCODING,
  };
}

/**
 * What the whole team's tool lists cost in a model's context (≈ o200k_base tokens): the sum of
 * each server's latest snapshot, behind team:read (the verb form of sumTeamContextTokens).
 */
export async function getTeamContextTokens(ctx: ServiceContext): Promise<TeamContextTokens> {
  requirePermission(ctx, "team:read");
  return sumTeamContextTokens(ctx.db, ctx.tenantId);
}
