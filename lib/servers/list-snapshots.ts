import { z } from "zod";
import type { ServiceContext } from "../context";
import { AppError } from "../errors";
import { getServerOrThrow } from "./get-server-or-throw";
import type { Page, SnapshotDto } from "./server-dto";

export const ListSnapshotsInput = z.object({
  limit: z.coerce.number().int().min(1).max(200).default(50),
  /** Opaque: the takenAt ISO time of the last item of the previous page. */
  cursor: z.string().datetime().optional(),
});
export type ListSnapshotsInput = z.infer<typeof ListSnapshotsInput>;

/** A server's snapshot timeline, newest first, each with its +/−/~ against the one before. */
export async function listSnapshots(ctx: ServiceContext, serverId: string, rawInput: unknown): Promise<Page<SnapshotDto>> {
  const parsed = ListSnapshotsInput.safeParse(rawInput);
  if (!parsed.success) throw new AppError("INVALID_INPUT", parsed.error.issues.map((i) => `${i.path.join(".")}: ${i.message}`).join("; "));
  const { limit, cursor } = parsed.data;
  await getServerOrThrow(ctx, serverId);
  // One extra row to know whether there is a next page, one more for the oldest item's "before".
  const rows = await ctx.db.snapshot.findMany({
    where: { tenantId: ctx.tenantId, serverId, ...(cursor ? { takenAt: { lt: new Date(cursor) } } : {}) },
    orderBy: { takenAt: "desc" },
    take: limit + 1,
    include: { tools: { select: { toolVersion: { select: { name: true, hash: true } } } } },
  });
  const hasMore = rows.length > limit;
  const page = rows.slice(0, limit);
  const older = hasMore
    ? rows[limit]
    : await ctx.db.snapshot.findFirst({
        where: { tenantId: ctx.tenantId, serverId, takenAt: { lt: page.at(-1)?.takenAt ?? new Date(0) } },
        orderBy: { takenAt: "desc" },
        include: { tools: { select: { toolVersion: { select: { name: true, hash: true } } } } },
      });
  const chain = [...page, ...(older ? [older] : [])];
  const items = page.map((s, i): SnapshotDto => ({
    id: s.id,
    contentHash: s.contentHash,
    toolCount: s.toolCount,
    trigger: s.trigger,
    protocolVersion: s.protocolVersion,
    era: s.era,
    serverVersion: s.serverVersion,
    ttlMs: s.ttlMs,
    cacheScope: s.cacheScope,
    takenAt: s.takenAt.toISOString(),
    lastConfirmedAt: s.lastConfirmedAt.toISOString(),
    confirmCount: s.confirmCount,
    changes: chain[i + 1] ? countChanges(chain[i + 1]!.tools, s.tools) : null,
    pages: typeof (s.diagnostics as { pages?: unknown } | null)?.pages === "number" ? (s.diagnostics as { pages: number }).pages : null,
  }));
  return { items, nextCursor: hasMore ? page.at(-1)!.takenAt.toISOString() : null };
}

type Member = { toolVersion: { name: string; hash: string } };

function countChanges(before: Member[], after: Member[]) {
  const a = new Map(before.map((m) => [m.toolVersion.name, m.toolVersion.hash]));
  const b = new Map(after.map((m) => [m.toolVersion.name, m.toolVersion.hash]));
  let added = 0, removed = 0, changed = 0;
  for (const [name, hash] of b) {
    if (!a.has(name)) added++;
    else if (a.get(name) !== hash) changed++;
  }
  for (const name of a.keys()) if (!b.has(name)) removed++;
  return { added, removed, changed };
}
