import path from "node:path";
import pg from "pg";
import { createDb, type Db } from "@/lib/db";
import { dataDir, loadEnv, requireDatabaseUrl } from "@/lib/env";

/** Why the admin commands cannot reach the instance's database, in words for the operator. */
export class NoDatabaseError extends Error {}

/**
 * The instance's database, found the way `npm start` finds it: DATABASE_URL, else the embedded
 * Postgres that a running `npm start` advertises in the data dir (pg.port). The port file outlives
 * the server, so the connection is tried before anything else to tell "not running" apart.
 */
export async function openInstanceDb(): Promise<Db> {
  const env = loadEnv();
  const embedded = path.join(dataDir(env), "pg");
  const startHint = `start Toolwatch with "npm start" (the admin commands use its embedded Postgres in ${embedded}), or set DATABASE_URL`;
  let url: string;
  try {
    url = requireDatabaseUrl(env);
  } catch {
    throw new NoDatabaseError(`no database: DATABASE_URL is not set and no embedded Postgres has been started; ${startHint}`);
  }
  const probe = new pg.Client({ connectionString: url, connectionTimeoutMillis: 5_000 });
  try {
    await probe.connect();
    await probe.query("SELECT 1");
  } catch (error) {
    const reason = (error as Error).message;
    throw new NoDatabaseError(
      env.DATABASE_URL
        ? `cannot reach the database at DATABASE_URL (${reason})`
        : `the embedded Postgres is not running (${reason}); ${startHint}`,
    );
  } finally {
    await probe.end().catch(() => undefined);
  }
  return createDb(url);
}
