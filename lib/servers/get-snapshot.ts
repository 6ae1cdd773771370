import type { ServiceContext } from "@/lib/context";
import { AppError } from "@/lib/errors";
import { isUuid } from "@/lib/ids";
import { loadSnapshotTools } from "@/lib/snapshots/load-snapshot-tools";
import { snapshotDto } from "./snapshot-dto";


/** One snapshot with its full tool list, tenant-scoped (another tenant's id is a 404). */
export async function getSnapshot(ctx: ServiceContext, snapshotId: string) {
  if (!isUuid(snapshotId)) throw new AppError("NOT_FOUND", "Snapshot not found");
  const snap = await ctx.db.snapshot.findFirst({ where: { id: snapshotId, tenantId: ctx.tenantId } });
  if (!snap) throw new AppError("NOT_FOUND", "Snapshot not found");
  return { ...snapshotDto(snap), serverId: snap.serverId, tools: await loadSnapshotTools(ctx, snap.toolVersionIds) };
}
