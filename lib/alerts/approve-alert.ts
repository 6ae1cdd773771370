import { withTransaction } from "@/lib/transaction";
import { actorLabel, recordAudit } from "@/lib/audit-log/record-audit";
import { requirePermission } from "@/lib/auth/permissions";
import type { ServiceContext } from "@/lib/context";
import { AppError } from "@/lib/errors";
import type { AlertSummary } from "./alert-dto";
import { isVersionKind, lockServer, resolveAlert, toAlertSummary } from "./alert-store";
import { ApproveInput, commentOf } from "./decision-input";
import { parseInput } from "@/lib/validation";
import { getAlertOrThrow } from "./get-alert-or-throw";

/**
 * Approves exactly the version the reviewer saw. `hash` must equal the alert's candidate (for a
 * removal: the removed baseline version); if the live tool moved on since the page was opened the
 * approval is refused with 409 and the current hash, so the reviewer looks at the new diff first.
 * The candidate becomes the tool's baseline (any block is lifted) and the alert is resolved.
 */
export async function approveAlert(ctx: ServiceContext, alertId: string, raw: unknown): Promise<AlertSummary> {
  requirePermission(ctx, "alert:review");
  const input = parseInput(ApproveInput, raw);
  const comment = commentOf(input);
  const by = actorLabel(ctx.actor);
  const found = await getAlertOrThrow(ctx, alertId);
  await withTransaction(ctx, async (tx) => {
    // Same lock as snapshot evaluation: the candidate cannot move between the check and the write.
    await lockServer(tx, found.serverId);
    const alert = await getAlertOrThrow(ctx, alertId, tx);
    if (alert.status === "resolved") throw new AppError("CONFLICT", `This alert is already resolved (${alert.resolution ?? "resolved"})`, { status: alert.status, resolution: alert.resolution });
    const toolName = alert.toolName;
    if (isVersionKind(alert.kind) && toolName && alert.candidateHash) {
      if (input.hash !== alert.candidateHash) throw stale(alert.candidateHash);
      const now = new Date();
      const data = { approvedHash: input.hash, source: "approved", approvedBy: by, approvedAt: now, blockedHash: null };
      await tx.toolBaseline.upsert({
        where: { serverId_toolName: { serverId: alert.serverId, toolName } },
        create: { tenantId: ctx.tenantId, serverId: alert.serverId, toolName, ...data },
        update: data,
      });
    } else if (alert.kind === "tool_removed" && toolName) {
      // Approving a removal retires the baseline: if the tool ever comes back it is new again.
      if (input.hash !== alert.baselineHash) throw stale(alert.baselineHash);
      await tx.toolBaseline.deleteMany({ where: { tenantId: ctx.tenantId, serverId: alert.serverId, toolName } });
    } else {
      throw new AppError("CONFLICT", "There is no tool version to approve in this alert: acknowledge it instead", { kind: alert.kind });
    }
    await resolveAlert(tx, ctx.tenantId, alert, "approved", by, { comment, notify: true });
    await recordAudit(tx, ctx, "alert.approved", { type: "alert", id: alert.id }, {
      server: alert.server.name,
      serverId: alert.serverId,
      kind: alert.kind,
      toolName,
      hash: input.hash,
      comment,
    });
  });
  return toAlertSummary(await getAlertOrThrow(ctx, alertId));
}

function stale(currentHash: string | null): AppError {
  return new AppError(
    "CONFLICT",
    "The tool's live definition changed after this alert was opened: review the new version, then approve its hash",
    { currentHash },
  );
}
