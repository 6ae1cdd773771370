import { PrismaPg } from "@prisma/adapter-pg";
import pg from "pg";
import { PrismaClient, type Prisma } from "./generated/prisma/client";
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

/**
 * Rows of one raw statement, sent straight to the client's pg pool when it has one (createDb):
 * the listing path's SQL functions take one jsonb and return text, uuid, boolean and jsonb
 * columns, which pg decodes as Prisma would, without Prisma's per-query runtime (0.19–0.39 ms
 * of client CPU a statement, against 0.06–0.09 ms; bench/RESULTS.md, eighth pass). For a client
 * made elsewhere it is the same statement through Prisma. Only for statements whose columns are
 * of those types (int8 and numeric decode differently).
 */
export async function queryRows<T>(db: Db, query: Prisma.Sql): Promise<T[]> {
  const pool = pools.get(db);
  if (!pool) return db.$queryRaw<T[]>(query);
  const result = await pool.query(query.text, query.values as unknown[]);
  return result.rows as T[];
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
