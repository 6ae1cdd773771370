import { contextForPrincipal } from "../../../../lib/auth/authenticate";
import { permissionsOf } from "../../../../lib/auth/permissions";
import { listTeamsOf } from "../../../../lib/auth/teams";
import { getDb } from "../../../../lib/db";
import { AppError } from "../../../../lib/errors";
import { route } from "../../../_lib/http";
import { getCaller } from "../../../_lib/request-context";

export const dynamic = "force-dynamic";

// Who am I, in which team, with which role and permissions (the UI hides what the role may not do).
export const GET = route(async (request: Request) => {
  const principal = await getCaller(request);
  const db = getDb();
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
});
