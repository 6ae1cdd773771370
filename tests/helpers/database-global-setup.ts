import fs from "node:fs";
import path from "node:path";
import pg from "pg";
import type { TestProject } from "vitest/node";
import "./fresh-database";
import { startEmbeddedPostgres } from "@/scripts/embedded-postgres";
import { migrateDeploy } from "@/scripts/migrate-engine";
import { traversableTmpBase } from "@/scripts/traversable-tmp";

declare module "vitest" {
  export interface ProvidedContext {
    databaseUrl: string;
  }
}

const TEMPLATE = "toolwatch_template";

async function createTemplate(url: string, name: string): Promise<void> {
  const admin = new URL(url);
  const source = admin.pathname.slice(1);
  admin.pathname = "/postgres";
  const client = new pg.Client({ connectionString: admin.toString() });
  await client.connect();
  try {
    await client.query(`CREATE DATABASE "${name}" TEMPLATE "${source}"`);
  } finally {
    await client.end();
  }
}

/** A real, throwaway Postgres per test run, migrated with the same engine `npm start` uses. */
export default async function setup(project: TestProject) {
  const dataDir = fs.mkdtempSync(path.join(traversableTmpBase(), "toolwatch-test-pg-"));
  const pg = await startEmbeddedPostgres({ dataDir: path.join(dataDir, "data"), persistent: false, database: "toolwatch_test" });
  await migrateDeploy(pg.url);
  // A copy nobody connects to (CREATE DATABASE … TEMPLATE needs that), for tests that want a
  // database of their own (tests/helpers/fresh-database.ts).
  await createTemplate(pg.url, TEMPLATE);
  project.provide("databaseUrl", pg.url);
  project.provide("databaseTemplate", TEMPLATE);
  return async () => {
    await pg.stop();
    fs.rmSync(dataDir, { recursive: true, force: true });
  };
}
