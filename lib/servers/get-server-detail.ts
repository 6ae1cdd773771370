import type { ServiceContext } from "@/lib/context";
import { getSecretKey } from "@/lib/secrets";
import { getServerOrThrow } from "./get-server-or-throw";
import { loadSnapshotSurface, loadSnapshotTools } from "@/lib/snapshots/load-snapshot-tools";
import type { ServerDetail } from "./server-dto";
import { toServerSummary } from "./to-server-summary";

/** The server page: summary, current tools, prompts, resources… (latest snapshot, server order) and uptime history. */
export async function getServerDetail(ctx: ServiceContext, serverId: string): Promise<ServerDetail> {
  const row = await getServerOrThrow(ctx, serverId);
  const latest = await ctx.db.snapshot.findFirst({
    where: { tenantId: ctx.tenantId, serverId },
    orderBy: { takenAt: "desc" },
    select: { id: true, toolCount: true, contextTokens: true, toolVersionIds: true, surfaceVersionIds: true, surfaceTracked: true },
  });
  const [tools, surfaceItems, transitions] = await Promise.all([
    latest ? loadSnapshotTools(ctx, latest.toolVersionIds) : Promise.resolve([]),
    latest ? loadSnapshotSurface(ctx, latest.surfaceVersionIds) : Promise.resolve([]),
    ctx.db.sessionTransition.findMany({
      where: { tenantId: ctx.tenantId, serverId },
      orderBy: { at: "desc" },
      take: 50,
    }),
  ]);
  return {
    server: toServerSummary(getSecretKey(), row, latest),
    capabilities: row.session?.capabilities ?? null,
    instructions: row.session?.instructions ?? null,
    tools,
    surface: { tracked: latest?.surfaceTracked ?? false, items: surfaceItems },
    transitions: transitions.map((t) => ({ from: t.fromStatus, to: t.toStatus, reason: t.reason, at: t.at.toISOString() })),
  };
}
