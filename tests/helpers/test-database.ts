import { inject } from "vitest";

/**
 * The database of the running test file: its own clone in the integration tier
 * (file-database-setup.ts), the run's shared database in the e2e tier.
 */
export function testDatabaseUrl(): string {
  return process.env.TOOLWATCH_TEST_DATABASE_URL ?? inject("databaseUrl");
}
