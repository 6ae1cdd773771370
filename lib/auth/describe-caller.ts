import type { Db } from "@/lib/db";
import { AppError } from "@/lib/errors";
import { contextForPrincipal, type Principal } from "./authenticate";
import { permissionsOf } from "./permissions";
import { listTeamsOf } from "./teams";

/**
 * GET /api/v1/me: who is calling, in which team, with which role and permissions (the UI hides
 * what the role may not do; the verbs refuse it anyway). A person in no team yet is answered too,
 * with team and role null, so the UI can offer to create or join one.
 */
export async function describeCaller(db: Db, principal: Principal) {
  if (principal.kind === "apiKey") {
    const ctx = await contextForPrincipal(db, principal);
    const team = await db.tenant.findUniqueOrThrow({ where: { id: ctx.tenantId }, select: { id: true, slug: true, name: true } });
    return { kind: "apiKey", key: { id: principal.keyId, label: principal.label }, user: null, team, role: principal.role, permissions: permissionsOf(principal.role), teams: [] };
  }
  const teams = await listTeamsOf(db, principal.userId);
  const user = { id: principal.userId, email: principal.email, name: principal.name, instanceAdmin: principal.instanceAdmin };
  try {
    const ctx = await contextForPrincipal(db, principal);
    const team = teams.find((t) => t.id === ctx.tenantId)!;
    const role = ctx.actor.kind === "user" ? ctx.actor.role : "viewer";
    return { kind: "user", user, team: { id: team.id, slug: team.slug, name: team.name }, role, permissions: permissionsOf(role), teams };
  } catch (error) {
    if (error instanceof AppError && error.code === "FORBIDDEN") return { kind: "user", user, team: null, role: null, permissions: [], teams };
    throw error;
  }
}
