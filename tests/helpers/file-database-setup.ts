import { freshDatabaseUrl } from "./fresh-database";

// Integration setup file: every test file gets a database of its own, cloned from the migrated
// template, before it imports any product code. Files then run two at a time (vitest.config.ts)
// without seeing each other's rows: a worker a file starts leases only that file's servers, and
// counts and NOTIFY channels are per database. testDatabaseUrl() (test-database.ts) hands the URL
// to what a file spawns (workers, web processes, listeners).
const url = await freshDatabaseUrl("it");
process.env.TOOLWATCH_TEST_DATABASE_URL = url;
process.env.DATABASE_URL = url;
