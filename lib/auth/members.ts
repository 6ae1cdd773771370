import { withTransaction } from "@/lib/transaction";
import { z } from "zod";
import { recordAudit } from "@/lib/audit-log/record-audit";
import { isRole, ROLE_NAMES, type Role, type ServiceContext } from "@/lib/context";
import type { Tx } from "@/lib/db";
import { AppError } from "@/lib/errors";
import { isUuid } from "@/lib/ids";
import { notifyInTx } from "@/lib/realtime/notify";
import { invalidInput } from "@/lib/validation";
import { revokeKeysHeldBy } from "./key-ownership";
import { actorRole, requirePermission, ROLE_RANK } from "./permissions";

export type MemberSummary = { id: string; userId: string; email: string; name: string; role: Role; joinedAt: Date };

export async function listMembers(ctx: ServiceContext): Promise<MemberSummary[]> {
  requirePermission(ctx, "team:read");
  const rows = await ctx.db.member.findMany({
    where: { tenantId: ctx.tenantId },
    orderBy: { createdAt: "asc" },
    select: { id: true, userId: true, role: true, createdAt: true, user: { select: { email: true, name: true } } },
  });
  return rows.map((r) => ({ id: r.id, userId: r.userId, email: r.user.email, name: r.user.name, role: isRole(r.role) ? r.role : "viewer", joinedAt: r.createdAt }));
}

export const RoleChange = z.object({ role: z.enum(ROLE_NAMES) });

/**
 * Changes a member's role. Admins manage admins, members and viewers; only owners touch owners
 * (grant or take away); a team always keeps at least one owner.
 */
export async function changeMemberRole(ctx: ServiceContext, memberId: string, raw: unknown): Promise<MemberSummary> {
  requirePermission(ctx, "member:manage");
  const parsed = RoleChange.safeParse(raw);
  if (!parsed.success) throw invalidInput(parsed.error);
  const { role } = parsed.data;
  return withTransaction(ctx, async (tx) => {
    const target = await lockMember(tx, ctx, memberId);
    const mine = actorRole(ctx);
    if ((target.role === "owner" || role === "owner") && mine !== "owner") {
      throw new AppError("FORBIDDEN", "Only an owner can make someone an owner or change an owner's role");
    }
    if (ROLE_RANK[role] > ROLE_RANK[mine]) throw new AppError("FORBIDDEN", `You cannot grant ${role}: it is above your own role`);
    if (target.role === "owner" && role !== "owner") await keepAnOwner(tx, ctx, target.id);
    if (target.role !== role) {
      await tx.member.update({ where: { id: target.id }, data: { role } });
      await recordAudit(tx, ctx, "member.role_changed", { type: "member", id: target.id }, { email: target.email, from: target.role, to: role });
      if (ROLE_RANK[role] < ROLE_RANK[target.role]) await revokeKeysHeldBy(tx, ctx, { userId: target.userId, email: target.email }, { above: role });
    }
    return { ...target, role };
  });
}

/** Removes a member (or lets a member leave). Their sockets are disconnected and their API keys revoked at once. */
export async function removeMember(ctx: ServiceContext, memberId: string): Promise<void> {
  const self = ctx.actor.kind === "user";
  await withTransaction(ctx, async (tx) => {
    const target = await lockMember(tx, ctx, memberId);
    const leaving = self && target.userId === ctx.actor.id;
    if (!leaving) {
      requirePermission(ctx, "member:manage");
      if (target.role === "owner" && actorRole(ctx) !== "owner") throw new AppError("FORBIDDEN", "Only an owner can remove an owner");
    }
    if (target.role === "owner") await keepAnOwner(tx, ctx, target.id);
    await tx.member.delete({ where: { id: target.id } });
    await recordAudit(tx, ctx, "member.removed", { type: "member", id: target.id }, { email: target.email, role: target.role, left: leaving });
    // Their keys go with them (unless an admin transferred them to someone who stays).
    await revokeKeysHeldBy(tx, ctx, { userId: target.userId, email: target.email });
    await notifyInTx(tx, { type: "membership:changed", tenantId: ctx.tenantId, userId: target.userId });
  });
}

async function lockMember(tx: Tx, ctx: ServiceContext, memberId: string): Promise<MemberSummary> {
  if (!isUuid(memberId)) throw new AppError("NOT_FOUND", "Member not found");
  // Row locks on the team's owners serialise concurrent demotions (no team ends up ownerless).
  await tx.$queryRaw`SELECT id FROM tenant_member WHERE tenant_id = ${ctx.tenantId}::uuid AND role = 'owner' FOR UPDATE`;
  const row = await tx.member.findFirst({
    where: { id: memberId, tenantId: ctx.tenantId },
    select: { id: true, userId: true, role: true, createdAt: true, user: { select: { email: true, name: true } } },
  });
  if (!row) throw new AppError("NOT_FOUND", "Member not found");
  return { id: row.id, userId: row.userId, email: row.user.email, name: row.user.name, role: isRole(row.role) ? row.role : "viewer", joinedAt: row.createdAt };
}

async function keepAnOwner(tx: Tx, ctx: ServiceContext, leavingOwnerId: string): Promise<void> {
  const others = await tx.member.count({ where: { tenantId: ctx.tenantId, role: "owner", id: { not: leavingOwnerId } } });
  if (others === 0) throw new AppError("CONFLICT", "A team needs at least one owner: make someone else an owner first");
}
