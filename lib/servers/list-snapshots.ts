import { z } from "zod";
import type { ServiceContext } from "@/lib/context";
import { decodeCursor, PageParams, toPage } from "@/lib/pagination";
import { invalidInput } from "@/lib/validation";
import { getServerOrThrow } from "./get-server-or-throw";
import type { Page, SnapshotDto } from "./server-dto";
import { snapshotDto } from "./snapshot-dto";

export const ListSnapshotsInput = z.object(PageParams);
export type ListSnapshotsInput = z.infer<typeof ListSnapshotsInput>;

/** Newest first by (takenAt, id): snapshots stored in one go can share a takenAt. */
const CURSOR_KIND = "snapshots";

/** A server's snapshot timeline, newest first, each with its change summary against the one before. */
export async function listSnapshots(ctx: ServiceContext, serverId: string, rawInput: unknown): Promise<Page<SnapshotDto>> {
  const parsed = ListSnapshotsInput.safeParse(rawInput);
  if (!parsed.success) throw invalidInput(parsed.error);
  const { limit, cursor } = parsed.data;
  const [at, id] = cursor ? decodeCursor(cursor, CURSOR_KIND, ["date", "uuid"]) : [];
  await getServerOrThrow(ctx, serverId);
  const rows = await ctx.db.snapshot.findMany({
    where: {
      tenantId: ctx.tenantId,
      serverId,
      ...(at && id ? { OR: [{ takenAt: { lt: new Date(at as string) } }, { takenAt: new Date(at as string), id: { lt: id as string } }] } : {}),
    },
    orderBy: [{ takenAt: "desc" }, { id: "desc" }],
    take: limit + 1,
    omit: { toolVersionIds: true },
  });
  return toPage(rows, limit, CURSOR_KIND, (r) => [r.takenAt.toISOString(), r.id], snapshotDto);
}
