import type { Actor, ServiceContext } from "@/lib/context";
import type { Tx } from "@/lib/db";
import type { Prisma } from "@/lib/generated/prisma/client";

// Audit actions, named <object>.<verb>. Closed list so the UI can label them.
export type AuditAction =
  | "team.created"
  | "team.identity_probes_updated"
  | "team.context_budget_updated"
  | "server.created"
  | "server.updated"
  | "server.deleted"
  | "server.refresh_requested"
  | "server.oauth_authorize_started"
  | "server.oauth_authorized"
  | "member.joined"
  | "member.role_changed"
  | "member.removed"
  | "invitation.created"
  | "invitation.canceled"
  | "key.created"
  | "key.revoked"
  | "key.transferred"
  | "alert.acknowledged"
  | "alert.approved"
  | "alert.rejected"
  | "baseline.auto_accepted"
  | "baseline.renamed"
  | "webhook.created"
  | "webhook.updated"
  | "webhook.deleted"
  | "webhook.tested"
  | "view.created"
  | "view.updated"
  | "view.deleted"
  | "view.pinned"
  | "view.unpinned"
  | "share.created"
  | "share.revoked";

export function actorLabel(actor: Actor): string {
  return actor.kind === "system" ? `system (${actor.id})` : actor.label;
}

/** Appends one audit event in the caller's transaction: the change and its record commit together. */
// internal-writer: the audit log's own writer
export async function recordAudit(
  tx: Tx,
  ctx: ServiceContext,
  action: AuditAction,
  target?: { type: string; id: string } | null,
  details?: Record<string, unknown>,
): Promise<void> {
  await tx.auditEvent.create({
    data: {
      tenantId: ctx.tenantId,
      actorKind: ctx.actor.kind,
      actorId: ctx.actor.id,
      actorLabel: actorLabel(ctx.actor),
      action,
      targetType: target?.type ?? null,
      targetId: target?.id ?? null,
      ...(details ? { details: details as Prisma.InputJsonValue } : {}),
    },
  });
}
