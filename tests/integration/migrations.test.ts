import fs from "node:fs";
import path from "node:path";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startEmbeddedPostgres, type EmbeddedPostgres } from "@/scripts/embedded-postgres";
import { migrateDeploy, migrateDev } from "@/scripts/migrate-engine";
import { traversableTmpBase } from "@/scripts/traversable-tmp";

// Own throwaway cluster rather than the shared test database: this test needs a database that has
// never been migrated, to see the first deploy apply everything.
const MIGRATIONS_DIR = path.resolve(import.meta.dirname, "../../prisma/migrations");

function listTree(dir: string): string[] {
  return fs.readdirSync(dir, { recursive: true, encoding: "utf8" }).sort();
}

describe("prisma migrations through the WASM schema engine", () => {
  let tmp: string;
  let db: EmbeddedPostgres;

  beforeAll(async () => {
    tmp = fs.mkdtempSync(path.join(traversableTmpBase(), "toolwatch-migrations-test-"));
    db = await startEmbeddedPostgres({ dataDir: path.join(tmp, "pg"), persistent: false, database: "migrations_test" });
  });

  afterAll(async () => {
    await db?.stop();
    if (tmp) fs.rmSync(tmp, { recursive: true, force: true });
  });

  it("deploy applies every migration once, then nothing", async () => {
    const onDisk = fs.readdirSync(MIGRATIONS_DIR, { withFileTypes: true }).filter((e) => e.isDirectory()).map((e) => e.name).sort();
    expect(onDisk.length).toBeGreaterThan(0);

    const first = await migrateDeploy(db.url);
    expect(first.applied).toEqual(onDisk);
    const second = await migrateDeploy(db.url);
    expect(second.applied).toEqual([]);
  });

  it("deploys to two databases at once (the WASM engine is shared per process, so calls queue)", async () => {
    const admin = new pg.Client(db.url);
    await admin.connect();
    await admin.query("CREATE DATABASE concurrent_a");
    await admin.query("CREATE DATABASE concurrent_b");
    await admin.end();
    const urlFor = (name: string) => db.url.replace(/\/migrations_test$/, `/${name}`);
    const [a, b] = await Promise.all([migrateDeploy(urlFor("concurrent_a")), migrateDeploy(urlFor("concurrent_b"))]);
    expect(a.applied.length).toBeGreaterThan(0);
    expect(b.applied).toEqual(a.applied);
  });

  it("creates the tables and records the migrations like prisma migrate", async () => {
    const client = new pg.Client(db.url);
    await client.connect();
    try {
      const tables = await client.query<{ table_name: string }>(
        "SELECT table_name FROM information_schema.tables WHERE table_schema = 'public'",
      );
      const names = tables.rows.map((r) => r.table_name);
      expect(names).toEqual(expect.arrayContaining(["tenant", "mcp_server", "snapshot", "tool_version", "_prisma_migrations"]));

      const unfinished = await client.query("SELECT migration_name FROM _prisma_migrations WHERE finished_at IS NULL OR rolled_back_at IS NOT NULL");
      expect(unfinished.rows).toEqual([]);
    } finally {
      await client.end();
    }
  });

  it("dev finds no drift between schema.prisma and the migrations, and writes nothing", async () => {
    // Run against a copy, so a schema change without its migration fails this test instead of
    // leaving a new migration in the repository.
    const copy = path.join(tmp, "migrations");
    fs.cpSync(MIGRATIONS_DIR, copy, { recursive: true });
    const before = listTree(copy);
    const result = await migrateDev(db.url, "drift_check", { migrationsDir: copy });
    expect(result.created, "schema.prisma changed without a migration: run `npm run migrate -- dev <name>`").toBeNull();
    expect(listTree(copy)).toEqual(before);
  });
});
