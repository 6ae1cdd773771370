import { testDatabaseUrl } from "./test-database";

// Product code reads the database through lib/db.ts getDb(), whose URL comes from lib/env.ts
// (cached on first read). Import this module before anything else so that first read sees the
// per-run Postgres of the integration tier.
process.env.DATABASE_URL = testDatabaseUrl();
