import type { Db, Tx } from "@/lib/db";

export type CostlyServer = {
  serverId: string;
  serverName: string;
  /** The latest snapshot's count: its tools, prompts, resources and instructions. */
  contextTokens: number;
  /** Tools in that snapshot (a tool listed twice counts twice). */
  toolCount: number;
  /** The tools' own tokens divided by the tools, rounded; null without tools. */
  tokensPerTool: number | null;
};

type Row = { id: string; name: string; context_tokens: number; tool_count: number; tool_tokens: bigint | number | null };

/**
 * The team's servers that cost most in a model's context, by their latest counted snapshot,
 * largest first (ties by name). One probe of snapshot_server_latest_idx per server; the tools'
 * own tokens are summed only for the servers returned.
 */
export async function listCostliestServers(db: Db | Tx, tenantId: string, limit: number): Promise<CostlyServer[]> {
  const rows = await db.$queryRaw<Row[]>`
    WITH top AS (
      SELECT m.id, m.name, m.tenant_id, l.context_tokens, l.tool_count, l.tool_version_ids
        FROM mcp_server m
        JOIN LATERAL (
          SELECT sn.context_tokens, sn.tool_count, sn.tool_version_ids FROM snapshot sn
           WHERE sn.tenant_id = m.tenant_id AND sn.server_id = m.id
           ORDER BY sn.taken_at DESC, sn.id DESC LIMIT 1
        ) l ON l.context_tokens IS NOT NULL
       WHERE m.tenant_id = ${tenantId}::uuid
       ORDER BY l.context_tokens DESC, m.name, m.id
       LIMIT ${limit}::int
    )
    SELECT t.id, t.name, t.context_tokens, t.tool_count,
           (SELECT sum(tv.context_tokens) FROM unnest(t.tool_version_ids) u(id)
              JOIN tool_version tv ON tv.id = u.id AND tv.tenant_id = t.tenant_id) AS tool_tokens
      FROM top t
     ORDER BY t.context_tokens DESC, t.name, t.id`;
  return rows.map((r) => ({
    serverId: r.id,
    serverName: r.name,
    contextTokens: r.context_tokens,
    toolCount: r.tool_count,
    tokensPerTool: r.tool_count > 0 && r.tool_tokens !== null ? Math.round(Number(r.tool_tokens) / r.tool_count) : null,
  }));
}
