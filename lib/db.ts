import { PrismaPg } from "@prisma/adapter-pg";
import pg from "pg";
import { PrismaClient } from "./generated/prisma/client";
import { loadEnv, requireDatabaseUrl } from "./env";
import type { PoolCounts } from "./metrics/pool-gauges";

// The only place that constructs PrismaClient. Prisma 7 requires a driver adapter.
export type Db = PrismaClient;
export type Tx = Parameters<Parameters<PrismaClient["$transaction"]>[0]>[0];


// The pool behind each client, for the pool gauges. On globalThis because server.ts and the
// route code Next bundles load separate copies of this module but share getDb()'s client.
const pools = ((globalThis as unknown as { __toolwatchPools?: WeakMap<Db, pg.Pool> }).__toolwatchPools ??= new WeakMap());

/** `max`: connections in this client's pool (the worker sizes it to its listing queue). */
export function createDb(url: string, max = 10): Db {
  // The pool is made here (not by the adapter) so its counters can be read; $disconnect ends it.
  const pool = new pg.Pool({ connectionString: url, max });
  const db = new PrismaClient({ adapter: new PrismaPg(pool, { disposeExternalPool: true }) });
  pools.set(db, pool);
  return db;
}

/** The connection counts of a client made by createDb (undefined for any other). */
export function poolOf(db: Db): PoolCounts | undefined {
  return pools.get(db);
}

// Next's dev server re-evaluates modules on reload; keep one pool per process.
const holder = globalThis as unknown as { __toolwatchDb?: Db };

export function getDb(): Db {
  holder.__toolwatchDb ??= createDb(requireDatabaseUrl(), loadEnv().TOOLWATCH_DB_POOL);
  return holder.__toolwatchDb;
}

export async function closeDb(): Promise<void> {
  const db = holder.__toolwatchDb;
  holder.__toolwatchDb = undefined;
  await db?.$disconnect();
}
