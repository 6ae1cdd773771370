import type { Role, ServiceContext } from "@/lib/context";
import { AppError } from "@/lib/errors";

// What each team role may do. One table, checked on the server by every verb and route; the UI
// reads the same table (via GET /api/v1/me) only to hide what would be refused anyway.
export const PERMISSIONS = {
  "team:read": "see the team's servers, snapshots, alerts and views",
  "server:write": "add, edit or remove servers",
  "server:refresh": "ask for an immediate re-list of a server",
  "alert:review": "acknowledge and review alerts",
  "view:write": "save views",
  "member:manage": "invite people, remove members and change roles",
  "key:manage": "create and revoke API keys",
  "audit:read": "read the audit log",
  "webhook:manage": "manage webhooks",
} as const;
export type Permission = keyof typeof PERMISSIONS;

const VIEWER: Permission[] = ["team:read"];
const MEMBER: Permission[] = [...VIEWER, "server:refresh", "alert:review", "view:write"];
const ADMIN: Permission[] = [...MEMBER, "server:write", "member:manage", "key:manage", "audit:read", "webhook:manage"];

export const ROLE_PERMISSIONS: Record<Role, ReadonlySet<Permission>> = {
  owner: new Set(ADMIN),
  admin: new Set(ADMIN),
  member: new Set(MEMBER),
  viewer: new Set(VIEWER),
};

/** Rank for "may not grant more than you have": owner 3 … viewer 0. */
export const ROLE_RANK: Record<Role, number> = { owner: 3, admin: 2, member: 1, viewer: 0 };

export function roleCan(role: Role, permission: Permission): boolean {
  return ROLE_PERMISSIONS[role].has(permission);
}

/**
 * What a share link may do: read its own team (the verbs behind GET /api/v1/share/{token} then
 * project the view's servers, tools and alerts). Every other permission, and any read in another
 * team's context, is refused, whatever code path hands a share context to a verb.
 */
export const SHARE_PERMISSIONS: ReadonlySet<Permission> = new Set<Permission>(["team:read"]);

export function can(ctx: ServiceContext, permission: Permission): boolean {
  const { actor } = ctx;
  if (actor.kind === "system") return true;
  if (actor.kind === "share") return actor.tenantId === ctx.tenantId && SHARE_PERMISSIONS.has(permission);
  return roleCan(actor.role, permission);
}

export function requirePermission(ctx: ServiceContext, permission: Permission): void {
  if (can(ctx, permission)) return;
  if (ctx.actor.kind === "share") throw new AppError("FORBIDDEN", `A share link may not ${PERMISSIONS[permission]}`);
  const role = ctx.actor.kind === "system" ? "system" : ctx.actor.role;
  throw new AppError("FORBIDDEN", `Your role (${role}) may not ${PERMISSIONS[permission]}`);
}

/** The role used for ceilings ("may not grant above your own role"); a share link ranks lowest. */
export function actorRole(ctx: ServiceContext): Role {
  const { actor } = ctx;
  if (actor.kind === "system") return "owner";
  if (actor.kind === "share") return "viewer";
  return actor.role;
}

export function permissionsOf(role: Role): Permission[] {
  return [...ROLE_PERMISSIONS[role]];
}
