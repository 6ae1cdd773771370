import type { Db } from "./db";

// Every verb that touches tenant data takes this first and filters by tenantId.
export type Actor =
  | { kind: "system"; id: string }
  | { kind: "user"; id: string }
  | { kind: "apiKey"; id: string }
  | { kind: "anonymous" };

export type ServiceContext = {
  tenantId: string;
  actor: Actor;
  db: Db;
};
