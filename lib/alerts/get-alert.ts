import { requirePermission } from "@/lib/auth/permissions";
import type { ServiceContext } from "@/lib/context";
import { diffTool, type ToolLike } from "@/lib/diff";
import type { AlertDecision, AlertDetail, AlertDetails, AlertFinding, BaselineDto } from "./alert-dto";
import { toAlertSummary } from "./alert-store";
import { getAlertOrThrow } from "./get-alert-or-throw";

/**
 * One alert as the reviewer sees it: the baseline and candidate definitions, the diff between
 * them (fields by JSON Pointer, word segments for text), findings with evidence, and every
 * decision taken on it so far.
 */
export async function getAlert(ctx: ServiceContext, alertId: string): Promise<AlertDetail> {
  requirePermission(ctx, "team:read");
  const alert = await getAlertOrThrow(ctx, alertId);
  const hashes = [alert.baselineHash, alert.candidateHash].filter((h): h is string => h !== null);
  const [server, baseline, versions, events] = await Promise.all([
    ctx.db.mcpServer.findFirstOrThrow({ where: { id: alert.serverId, tenantId: ctx.tenantId }, select: { id: true, name: true, auditPolicy: true } }),
    alert.toolName ? ctx.db.toolBaseline.findFirst({ where: { tenantId: ctx.tenantId, serverId: alert.serverId, toolName: alert.toolName } }) : null,
    hashes.length ? ctx.db.toolVersion.findMany({ where: { tenantId: ctx.tenantId, hash: { in: hashes } }, select: { hash: true, definition: true } }) : [],
    ctx.db.auditEvent.findMany({ where: { tenantId: ctx.tenantId, targetType: "alert", targetId: alert.id }, orderBy: { at: "asc" }, take: 200 }),
  ]);
  const definitionOf = (hash: string | null) => {
    const row = hash ? versions.find((v) => v.hash === hash) : undefined;
    return row ? { hash: row.hash, definition: row.definition as ToolLike } : null;
  };
  const baselineVersion = definitionOf(alert.baselineHash);
  const candidateVersion = definitionOf(alert.candidateHash);
  return {
    alert: toAlertSummary(alert),
    server,
    findings: (Array.isArray(alert.findings) ? alert.findings : []) as AlertFinding[],
    details: (alert.details ?? {}) as AlertDetails,
    baseline: baseline ? baselineDto(baseline) : null,
    baselineVersion,
    candidateVersion,
    diff: baselineVersion && candidateVersion && baselineVersion.hash !== candidateVersion.hash ? diffTool(baselineVersion.definition, candidateVersion.definition) : null,
    decisions: events.map((e): AlertDecision => {
      const d = (e.details ?? {}) as { comment?: unknown; hash?: unknown };
      return {
        action: e.action,
        actor: e.actorLabel,
        at: e.at.toISOString(),
        comment: typeof d.comment === "string" ? d.comment : null,
        hash: typeof d.hash === "string" ? d.hash : null,
      };
    }),
  };
}

export function baselineDto(row: { toolName: string; approvedHash: string | null; source: string; approvedBy: string | null; approvedAt: Date | null; blockedHash: string | null }): BaselineDto {
  return {
    toolName: row.toolName,
    approvedHash: row.approvedHash,
    source: row.source,
    approvedBy: row.approvedBy,
    approvedAt: row.approvedAt?.toISOString() ?? null,
    blockedHash: row.blockedHash,
  };
}
