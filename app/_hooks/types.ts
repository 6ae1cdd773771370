// What the account and team endpoints return, as the browser sees it (dates are ISO strings).
import { ROLE_RANK, type Permission } from "@/lib/auth/permissions";
import { ROLE_NAMES, type Role } from "@/lib/context";

export type { Permission, Role };
export const ROLES: readonly Role[] = ROLE_NAMES;

export type TeamRef = { id: string; slug: string; name: string };

export type Me = {
  kind: "user";
  user: { id: string; email: string; name: string; instanceAdmin: boolean };
  team: TeamRef | null;
  role: Role | null;
  permissions: Permission[];
  teams: (TeamRef & { role: Role })[];
};

export type Member = { id: string; userId: string; email: string; name: string; role: Role; joinedAt: string };

export type Invitation = { id: string; email: string; role: Role; status: string; expiresAt: string; createdAt: string; inviter: string; path: string; url?: string };

export type PublicInvitation = { id: string; team: { name: string; slug: string }; email: string; role: Role; inviter: string; expiresAt: string; status: string };

export type ApiKey = {
  id: string;
  name: string;
  start: string;
  role: string;
  createdAt: string;
  createdBy: string | null;
  lastUsedAt: string | null;
  expiresAt: string | null;
  revokedAt: string | null;
  revokedBy: string | null;
  status: "active" | "revoked" | "expired";
};

export type AuditEvent = {
  id: string;
  at: string;
  actor: string;
  actorKind: string;
  action: string;
  targetType: string | null;
  targetId: string | null;
  details: unknown;
};

/** Roles a person with `mine` may hand out (never above their own). */
export function grantableRoles(mine: Role | null): Role[] {
  if (!mine) return [];
  return ROLES.filter((r) => ROLE_RANK[r] <= ROLE_RANK[mine]);
}
