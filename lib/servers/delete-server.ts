import { recordAudit } from "@/lib/audit-log/record-audit";
import { requirePermission } from "@/lib/auth/permissions";
import type { ServiceContext } from "@/lib/context";
import { notifyInTx } from "@/lib/realtime/notify";
import { withTransaction } from "@/lib/transaction";
import { getServerOrThrow } from "./get-server-or-throw";

export type DeleteServerInput = { serverId: string };

/** Deletes a server and its history (rows cascade); the worker stops its session on the NOTIFY. */
export async function deleteServer(ctx: ServiceContext, input: DeleteServerInput): Promise<void> {
  requirePermission(ctx, "server:write");
  await withTransaction(ctx, async (tx) => {
    const server = await getServerOrThrow(ctx, input.serverId, tx);
    await tx.mcpServer.delete({ where: { id: server.id } });
    await recordAudit(tx, ctx, "server.deleted", { type: "server", id: server.id }, { name: server.name, transport: server.transport });
    await notifyInTx(tx, { type: "server:changed", tenantId: ctx.tenantId, serverId: server.id });
  });
  // An in-process cache, not the database: cleared once the delete is written.
}
