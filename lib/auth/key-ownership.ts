import { withTransaction } from "@/lib/transaction";
import { z } from "zod";
import { actorLabel, recordAudit } from "@/lib/audit-log/record-audit";
import { isRole, type Role, type ServiceContext } from "@/lib/context";
import type { Tx } from "@/lib/db";
import { AppError } from "@/lib/errors";
import { isUuid } from "@/lib/ids";
import { invalidInput } from "@/lib/validation";
import { lockMembership, toSummary, type ApiKeySummary } from "./api-keys";
import { parseKeyMetadata, type KeyMetadata } from "./key-metadata";
import { actorRole, requirePermission, ROLE_RANK } from "./permissions";

// Who holds a team API key. Keys belong to the team and are listed with the person who holds
// them: their creator, or the member an admin transferred them to. When the holder leaves the
// team (removed or by themselves) their active keys are revoked in the same transaction, so a
// removed person's automation stops at once. Keys minted by the operator's CLI have no holder.

const holds = (meta: KeyMetadata, holder: { userId: string; email: string }) =>
  // Keys minted before holders were recorded name their creator by email only.
  meta.createdByUserId ? meta.createdByUserId === holder.userId : meta.createdBy === holder.email;

/**
 * Revokes the active keys `holder` holds in ctx's team: all of them where their membership ends,
 * or (`above`) those whose role is above the role they were just given — a demoted admin's admin
 * key would otherwise keep the rights its holder lost.
 */
// internal-writer: a step of changeMemberRole/removeMember, inside their transaction after they authorized and audited
export async function revokeKeysHeldBy(tx: Tx, ctx: ServiceContext, holder: { userId: string; email: string }, options: { above?: Role } = {}): Promise<number> {
  const rows = await tx.apiKey.findMany({ where: { referenceId: ctx.tenantId, enabled: { not: false } }, select: { id: true, name: true, start: true, metadata: true } });
  const held = rows.filter((row) => {
    const meta = parseKeyMetadata(row.metadata);
    return holds(meta, holder) && (!options.above || ROLE_RANK[meta.role ?? "owner"] > ROLE_RANK[options.above]);
  });
  const reason = options.above ? `${holder.email} became ${options.above}, below the key's role` : `${holder.email} left the team`;
  for (const row of held) {
    const meta = parseKeyMetadata(row.metadata);
    await tx.apiKey.update({ where: { id: row.id }, data: { enabled: false, metadata: JSON.stringify({ ...meta, revokedAt: new Date().toISOString(), revokedBy: actorLabel(ctx.actor) }) } });
    await recordAudit(tx, ctx, "key.revoked", { type: "apiKey", id: row.id }, { name: row.name, role: meta.role, start: row.start, reason });
  }
  return held.length;
}

export const TransferInput = z.object({ memberId: z.string().min(1, "memberId is required").max(100) });

/**
 * Hands a key over to another member of the team (before its holder leaves, say): a signed-in
 * admin or owner, for a key at most their own role, to a member whose role is at least the key's.
 */
export async function transferApiKey(ctx: ServiceContext, keyId: string, raw: unknown): Promise<ApiKeySummary> {
  requirePermission(ctx, "key:manage");
  if (ctx.actor.kind !== "user") throw new AppError("FORBIDDEN", "Keys are transferred by a signed-in person, not by an API key");
  const parsed = TransferInput.safeParse(raw);
  if (!parsed.success) throw invalidInput(parsed.error);
  const { memberId } = parsed.data;
  return withTransaction(ctx, async (tx) => {
    const row = isUuid(keyId) ? await tx.apiKey.findFirst({ where: { id: keyId, referenceId: ctx.tenantId } }) : null;
    if (!row) throw new AppError("NOT_FOUND", "API key not found");
    const meta = parseKeyMetadata(row.metadata);
    const keyRole = meta.role ?? "owner";
    if (ROLE_RANK[keyRole] > ROLE_RANK[actorRole(ctx)]) throw new AppError("FORBIDDEN", `You cannot transfer a key with role ${keyRole}: it is above your own role`);
    if (row.enabled === false) throw new AppError("CONFLICT", "This key is revoked: it cannot be transferred");
    const target = isUuid(memberId)
      ? await tx.member.findFirst({ where: { id: memberId, tenantId: ctx.tenantId }, select: { userId: true, role: true, user: { select: { email: true } } } })
      : null;
    if (!target) throw new AppError("NOT_FOUND", "Member not found");
    const targetRole = isRole(target.role) ? target.role : "viewer";
    if (ROLE_RANK[keyRole] > ROLE_RANK[targetRole]) {
      throw new AppError("FORBIDDEN", `${target.user.email} is ${targetRole}: a key with role ${keyRole} can only go to a member with at least that role`);
    }
    await lockMembership(tx, ctx.tenantId, target.userId);
    const next = await tx.apiKey.update({
      where: { id: row.id },
      data: { metadata: JSON.stringify({ ...meta, createdBy: target.user.email, createdByUserId: target.userId }) },
    });
    await recordAudit(tx, ctx, "key.transferred", { type: "apiKey", id: row.id }, { name: row.name, role: keyRole, start: row.start, from: meta.createdBy ?? null, to: target.user.email });
    return toSummary(next);
  });
}
