import { withTransaction } from "@/lib/transaction";
import type { Divergence } from "@/lib/cache/cache-divergence";
import type { ServiceContext } from "@/lib/context";
import { assertLeaseHeld } from "@/lib/workers/leases";
import { lockServer, openAlert, updateAlert } from "./alert-store";

/**
 * Rule R31: one `cache_divergence` alert (high) per server while unresolved; a later divergence
 * updates it (the latest comparison) instead of opening another. It is not resolved by itself
 * when the lists agree again: a targeted list that was served once is an incident to review.
 */
export async function raiseDivergence(ctx: ServiceContext, serverId: string, divergence: Divergence, options: { snapshotId?: string; leaseHolder?: string } = {}): Promise<{ alertId: string; opened: boolean }> {
  const title = `Public tool list differs between authorization contexts (${divergence.ownCount} vs ${divergence.otherCount} tools)`;
  return withTransaction(ctx, async (tx) => {
    await lockServer(tx, serverId);
    if (options.leaseHolder) await assertLeaseHeld(tx, serverId, options.leaseHolder);
    const active = await tx.alert.findFirst({
      where: { tenantId: ctx.tenantId, serverId, kind: "cache_divergence", status: { not: "resolved" } },
      select: { id: true, serverId: true, severity: true, toolName: true },
    });
    const draft = { kind: "cache_divergence" as const, severity: "high" as const, title, snapshotId: options.snapshotId ?? null, details: { divergence } };
    if (active) {
      await updateAlert(tx, ctx.tenantId, active, draft);
      return { alertId: active.id, opened: false };
    }
    return { alertId: await openAlert(tx, ctx.tenantId, { serverId, ...draft }), opened: true };
  });
}
