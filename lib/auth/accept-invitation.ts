import { recordAudit } from "@/lib/audit-log/record-audit";
import { isRole } from "@/lib/context";
import type { Db } from "@/lib/db";
import { AppError } from "@/lib/errors";
import { isUuid } from "@/lib/ids";
import { notifyInTx } from "@/lib/realtime/notify";
import { getAuth } from "./auth";

// better-auth error codes → what the invitee should read.
const REASONS: Record<string, [number, string]> = {
  YOU_ARE_NOT_THE_RECIPIENT_OF_THE_INVITATION: [403, "This invitation is for another email address: sign in with the invited address"],
  INVITATION_NOT_FOUND: [404, "This invitation does not exist, was canceled, has expired or was already used"],
  USER_IS_ALREADY_A_MEMBER_OF_THIS_ORGANIZATION: [409, "You are already a member of this team"],
};

/**
 * Accepts an invitation for the signed-in user of `headers` (better-auth checks the email,
 * status and expiry, adds the member and makes the team active), then writes the audit event.
 */
export async function acceptInvitation(db: Db, headers: Headers, invitationId: string): Promise<{ tenantId: string; role: string }> {
  if (!isUuid(invitationId)) throw new AppError("NOT_FOUND", "Invitation not found");
  const result = await getAuth()
    .api.acceptInvitation({ headers, body: { invitationId } })
    .catch((error: { body?: { code?: string; message?: string }; message?: string }) => {
      const code = error.body?.code ?? "";
      const [status, message] = REASONS[code] ?? [400, error.body?.message ?? error.message ?? "The invitation could not be accepted"];
      throw new AppError(status === 403 ? "FORBIDDEN" : status === 404 ? "NOT_FOUND" : status === 409 ? "CONFLICT" : "INVALID_INPUT", message, { code });
    });
  if (!result?.member) throw new AppError("NOT_FOUND", "Invitation not found");
  const member = await db.member.findUniqueOrThrow({ where: { id: result.member.id }, include: { user: { select: { email: true } } } });
  const role = isRole(member.role) ? member.role : "viewer";
  await db.$transaction(async (tx) => {
    await recordAudit(tx, { tenantId: member.tenantId, db, actor: { kind: "user", id: member.userId, label: member.user.email, role, instanceAdmin: false } }, "member.joined", { type: "member", id: member.id }, { email: member.user.email, role, invitationId });
    // Every open tab of the new member reconnects its socket and joins the team's room.
    await notifyInTx(tx, { type: "membership:changed", tenantId: member.tenantId, userId: member.userId });
  });
  return { tenantId: member.tenantId, role };
}
