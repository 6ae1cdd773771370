import type { ServiceContext } from "@/lib/context";
import { AppError } from "@/lib/errors";
import type { Tx } from "@/lib/db";
import { isUuid } from "@/lib/ids";
import { readerOf } from "@/lib/transaction";

/**
 * The only way to load a server by id: always scoped to the tenant, so another tenant's server
 * and a missing one are indistinguishable (both 404). Reads inside `tx` (or the one ctx carries).
 */
export async function getServerOrThrow(ctx: ServiceContext, serverId: string, tx?: Tx) {
  if (!isUuid(serverId)) throw new AppError("NOT_FOUND", "Server not found");
  const row = await readerOf(ctx, tx).mcpServer.findFirst({
    where: { id: serverId, tenantId: ctx.tenantId },
    include: { session: true, oauthState: { select: { status: true, statusReason: true } }, _count: { select: { snapshots: true } } },
  });
  if (!row) throw new AppError("NOT_FOUND", "Server not found");
  return row;
}
