import { z } from "zod";
import { requirePermission } from "../auth/permissions";
import type { ServiceContext } from "../context";
import { invalidInput } from "../validation";

const Query = z.object({
  limit: z.coerce.number().int().min(1).max(200).default(50),
  // id cursor: events older than this one (bounded to Postgres bigint, or the query would fail as a 500)
  before: z.coerce.bigint().min(1n).max(9_223_372_036_854_775_807n).optional(),
  action: z.string().max(60).optional(),
});

/** The team's audit log, newest first, paged by id. */
export async function listAuditEvents(ctx: ServiceContext, rawQuery: Record<string, string>) {
  requirePermission(ctx, "audit:read");
  const parsed = Query.safeParse(rawQuery);
  if (!parsed.success) throw invalidInput(parsed.error);
  const { limit, before, action } = parsed.data;
  const rows = await ctx.db.auditEvent.findMany({
    where: { tenantId: ctx.tenantId, ...(before ? { id: { lt: before } } : {}), ...(action ? { action } : {}) },
    orderBy: { id: "desc" },
    take: limit + 1,
  });
  const page = rows.slice(0, limit);
  return {
    items: page.map((r) => ({ id: r.id.toString(), at: r.at, actorKind: r.actorKind, actor: r.actorLabel, action: r.action, targetType: r.targetType, targetId: r.targetId, details: r.details })),
    nextCursor: rows.length > limit ? page[page.length - 1]!.id.toString() : null,
  };
}
