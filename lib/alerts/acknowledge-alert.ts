import { withTransaction } from "@/lib/transaction";
import { recordAudit, actorLabel } from "@/lib/audit-log/record-audit";
import { requirePermission } from "@/lib/auth/permissions";
import type { ServiceContext } from "@/lib/context";
import { AppError } from "@/lib/errors";
import { isUuid } from "@/lib/ids";
import { notifyInTx } from "@/lib/realtime/notify";
import type { AlertSummary, BulkAcknowledgeResult } from "./alert-dto";
import { lockServer, toAlertSummary } from "./alert-store";
import { AcknowledgeInput, BulkAcknowledgeInput, commentOf } from "./decision-input";
import { parseInput } from "@/lib/validation";
import { getAlertOrThrow } from "./get-alert-or-throw";

/** open → acknowledged ("someone is on it"). Acknowledging twice is a no-op; a resolved alert is a 409. */
export async function acknowledgeAlert(ctx: ServiceContext, alertId: string, raw: unknown): Promise<AlertSummary> {
  requirePermission(ctx, "alert:review");
  const input = parseInput(AcknowledgeInput, raw);
  const alert = await getAlertOrThrow(ctx, alertId);
  if (alert.status === "resolved") throw new AppError("CONFLICT", `This alert is already resolved (${alert.resolution ?? "resolved"})`, { status: alert.status });
  if (alert.status === "acknowledged") return toAlertSummary(alert);
  const result = await acknowledge(ctx, [alert.id], commentOf(input));
  if (result.acknowledged.length === 0) throw new AppError("CONFLICT", "This alert changed state meanwhile; reload it");
  return toAlertSummary(await getAlertOrThrow(ctx, alert.id));
}

/** Acknowledges many alerts at once; ids that are missing, foreign or not open are reported, not fatal. */
export async function bulkAcknowledgeAlerts(ctx: ServiceContext, raw: unknown): Promise<BulkAcknowledgeResult> {
  requirePermission(ctx, "alert:review");
  const input = parseInput(BulkAcknowledgeInput, raw);
  return acknowledge(ctx, [...new Set(input.ids)], commentOf(input));
}

async function acknowledge(ctx: ServiceContext, ids: string[], comment: string | null): Promise<BulkAcknowledgeResult> {
  const by = actorLabel(ctx.actor);
  const valid = ids.filter(isUuid);
  return withTransaction(ctx, async (tx) => {
    const rows = await tx.alert.findMany({
      where: { tenantId: ctx.tenantId, id: { in: valid } },
      select: { id: true, serverId: true, status: true, kind: true, toolName: true, server: { select: { name: true } } },
    });
    // Under the servers' evaluation locks (in a fixed order): an acknowledgement never lands on a
    // version the evaluation is replacing at that moment.
    for (const serverId of [...new Set(rows.map((r) => r.serverId))].sort()) await lockServer(tx, serverId);
    const byId = new Map(rows.map((r) => [r.id, r]));
    const result: BulkAcknowledgeResult = { acknowledged: [], skipped: [] };
    const now = new Date();
    for (const id of ids) {
      const row = byId.get(id);
      if (!row) {
        result.skipped.push({ id, reason: "not found" });
        continue;
      }
      // Conditional: an alert resolved or acknowledged meanwhile is skipped, not overwritten.
      const { count } = await tx.alert.updateMany({
        where: { id, tenantId: ctx.tenantId, status: "open" },
        data: { status: "acknowledged", acknowledgedAt: now, acknowledgedBy: by, ...(comment ? { comment } : {}) },
      });
      if (count === 0) {
        result.skipped.push({ id, reason: row.status === "open" ? "changed meanwhile" : `already ${row.status}` });
        continue;
      }
      await recordAudit(tx, ctx, "alert.acknowledged", { type: "alert", id }, { server: row.server.name, serverId: row.serverId, kind: row.kind, toolName: row.toolName, comment });
      await notifyInTx(tx, { type: "alert:changed", tenantId: ctx.tenantId, serverId: row.serverId, alertId: id });
      result.acknowledged.push(id);
    }
    return result;
  });
}
