import { expect } from "vitest";
import type { AuditAction } from "@/lib/audit-log/record-audit";
import { actorLabel } from "@/lib/audit-log/record-audit";
import type { ServiceContext } from "@/lib/context";
import { testDb } from "./factories";

export type ExpectedAudit = {
  action: AuditAction;
  /** The row the event is about; compared when given. */
  target?: { type: string; id: string };
  /** A subset of the event's details (toMatchObject). */
  details?: Record<string, unknown>;
};

/**
 * Asserts that `ctx`'s actor left exactly one audit event of this action (on this target) in
 * ctx's team, and returns it. The actor is compared too, so a verb that audits as the wrong
 * principal (or as "system") fails here.
 */
export async function expectAuditRow(ctx: ServiceContext, expected: ExpectedAudit) {
  const rows = await testDb().auditEvent.findMany({
    where: { tenantId: ctx.tenantId, action: expected.action, ...(expected.target ? { targetType: expected.target.type, targetId: expected.target.id } : {}) },
  });
  const what = `audit ${expected.action}${expected.target ? ` on ${expected.target.type} ${expected.target.id}` : ""}`;
  expect(rows, `${what}: expected one event`).toHaveLength(1);
  const row = rows[0]!;
  expect({ actorKind: row.actorKind, actorId: row.actorId, actorLabel: row.actorLabel }, `${what}: actor`).toEqual({
    actorKind: ctx.actor.kind,
    actorId: ctx.actor.id,
    actorLabel: actorLabel(ctx.actor),
  });
  if (expected.details) expect(row.details, `${what}: details`).toMatchObject(expected.details);
  return row;
}
