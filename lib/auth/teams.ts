import { z } from "zod";
import { recordAudit } from "@/lib/audit-log/record-audit";
import type { Actor, Role, ServiceContext } from "@/lib/context";
import type { Db } from "@/lib/db";
import { AppError } from "@/lib/errors";
import { Prisma } from "@/lib/generated/prisma/client";
import { notifyInTx } from "@/lib/realtime/notify";
import { invalidInput, parseInput } from "@/lib/validation";
import type { Principal } from "./authenticate";

// Teams are tenants (better-auth's organizations live in the same table).
/** POST /api/v1/teams/active: switch the session's active team. */
export const SwitchTeamInput = z.object({ teamId: z.string().uuid("teamId must be a team id") });

export const TeamInput = z.object({
  slug: z
    .string()
    .trim()
    .toLowerCase()
    .regex(/^[a-z0-9](?:[a-z0-9-]{0,38}[a-z0-9])?$/, "slug: 1–40 lowercase letters, digits and dashes, not starting or ending with a dash"),
  name: z.string().trim().min(1, "name is required").max(100).optional(),
});

export type TeamSummary = { id: string; slug: string; name: string; role: Role };

/**
 * Creates a team. With an owner, that user becomes its owner (the UI path); without one (the
 * admin CLI) the team starts empty and is reached through API keys or an invitation.
 */
// internal-writer: a new team has no members to hold a permission yet (any signed-in person, or the admin CLI); audited as team.created
export async function createTeam(db: Db, raw: unknown, creator: { userId: string; email: string } | null, actor: Actor): Promise<{ id: string; slug: string; name: string }> {
  const parsed = TeamInput.safeParse(raw);
  if (!parsed.success) throw invalidInput(parsed.error);
  const { slug } = parsed.data;
  const name = parsed.data.name ?? slug;
  try {
    return await db.$transaction(async (tx) => {
      const tenant = await tx.tenant.create({ data: { slug, name }, select: { id: true, slug: true, name: true } });
      if (creator) {
        await tx.member.create({ data: { tenantId: tenant.id, userId: creator.userId, role: "owner" } });
        // The creator's open sockets reconnect and join the new team's room.
        await notifyInTx(tx, { type: "membership:changed", tenantId: tenant.id, userId: creator.userId });
      }
      const ctx: ServiceContext = { tenantId: tenant.id, actor, db };
      await recordAudit(tx, ctx, "team.created", { type: "team", id: tenant.id }, { slug, name, owner: creator?.email ?? null });
      return tenant;
    });
  } catch (error) {
    if (error instanceof Prisma.PrismaClientKnownRequestError && error.code === "P2002") {
      throw new AppError("CONFLICT", `A team with slug "${slug}" already exists`);
    }
    throw error;
  }
}

export async function listTeamsOf(db: Db, userId: string): Promise<TeamSummary[]> {
  const rows = await db.member.findMany({
    where: { userId },
    orderBy: { createdAt: "asc" },
    select: { role: true, tenant: { select: { id: true, slug: true, name: true } } },
  });
  return rows.map((r) => ({ ...r.tenant, role: r.role as Role }));
}

/** Makes `tenantId` the active team of the session whose token is given (membership checked). */
// internal-writer: a person's own session setting, checked against their membership
export async function switchTeam(db: Db, userId: string, sessionToken: string, tenantId: string): Promise<void> {
  const member = await db.member.findFirst({ where: { userId, tenantId }, select: { id: true } });
  if (!member) throw new AppError("NOT_FOUND", "Team not found");
  await db.session.updateMany({ where: { token: sessionToken, userId }, data: { activeTenantId: tenantId } });
}

type SignedInUser = Extract<Principal, { kind: "user" }>;

/** POST /api/v1/teams: a signed-in person creates a team, becomes its owner, and it becomes their session's active team. */
export async function createOwnTeam(db: Db, user: SignedInUser, raw: unknown): Promise<{ id: string; slug: string; name: string }> {
  const actor: Actor = { kind: "user", id: user.userId, label: user.email, role: "owner", instanceAdmin: user.instanceAdmin };
  const team = await createTeam(db, raw, { userId: user.userId, email: user.email }, actor);
  await switchTeam(db, user.userId, user.sessionToken, team.id);
  return team;
}

/** POST /api/v1/teams/active: `{ teamId }` becomes the session's active team (a team the user is not in: 404). */
export async function switchActiveTeam(db: Db, user: SignedInUser, raw: unknown): Promise<{ activeTeamId: string }> {
  const { teamId } = parseInput(SwitchTeamInput, raw);
  await switchTeam(db, user.userId, user.sessionToken, teamId);
  return { activeTeamId: teamId };
}
