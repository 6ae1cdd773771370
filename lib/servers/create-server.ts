import { recordAudit } from "@/lib/audit-log/record-audit";
import { requirePermission } from "@/lib/auth/permissions";
import type { ServiceContext } from "@/lib/context";
import { assertTargetAllowed } from "@/lib/network/check-target";
import { notifyInTx } from "@/lib/realtime/notify";
import { getSecretKey } from "@/lib/secrets";
import { assertWithinQuota } from "@/lib/tenants/team-quota";
import { withTransaction } from "@/lib/transaction";
import { DEFAULT_POLL_SECONDS, prepareServerCreate, type StdioPermission } from "./prepare-server-write";
import { withNameConflict } from "./server-name-conflict";
import { invalidateServerPages } from "./server-page-cache";
import { stdioPermissionFor } from "./stdio-policy";

/**
 * Registers a server (`input`: the body of POST /api/v1/servers). Running a stdio server means
 * running a command on the worker host, so whether the actor may follows the instance policy
 * (`permission`, from the actor unless a caller decides). The worker hears about it by NOTIFY in
 * the same transaction and starts a session within moments.
 */
export async function createServer(ctx: ServiceContext, input: unknown, permission: StdioPermission = stdioPermissionFor(ctx)): Promise<{ id: string }> {
  requirePermission(ctx, "server:write");
  const { data, auditDetails, requestedPoll } = prepareServerCreate(ctx, input, permission, getSecretKey());
  // Private and loopback targets are the team's right (TOOLWATCH_PRIVATE_TARGETS); host names are resolved now too.
  if (data.url) await assertTargetAllowed(ctx, data.url);
  const created = await withNameConflict(data.name, () =>
    withTransaction(ctx, async (tx) => {
      const quota = await assertWithinQuota(ctx, tx, { adding: 1, pollIntervals: [requestedPoll] });
      const row = await tx.mcpServer.create({ data: { ...data, pollIntervalSeconds: requestedPoll ?? Math.max(DEFAULT_POLL_SECONDS, quota.minPollSeconds) }, select: { id: true } });
      await recordAudit(tx, ctx, "server.created", { type: "server", id: row.id }, auditDetails);
      await notifyInTx(tx, { type: "server:changed", tenantId: ctx.tenantId, serverId: row.id });
      return row;
    }),
  );
  invalidateServerPages(ctx.tenantId);
  return created;
}
