import { z } from "zod";
import { requirePermission } from "@/lib/auth/permissions";
import type { ServiceContext } from "@/lib/context";
import { diffSurface, diffToolLists, type SurfaceItemChange, type ToolLike, type ToolListDiff } from "@/lib/diff";
import { AppError } from "@/lib/errors";
import { isUuid } from "@/lib/ids";
import { getServerOrThrow } from "@/lib/servers/get-server-or-throw";
import type { SnapshotDto } from "@/lib/servers/server-dto";
import { snapshotDto } from "@/lib/servers/snapshot-dto";
import { loadSnapshotSurface, loadSnapshotTools } from "@/lib/snapshots/load-snapshot-tools";
import { invalidInput } from "@/lib/validation";

export const DiffQuery = z.object({ from: z.string().optional(), to: z.string().optional() });

/**
 * `surface`: the prompts, resources, templates and instructions that changed. `tracked` is false when
 * either side was listed before these lists were read (its empty surface means "not looked at", so
 * nothing is compared). Against no snapshot at all (`from` null) every item is "added".
 */
export type SurfaceDiff = { tracked: boolean; changes: SurfaceItemChange[] };

export type SnapshotDiff = { serverId: string; from: SnapshotDto | null; to: SnapshotDto; diff: ToolListDiff; surface: SurfaceDiff };

/**
 * The full diff between two snapshots of one server. Defaults: `to` = the latest snapshot, `from` =
 * the one before `to`. With only one snapshot, `from` is null and every tool is "added".
 */
export async function diffSnapshots(ctx: ServiceContext, serverId: string, rawQuery: Record<string, string>): Promise<SnapshotDiff> {
  requirePermission(ctx, "team:read");
  const parsed = DiffQuery.safeParse(rawQuery);
  if (!parsed.success) throw invalidInput(parsed.error);
  await getServerOrThrow(ctx, serverId);
  const to = parsed.data.to ? await snapshotOf(ctx, serverId, parsed.data.to, "to") : await latestBefore(ctx, serverId, null);
  if (!to) throw new AppError("NOT_FOUND", "This server has no snapshot yet");
  const from = parsed.data.from ? await snapshotOf(ctx, serverId, parsed.data.from, "from") : await latestBefore(ctx, serverId, to.takenAt);
  const tracked = to.surfaceTracked && (!from || from.surfaceTracked);
  const [before, after, surfaceBefore, surfaceAfter] = await Promise.all([
    from ? loadSnapshotTools(ctx, from.toolVersionIds) : [],
    loadSnapshotTools(ctx, to.toolVersionIds),
    from && tracked ? loadSnapshotSurface(ctx, from.surfaceVersionIds) : [],
    tracked ? loadSnapshotSurface(ctx, to.surfaceVersionIds) : [],
  ]);
  const diff = diffToolLists(
    before.map((t) => t.definition as ToolLike),
    after.map((t) => t.definition as ToolLike),
  );
  const surface: SurfaceDiff = { tracked, changes: tracked ? diffSurface(surfaceBefore, surfaceAfter) : [] };
  return { serverId, from: from ? snapshotDto(from) : null, to: snapshotDto(to), diff, surface };
}

async function snapshotOf(ctx: ServiceContext, serverId: string, id: string, which: string) {
  const row = isUuid(id) ? await ctx.db.snapshot.findFirst({ where: { id, tenantId: ctx.tenantId, serverId } }) : null;
  if (!row) throw new AppError("NOT_FOUND", `Snapshot "${which}" not found on this server`);
  return row;
}

async function latestBefore(ctx: ServiceContext, serverId: string, before: Date | null) {
  return ctx.db.snapshot.findFirst({
    where: { tenantId: ctx.tenantId, serverId, ...(before ? { takenAt: { lt: before } } : {}) },
    orderBy: { takenAt: "desc" },
  });
}
