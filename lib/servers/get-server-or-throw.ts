import type { ServiceContext } from "../context";
import { AppError } from "../errors";
import { isUuid } from "../ids";


/**
 * The only way to load a server by id: always scoped to the tenant, so another tenant's server
 * and a missing one are indistinguishable (both 404).
 */
export async function getServerOrThrow(ctx: ServiceContext, serverId: string) {
  if (!isUuid(serverId)) throw new AppError("NOT_FOUND", "Server not found");
  const row = await ctx.db.mcpServer.findFirst({
    where: { id: serverId, tenantId: ctx.tenantId },
    include: { session: true, oauthState: { select: { status: true, statusReason: true } }, _count: { select: { snapshots: true } } },
  });
  if (!row) throw new AppError("NOT_FOUND", "Server not found");
  return row;
}
