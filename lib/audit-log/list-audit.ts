import { z } from "zod";
import { requirePermission } from "@/lib/auth/permissions";
import type { ServiceContext } from "@/lib/context";
import { decodeCursor, PageParams, toPage } from "@/lib/pagination";
import { invalidInput } from "@/lib/validation";

export const ListAuditQuery = z.object({
  ...PageParams,
  action: z.string().max(60).optional(),
});

/** Newest first by id (a bigint sequence: unique, so it is its own tie-break). */
const CURSOR_KIND = "audit";

/** The team's audit log, newest first, paged by id. */
export async function listAuditEvents(ctx: ServiceContext, rawQuery: Record<string, string>) {
  requirePermission(ctx, "audit:read");
  const parsed = ListAuditQuery.safeParse(rawQuery);
  if (!parsed.success) throw invalidInput(parsed.error);
  const { limit, cursor, action } = parsed.data;
  const [before] = cursor ? decodeCursor(cursor, CURSOR_KIND, ["bigint"]) : [];
  const rows = await ctx.db.auditEvent.findMany({
    where: { tenantId: ctx.tenantId, ...(before ? { id: { lt: BigInt(before) } } : {}), ...(action ? { action } : {}) },
    orderBy: { id: "desc" },
    take: limit + 1,
  });
  return toPage(rows, limit, CURSOR_KIND, (r) => [r.id.toString()], (r) => ({
    id: r.id.toString(),
    at: r.at,
    actorKind: r.actorKind,
    actor: r.actorLabel,
    action: r.action,
    targetType: r.targetType,
    targetId: r.targetId,
    details: r.details,
  }));
}
