import { recordAudit } from "@/lib/audit-log/record-audit";
import { requirePermission } from "@/lib/auth/permissions";
import type { ServiceContext } from "@/lib/context";
import { saveServerProbeSettings } from "@/lib/identity-probes/probe-settings";
import { notifyInTx } from "@/lib/realtime/notify";
import { getSecretKey } from "@/lib/secrets";
import { assertWithinQuota } from "@/lib/tenants/team-quota";
import { withTransaction } from "@/lib/transaction";
import { getServerOrThrow } from "./get-server-or-throw";
import { prepareServerUpdate, type StdioPermission } from "./prepare-server-write";
import { withNameConflict } from "./server-name-conflict";
import { invalidateServerPages } from "./server-page-cache";
import { stdioPermissionFor } from "./stdio-policy";

export type UpdateServerInput = { serverId: string; patch: unknown };

/** Edits a server (`patch`: the body of PATCH /api/v1/servers/{id}); a changed connection config restarts its session (new config hash). */
export async function updateServer(ctx: ServiceContext, input: UpdateServerInput, permission: StdioPermission = stdioPermissionFor(ctx)): Promise<{ id: string }> {
  requirePermission(ctx, "server:write");
  const row = await getServerOrThrow(ctx, input.serverId);
  const { patch, data, auditDetails, authChanged } = await prepareServerUpdate(ctx, row, input.patch, permission, getSecretKey());
  const updated = await withNameConflict(patch.name ?? row.name, () =>
    withTransaction(ctx, async (tx) => {
      if (patch.pollIntervalSeconds) await assertWithinQuota(ctx, tx, { adding: 0, pollIntervals: [patch.pollIntervalSeconds] });
      await tx.mcpServer.update({ where: { id: row.id }, data });
      if (patch.identityProbes) await saveServerProbeSettings(tx, ctx.tenantId, row.id, patch.identityProbes);
      // Tokens and registrations belong to the old client: a changed OAuth setting starts over.
      if (authChanged || (patch.url && patch.url !== row.url)) await tx.serverOAuthState.deleteMany({ where: { tenantId: ctx.tenantId, serverId: row.id } });
      await recordAudit(tx, ctx, "server.updated", { type: "server", id: row.id }, auditDetails);
      await notifyInTx(tx, { type: "server:changed", tenantId: ctx.tenantId, serverId: row.id });
      return { id: row.id };
    }),
  );
  invalidateServerPages(ctx.tenantId);
  return updated;
}
