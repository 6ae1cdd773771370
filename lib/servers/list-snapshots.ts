import { z } from "zod";
import type { ServiceContext } from "../context";
import { AppError } from "../errors";
import { getServerOrThrow } from "./get-server-or-throw";
import type { Page, SnapshotDto } from "./server-dto";
import { snapshotDto } from "./snapshot-dto";

export const ListSnapshotsInput = z.object({
  limit: z.coerce.number().int().min(1).max(200).default(50),
  /** Opaque: the takenAt ISO time of the last item of the previous page. */
  cursor: z.string().datetime().optional(),
});
export type ListSnapshotsInput = z.infer<typeof ListSnapshotsInput>;

/** A server's snapshot timeline, newest first, each with its change summary against the one before. */
export async function listSnapshots(ctx: ServiceContext, serverId: string, rawInput: unknown): Promise<Page<SnapshotDto>> {
  const parsed = ListSnapshotsInput.safeParse(rawInput);
  if (!parsed.success) throw new AppError("INVALID_INPUT", parsed.error.issues.map((i) => `${i.path.join(".")}: ${i.message}`).join("; "));
  const { limit, cursor } = parsed.data;
  await getServerOrThrow(ctx, serverId);
  const rows = await ctx.db.snapshot.findMany({
    where: { tenantId: ctx.tenantId, serverId, ...(cursor ? { takenAt: { lt: new Date(cursor) } } : {}) },
    orderBy: { takenAt: "desc" },
    take: limit + 1,
    omit: { toolVersionIds: true },
  });
  const hasMore = rows.length > limit;
  const page = rows.slice(0, limit);
  return { items: page.map(snapshotDto), nextCursor: hasMore ? page.at(-1)!.takenAt.toISOString() : null };
}
