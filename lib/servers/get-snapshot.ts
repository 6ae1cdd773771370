import type { ServiceContext } from "../context";
import { AppError } from "../errors";
import { isUuid } from "../ids";
import { listSnapshotTools } from "./get-server-detail";
import type { ToolDto } from "./server-dto";


/** One snapshot with its full tool list, tenant-scoped (another tenant's id is a 404). */
export async function getSnapshot(ctx: ServiceContext, snapshotId: string) {
  if (!isUuid(snapshotId)) throw new AppError("NOT_FOUND", "Snapshot not found");
  const snap = await ctx.db.snapshot.findFirst({ where: { id: snapshotId, tenantId: ctx.tenantId } });
  if (!snap) throw new AppError("NOT_FOUND", "Snapshot not found");
  const tools: ToolDto[] = await listSnapshotTools(ctx, snap.id);
  return {
    id: snap.id,
    serverId: snap.serverId,
    contentHash: snap.contentHash,
    toolCount: snap.toolCount,
    trigger: snap.trigger,
    protocolVersion: snap.protocolVersion,
    era: snap.era,
    ttlMs: snap.ttlMs,
    cacheScope: snap.cacheScope,
    takenAt: snap.takenAt.toISOString(),
    lastConfirmedAt: snap.lastConfirmedAt.toISOString(),
    confirmCount: snap.confirmCount,
    tools,
  };
}
