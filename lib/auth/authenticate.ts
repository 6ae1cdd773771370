import { isRole, type Role, type ServiceContext } from "@/lib/context";
import type { Db } from "@/lib/db";
import { AppError } from "@/lib/errors";
import { getDb } from "@/lib/db";
import { getAuth } from "./auth";
import { verifyApiKey } from "./verify-api-key";
import { parseKeyMetadata } from "./key-metadata";

// Who is calling: a signed-in user (session cookie) or a team API key (Authorization: Bearer).
export type Principal =
  | { kind: "user"; userId: string; email: string; name: string; instanceAdmin: boolean; activeTenantId: string | null; sessionToken: string }
  | { kind: "apiKey"; keyId: string; label: string; tenantId: string; role: Role };

const BEARER = /^Bearer\s+(\S+)\s*$/i;

/**
 * The principal of a request, or null when it carries no credentials. A Bearer header that
 * does not verify is an error, never a silent fall-back to the cookie.
 */
export async function authenticate(headers: Headers): Promise<Principal | null> {
  const auth = getAuth();
  const authorization = headers.get("authorization");
  if (authorization) {
    const match = BEARER.exec(authorization);
    if (!match) throw new AppError("UNAUTHENTICATED", "Authorization must be 'Bearer <api key>'");
    const verified = await verifyApiKey(getDb(), match[1]!);
    if ("error" in verified) throw new AppError("UNAUTHENTICATED", `API key rejected (${verified.error}): it is unknown, revoked or expired`);
    const { key } = verified;
    const meta = parseKeyMetadata(key.metadata);
    if (!isRole(meta.role)) throw new AppError("UNAUTHENTICATED", "API key carries no valid role");
    return { kind: "apiKey", keyId: key.id, label: `API key "${key.name ?? "unnamed"}" (${key.start ?? "tw_"}…)`, tenantId: key.referenceId, role: meta.role };
  }
  const session = await auth.api.getSession({ headers }).catch(() => null);
  if (!session) return null;
  const user = session.user as typeof session.user & { instanceAdmin?: boolean };
  return {
    kind: "user",
    userId: user.id,
    email: user.email,
    name: user.name,
    instanceAdmin: user.instanceAdmin === true,
    activeTenantId: (session.session as { activeOrganizationId?: string | null }).activeOrganizationId ?? null,
    sessionToken: session.session.token,
  };
}

export async function requirePrincipal(headers: Headers): Promise<Principal> {
  const principal = await authenticate(headers);
  if (!principal) throw new AppError("UNAUTHENTICATED", "Sign in, or send 'Authorization: Bearer <api key>'");
  return principal;
}

/**
 * The team context a principal acts in: a key's own team, or the user's active team (re-checked
 * against membership on every request, so a removed member loses access at once). A user whose
 * active team is gone falls back to their first team.
 */
export async function contextForPrincipal(db: Db, principal: Principal): Promise<ServiceContext> {
  if (principal.kind === "apiKey") {
    return { tenantId: principal.tenantId, db, actor: { kind: "apiKey", id: principal.keyId, label: principal.label, role: principal.role } };
  }
  const memberships = await db.member.findMany({ where: { userId: principal.userId }, orderBy: { createdAt: "asc" }, select: { tenantId: true, role: true } });
  const membership = memberships.find((m) => m.tenantId === principal.activeTenantId) ?? memberships[0];
  if (!membership) {
    throw new AppError("FORBIDDEN", "You are not a member of any team yet: create a team or open an invitation link", { reason: "NO_TEAM" });
  }
  if (!isRole(membership.role)) throw new AppError("FORBIDDEN", `Unknown role "${membership.role}"`);
  return {
    tenantId: membership.tenantId,
    db,
    actor: { kind: "user", id: principal.userId, label: principal.email, role: membership.role, instanceAdmin: principal.instanceAdmin },
  };
}
