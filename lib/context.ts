import type { Db, Tx } from "./db";

// Every verb that touches tenant data takes this first and filters by tenantId.
export const ROLE_NAMES = ["owner", "admin", "member", "viewer"] as const;
export type Role = (typeof ROLE_NAMES)[number];

export type Actor =
  | { kind: "system"; id: string }
  | { kind: "user"; id: string; label: string; role: Role; instanceAdmin: boolean }
  | { kind: "apiKey"; id: string; label: string; role: Role }
  // A share link's reader (no sign-in): reads its own team, nothing else (lib/auth/permissions.ts).
  // `id` is the link's id; `viewId` the view it shows (null for the socket relay's fleet read).
  | { kind: "share"; id: string; label: string; tenantId: string; viewId: string | null };

export type ServiceContext = {
  tenantId: string;
  actor: Actor;
  db: Db;
  /** Set inside withTransaction (lib/transaction.ts): a verb called from another verb joins its transaction. */
  tx?: Tx;
};

export function isRole(value: unknown): value is Role {
  return typeof value === "string" && (ROLE_NAMES as readonly string[]).includes(value);
}
