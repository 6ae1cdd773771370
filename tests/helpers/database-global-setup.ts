import fs from "node:fs";
import path from "node:path";
import type { TestProject } from "vitest/node";
import { startEmbeddedPostgres } from "../../scripts/embedded-postgres";
import { migrateDeploy } from "../../scripts/migrate-engine";
import { traversableTmpBase } from "../../scripts/traversable-tmp";

declare module "vitest" {
  export interface ProvidedContext {
    databaseUrl: string;
  }
}

/** A real, throwaway Postgres per test run, migrated with the same engine `npm start` uses. */
export default async function setup(project: TestProject) {
  const dataDir = fs.mkdtempSync(path.join(traversableTmpBase(), "toolwatch-test-pg-"));
  const pg = await startEmbeddedPostgres({ dataDir: path.join(dataDir, "data"), persistent: false, database: "toolwatch_test" });
  await migrateDeploy(pg.url);
  project.provide("databaseUrl", pg.url);
  return async () => {
    await pg.stop();
    fs.rmSync(dataDir, { recursive: true, force: true });
  };
}
