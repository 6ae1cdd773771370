import { recordAudit } from "@/lib/audit-log/record-audit";
import { requirePermission } from "@/lib/auth/permissions";
import type { ServiceContext } from "@/lib/context";
import { AppError } from "@/lib/errors";
import { notifyInTx } from "@/lib/realtime/notify";
import { withTransaction } from "@/lib/transaction";
import { getServerOrThrow } from "./get-server-or-throw";

export type RequestRefreshInput = { serverId: string };

/** Asks the worker that owns the session to re-list now (bypassing TTL freshness). */
export async function requestRefresh(ctx: ServiceContext, input: RequestRefreshInput): Promise<{ id: string; requested: true }> {
  requirePermission(ctx, "server:refresh");
  return withTransaction(ctx, async (tx) => {
    const server = await getServerOrThrow(ctx, input.serverId, tx);
    if (!server.enabled) throw new AppError("CONFLICT", "This server is disabled: enable it before asking for a refresh");
    await recordAudit(tx, ctx, "server.refresh_requested", { type: "server", id: server.id }, { name: server.name });
    await notifyInTx(tx, { type: "server:refreshRequested", tenantId: ctx.tenantId, serverId: server.id });
    return { id: server.id, requested: true as const };
  });
}
