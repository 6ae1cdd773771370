import type { ServiceContext } from "../context";

/** The snapshot has been judged: an unchanged re-list of it needs no catch-up evaluation. */
export async function markEvaluated(ctx: ServiceContext, snapshotId: string): Promise<void> {
  await ctx.db.snapshot.updateMany({ where: { id: snapshotId, tenantId: ctx.tenantId }, data: { evaluated: true } });
}
