import { requirePermission } from "@/lib/auth/permissions";
import type { ServiceContext } from "@/lib/context";
import { diffTool, type ToolChanged, type ToolLike } from "@/lib/diff";
import { AppError } from "@/lib/errors";
import { getServerOrThrow } from "@/lib/servers/get-server-or-throw";

export type ToolVersionEntry = {
  hash: string;
  definition: ToolLike;
  /** ≈ o200k_base tokens of this version in a model's context; null until counted. */
  contextTokens: number | null;
  firstSeenAt: string;
  lastSeenAt: string;
  snapshots: number;
  /** Snapshot where this version first appeared (for a diff link). */
  firstSnapshotId: string;
  /** Against the version before it (null for the first one). */
  change: ToolChanged | null;
};

export type ToolHistory = { serverId: string; name: string; current: boolean; versions: ToolVersionEntry[] };

/** Every version of one tool (by name) this server has offered, oldest first, each diffed with the one before. */
export async function getToolHistory(ctx: ServiceContext, serverId: string, name: string): Promise<ToolHistory> {
  requirePermission(ctx, "team:read");
  if (name.length === 0 || name.length > 500) throw new AppError("NOT_FOUND", "Tool not found");
  await getServerOrThrow(ctx, serverId);
  const rows = await ctx.db.$queryRaw<{ id: string; hash: string; definition: unknown; context_tokens: number | null; first_seen: Date; last_seen: Date; snapshots: bigint; first_snapshot: string }[]>`
    SELECT tv.id, tv.hash, tv.definition, tv.context_tokens,
           min(s.taken_at) AS first_seen, max(s.last_confirmed_at) AS last_seen, count(*) AS snapshots,
           (array_agg(s.id ORDER BY s.taken_at))[1]::text AS first_snapshot
      FROM snapshot s
      JOIN tool_version tv ON tv.id = ANY (s.tool_version_ids)
     WHERE s.tenant_id = ${ctx.tenantId}::uuid AND s.server_id = ${serverId}::uuid
       AND tv.tenant_id = ${ctx.tenantId}::uuid AND tv.name = ${name}
     GROUP BY tv.id
     ORDER BY first_seen`;
  if (rows.length === 0) throw new AppError("NOT_FOUND", "This server never offered a tool with that name");
  const latest = await ctx.db.snapshot.findFirst({ where: { tenantId: ctx.tenantId, serverId }, orderBy: { takenAt: "desc" }, select: { toolVersionIds: true } });
  const current = rows.some((r) => latest?.toolVersionIds.includes(r.id));
  const versions = rows.map((r, i): ToolVersionEntry => ({
    hash: r.hash,
    definition: r.definition as ToolLike,
    contextTokens: r.context_tokens,
    firstSeenAt: r.first_seen.toISOString(),
    lastSeenAt: r.last_seen.toISOString(),
    snapshots: Number(r.snapshots),
    firstSnapshotId: r.first_snapshot,
    change: i === 0 ? null : diffTool(rows[i - 1]!.definition as ToolLike, r.definition as ToolLike),
  }));
  return { serverId, name, current, versions };
}
