import type { Db } from "./db";

// Every verb that touches tenant data takes this first and filters by tenantId.
export const ROLE_NAMES = ["owner", "admin", "member", "viewer"] as const;
export type Role = (typeof ROLE_NAMES)[number];

export type Actor =
  | { kind: "system"; id: string }
  | { kind: "user"; id: string; label: string; role: Role; instanceAdmin: boolean }
  | { kind: "apiKey"; id: string; label: string; role: Role };

export type ServiceContext = {
  tenantId: string;
  actor: Actor;
  db: Db;
};

export function isRole(value: unknown): value is Role {
  return typeof value === "string" && (ROLE_NAMES as readonly string[]).includes(value);
}
