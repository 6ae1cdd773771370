import { PrismaPg } from "@prisma/adapter-pg";
import { PrismaClient } from "./generated/prisma/client";
import { loadEnv, requireDatabaseUrl } from "./env";

// The only place that constructs PrismaClient. Prisma 7 requires a driver adapter.
export type Db = PrismaClient;
export type Tx = Parameters<Parameters<PrismaClient["$transaction"]>[0]>[0];

/** `max`: connections in this client's pool (the worker sizes it to its listing queue). */
export function createDb(url: string, max = 10): Db {
  return new PrismaClient({ adapter: new PrismaPg({ connectionString: url, max }) });
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
