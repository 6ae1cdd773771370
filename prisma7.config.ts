import path from "node:path";
import { defineConfig } from "prisma/config";

// The Prisma CLI tries to download a native schema engine before every command; this network
// cannot reach it. Pointing the variable at any file stops the download (see shared stack doc §4).
// Migrations run through the WASM engine in scripts/migrate.ts instead.
process.env.PRISMA_SCHEMA_ENGINE_BINARY ??= path.join(import.meta.dirname, "scripts/no-schema-engine.sh");
process.env.CHECKPOINT_DISABLE ??= "1";

export default defineConfig({
  schema: "prisma/schema.prisma",
  migrations: { path: "prisma/migrations" },
  datasource: { url: process.env.DATABASE_URL ?? "postgresql://toolwatch@127.0.0.1:5432/toolwatch" },
});
