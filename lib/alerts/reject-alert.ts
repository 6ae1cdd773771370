import { withTransaction } from "@/lib/transaction";
import { recordAudit } from "@/lib/audit-log/record-audit";
import { requirePermission } from "@/lib/auth/permissions";
import type { ServiceContext } from "@/lib/context";
import { AppError } from "@/lib/errors";
import { notifyInTx } from "@/lib/realtime/notify";
import type { AlertSummary } from "./alert-dto";
import { isVersionKind, lockServer, toAlertSummary } from "./alert-store";
import { commentOf, RejectInput } from "./decision-input";
import { parseInput } from "@/lib/validation";
import { getAlertOrThrow } from "./get-alert-or-throw";

/**
 * Rejects the version under review: the alert stays open (or acknowledged) and the tool is marked
 * blocked at that hash until a reviewer approves some version. A rejected first-seen version is no
 * longer trusted as the baseline either. While blocked, no change to the tool is auto-accepted.
 */
export async function rejectAlert(ctx: ServiceContext, alertId: string, raw: unknown): Promise<AlertSummary> {
  requirePermission(ctx, "alert:review");
  const input = parseInput(RejectInput, raw);
  const comment = commentOf(input);
  const found = await getAlertOrThrow(ctx, alertId);
  await withTransaction(ctx, async (tx) => {
    await lockServer(tx, found.serverId);
    const alert = await getAlertOrThrow(ctx, alertId, tx);
    if (alert.status === "resolved") throw new AppError("CONFLICT", `This alert is already resolved (${alert.resolution ?? "resolved"})`, { status: alert.status, resolution: alert.resolution });
    const { toolName, candidateHash } = alert;
    if (!isVersionKind(alert.kind) || !toolName || !candidateHash) {
      throw new AppError("CONFLICT", "There is no tool version to reject in this alert: acknowledge it instead", { kind: alert.kind });
    }
    if (input.hash !== undefined && input.hash !== candidateHash) {
      throw new AppError("CONFLICT", "The tool's live definition changed after this alert was opened: review the new version first", { currentHash: candidateHash });
    }
    const where = { serverId_toolName: { serverId: alert.serverId, toolName } };
    const baseline = await tx.toolBaseline.findUnique({ where });
    await tx.toolBaseline.upsert({
      where,
      create: { tenantId: ctx.tenantId, serverId: alert.serverId, toolName, approvedHash: null, source: "first_seen", blockedHash: candidateHash },
      update: { blockedHash: candidateHash, ...(baseline?.approvedHash === candidateHash ? { approvedHash: null } : {}) },
    });
    if (comment) await tx.alert.update({ where: { id: alert.id }, data: { comment } });
    await recordAudit(tx, ctx, "alert.rejected", { type: "alert", id: alert.id }, {
      server: alert.server.name,
      serverId: alert.serverId,
      kind: alert.kind,
      toolName,
      hash: candidateHash,
      comment,
    });
    await notifyInTx(tx, { type: "alert:changed", tenantId: ctx.tenantId, serverId: alert.serverId, alertId: alert.id });
  });
  return toAlertSummary(await getAlertOrThrow(ctx, alertId));
}
