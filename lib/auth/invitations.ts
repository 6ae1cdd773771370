import { withTransaction } from "@/lib/transaction";
import { z } from "zod";
import { recordAudit } from "@/lib/audit-log/record-audit";
import { ROLE_NAMES, type ServiceContext } from "@/lib/context";
import type { Db } from "@/lib/db";
import { AppError } from "@/lib/errors";
import { isUuid } from "@/lib/ids";
import { invalidInput } from "@/lib/validation";
import { actorRole, requirePermission, ROLE_RANK } from "./permissions";

// Invitations by link: no mail server. The inviter sees the link (/invite/<id>, an unguessable
// uuid) and passes it on; the invitee signs in or up with the invited email and accepts.
// Rows are better-auth's, so its acceptInvitation (email match, expiry, status) does the joining.
export const INVITATION_DAYS = 7;

export const InvitationInput = z.object({
  email: z.string().trim().toLowerCase().email("a valid email address is required").max(200),
  role: z.enum(ROLE_NAMES),
});

export type InvitationSummary = { id: string; email: string; role: string; status: string; expiresAt: Date; createdAt: Date; inviter: string; path: string };

export async function createInvitation(ctx: ServiceContext, raw: unknown): Promise<InvitationSummary> {
  requirePermission(ctx, "member:manage");
  if (ctx.actor.kind !== "user") throw new AppError("FORBIDDEN", "Invitations are created by a signed-in person, not an API key");
  const parsed = InvitationInput.safeParse(raw);
  if (!parsed.success) throw invalidInput(parsed.error);
  const { email, role } = parsed.data;
  if (ROLE_RANK[role] > ROLE_RANK[actorRole(ctx)]) throw new AppError("FORBIDDEN", `You cannot invite as ${role}: it is above your own role`);
  const inviterId = ctx.actor.id;
  return withTransaction(ctx, async (tx) => {
    const already = await tx.member.findFirst({ where: { tenantId: ctx.tenantId, user: { email } }, select: { id: true } });
    if (already) throw new AppError("CONFLICT", `${email} is already a member of this team`);
    // A new invitation replaces any pending one for the same address (only the latest link works).
    await tx.invitation.updateMany({ where: { tenantId: ctx.tenantId, email, status: "pending" }, data: { status: "canceled" } });
    const row = await tx.invitation.create({
      data: { tenantId: ctx.tenantId, email, role, status: "pending", inviterId, expiresAt: new Date(Date.now() + INVITATION_DAYS * 86_400_000) },
      include: { inviter: { select: { email: true } } },
    });
    await recordAudit(tx, ctx, "invitation.created", { type: "invitation", id: row.id }, { email, role });
    return toSummary(row);
  });
}

export async function listInvitations(ctx: ServiceContext): Promise<InvitationSummary[]> {
  requirePermission(ctx, "member:manage");
  const rows = await ctx.db.invitation.findMany({
    where: { tenantId: ctx.tenantId, status: "pending" },
    orderBy: { createdAt: "desc" },
    include: { inviter: { select: { email: true } } },
  });
  return rows.map(toSummary);
}

export async function cancelInvitation(ctx: ServiceContext, invitationId: string): Promise<void> {
  requirePermission(ctx, "member:manage");
  const row = isUuid(invitationId) ? await ctx.db.invitation.findFirst({ where: { id: invitationId, tenantId: ctx.tenantId } }) : null;
  if (!row) throw new AppError("NOT_FOUND", "Invitation not found");
  if (row.status !== "pending") return;
  await withTransaction(ctx, async (tx) => {
    await tx.invitation.update({ where: { id: row.id }, data: { status: "canceled" } });
    await recordAudit(tx, ctx, "invitation.canceled", { type: "invitation", id: row.id }, { email: row.email, role: row.role });
  });
}

/** What the invitation page shows to whoever holds the link (no sign-in needed to read it). */
export async function describeInvitation(db: Db, invitationId: string) {
  const row = isUuid(invitationId)
    ? await db.invitation.findUnique({ where: { id: invitationId }, include: { tenant: { select: { name: true, slug: true } }, inviter: { select: { email: true } } } })
    : null;
  if (!row) throw new AppError("NOT_FOUND", "Invitation not found");
  const expired = row.expiresAt.getTime() <= Date.now();
  return {
    id: row.id,
    team: { name: row.tenant.name, slug: row.tenant.slug },
    email: row.email,
    role: row.role,
    inviter: row.inviter.email,
    expiresAt: row.expiresAt,
    status: row.status === "pending" && expired ? "expired" : row.status,
  };
}

function toSummary(row: { id: string; email: string; role: string | null; status: string; expiresAt: Date; createdAt: Date; inviter: { email: string } }): InvitationSummary {
  return {
    id: row.id,
    email: row.email,
    role: row.role ?? "member",
    status: row.status === "pending" && row.expiresAt.getTime() <= Date.now() ? "expired" : row.status,
    expiresAt: row.expiresAt,
    createdAt: row.createdAt,
    inviter: row.inviter.email,
    path: `/invite/${row.id}`,
  };
}
