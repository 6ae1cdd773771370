// The database side of scripts/migrate-engine.ts: a migration-aware driver adapter factory for
// Prisma's WASM schema engine, built on @prisma/adapter-pg with the fixes it needs here (shared
// stack doc §4 "Fix 2", §8 pitfalls 6 and 7).
import { randomUUID } from "node:crypto";
import { PrismaPg } from "@prisma/adapter-pg";
import { ColumnTypeEnum, type SqlDriverAdapter, type SqlMigrationAwareDriverAdapterFactory } from "@prisma/driver-adapter-utils";
import pg from "pg";

export interface PgTarget {
  config: pg.PoolConfig;
  schema?: string;
}

// Discrete fields, never `connectionString`: pg merges a parsed connectionString last, so its
// database would silently override the shadow database name (stack doc §8 pitfall 6).
export function parseDatabaseUrl(databaseUrl: string): PgTarget {
  const url = new URL(databaseUrl);
  if (url.protocol !== "postgresql:" && url.protocol !== "postgres:") {
    throw new Error(`DATABASE_URL must be a postgresql:// URL, got ${url.protocol}//…`);
  }
  const q = url.searchParams;
  const sslmode = q.get("sslmode");
  const schema = q.get("schema") ?? undefined;
  return {
    schema,
    config: {
      host: q.get("host") ?? (decodeURIComponent(url.hostname.replace(/^\[|\]$/g, "")) || "localhost"),
      port: url.port ? Number(url.port) : 5432,
      user: decodeURIComponent(url.username) || undefined,
      password: url.password ? decodeURIComponent(url.password) : undefined,
      database: decodeURIComponent(url.pathname.slice(1)) || undefined,
      ssl: sslmode && sslmode !== "disable" ? { rejectUnauthorized: /^verify-/.test(sslmode) } : undefined,
      options: schema ? `-c search_path="${schema.replace(/"/g, '""')}"` : undefined,
    },
  };
}

type QueryFn = (...args: unknown[]) => unknown;
const CHAR_COLUMNS = Symbol("pg \"char\" column indexes");
type TaggedRows = unknown[][] & { [CHAR_COLUMNS]?: number[] };

// The engine's describer reads pg_catalog "char" columns (OID 18, e.g. pg_constraint.contype), which
// adapter-pg refuses ("Column type 'char' could not be deserialized"), and then wants them as a Rust
// char, as the native driver delivers them (PG 18's NOT NULL constraints, contype 'n', hit this on
// the second run). So: report OID 18 to adapter-pg as text (25), and tag the rows array (which
// queryRaw passes through untouched) with those column indexes so our queryRaw wrapper can type them
// as Character. Patched per client of our own pools only; other pg users in the process are unaffected.
function remapCharColumns(client: pg.PoolClient): void {
  const remap = (result: unknown): void => {
    for (const r of Array.isArray(result) ? result : [result]) {
      const { fields, rows } = (r ?? {}) as Partial<pg.QueryResult>;
      const indexes = (fields ?? []).flatMap((field, i) => (field.dataTypeID === 18 ? [i] : []));
      for (const i of indexes) fields![i]!.dataTypeID = 25;
      if (indexes.length && Array.isArray(rows)) (rows as TaggedRows)[CHAR_COLUMNS] = indexes;
    }
  };
  const query = client.query.bind(client) as QueryFn;
  const patched: QueryFn = (...args) => {
    const callback = args.at(-1);
    if (typeof callback === "function") {
      args[args.length - 1] = (err: unknown, res: unknown) => (err || remap(res), callback(err, res));
      return query(...args);
    }
    const out = query(...args);
    return out instanceof Promise ? out.then((res: unknown) => (remap(res), res)) : out;
  };
  Object.assign(client, { query: patched });
}

export interface Resources {
  pools: Set<pg.Pool>;
  shadowDbs: Set<string>;
  /** Postgres's own words for the last failed script; the engine only passes on Prisma's summary */
  scriptError?: string;
}

export async function adminQuery(target: PgTarget, sql: string): Promise<void> {
  const client = new pg.Client(target.config);
  await client.connect();
  try {
    await client.query(sql);
  } finally {
    await client.end();
  }
}

export function adapterFactory(target: PgTarget, res: Resources): SqlMigrationAwareDriverAdapterFactory {
  const connectTo = async (config: pg.PoolConfig): Promise<SqlDriverAdapter> => {
    const pool = new pg.Pool(config);
    pool.on("connect", remapCharColumns);
    pool.on("error", () => undefined); // an idle client dying must not crash the process; the next query reports it
    res.pools.add(pool);
    const adapter = await new PrismaPg(pool, { schema: target.schema }).connect();
    const queryRaw = adapter.queryRaw.bind(adapter);
    adapter.queryRaw = async (query) => {
      const result = await queryRaw(query);
      for (const i of (result.rows as TaggedRows)[CHAR_COLUMNS] ?? []) result.columnTypes[i] = ColumnTypeEnum.Character;
      return result;
    };
    // adapter-pg splits scripts on ";" and runs each piece on its own, which breaks `DO $$…;…$$`
    // blocks and string literals with ";" in hand-edited migrations, and commits half a failed
    // migration. Send the whole script as one simple query (no parameters), as the native engine does:
    // Postgres runs it as one implicit transaction.
    adapter.executeScript = async (script) => {
      try {
        await adapter.executeRaw({ sql: script, args: [], argTypes: [] });
      } catch (error) {
        const cause = (error as { cause?: { originalMessage?: string; originalCode?: string } }).cause;
        res.scriptError = cause?.originalMessage && `${cause.originalMessage} (SQLSTATE ${cause.originalCode ?? "?"})`;
        throw error;
      }
    };
    const dispose = adapter.dispose.bind(adapter);
    adapter.dispose = async () => {
      await dispose();
      if (res.pools.delete(pool)) await pool.end();
    };
    return adapter;
  };
  return {
    provider: "postgres",
    adapterName: "@prisma/adapter-pg",
    connect: () => connectTo(target.config),
    // adapter-pg's own version drops the database before closing its pool (fails: "being accessed by
    // other users"), leaks its admin pool, and with a connectionString would shadow the main database.
    connectToShadowDb: async () => {
      const name = `prisma_migrate_shadow_db_${randomUUID()}`;
      await adminQuery(target, `CREATE DATABASE "${name}"`).catch((error: Error) => {
        throw new Error(`cannot create a shadow database (the role needs CREATEDB): ${error.message}`);
      });
      res.shadowDbs.add(name);
      const adapter = await connectTo({ ...target.config, database: name });
      const dispose = adapter.dispose.bind(adapter);
      adapter.dispose = async () => {
        await dispose();
        if (res.shadowDbs.delete(name)) await adminQuery(target, `DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
      };
      return adapter;
    },
  };
}
