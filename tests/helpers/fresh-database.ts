import { randomBytes } from "node:crypto";
import pg from "pg";
import { inject } from "vitest";

declare module "vitest" {
  export interface ProvidedContext {
    /** A migrated database nobody connects to, cloned for each product an e2e file starts. */
    databaseTemplate: string;
  }
}

/**
 * A database of its own for one product (e2e file): cloned from the migrated template, so a
 * worker never inherits the servers, demo fleet and stdio processes earlier files left behind
 * (they made later files' first snapshots wait behind dozens of dead servers).
 */
export async function freshDatabaseUrl(prefix = "e2e"): Promise<string> {
  const base = new URL(inject("databaseUrl"));
  const name = `${prefix}_${randomBytes(6).toString("hex")}`;
  const admin = new URL(base);
  admin.pathname = "/postgres";
  const client = new pg.Client({ connectionString: admin.toString() });
  await client.connect();
  try {
    await client.query(`CREATE DATABASE "${name}" TEMPLATE "${inject("databaseTemplate")}"`);
  } finally {
    await client.end();
  }
  base.pathname = `/${name}`;
  return base.toString();
}
