// `npm run migrate -- deploy | dev <name> | status` against DATABASE_URL: the offline stand-in for
// `prisma migrate deploy | dev --name <name> | status` (see scripts/migrate-engine.ts for why).
import { migrateDeploy, migrateDev, migrateStatus } from "./migrate-engine";

const USAGE = "usage: node --import tsx scripts/migrate.ts deploy | dev <name> | status   (uses DATABASE_URL)";

async function main(argv: string[]): Promise<number> {
  const [command, name] = argv;
  const url = process.env.DATABASE_URL;
  if (!url) {
    console.error(`DATABASE_URL is not set.\n${USAGE}`);
    return 2;
  }
  switch (command) {
    case "deploy": {
      const { applied } = await migrateDeploy(url);
      console.log(applied.length ? `Applied ${applied.length} migration(s): ${applied.join(", ")}` : "No pending migrations.");
      return 0;
    }
    case "dev": {
      if (!name) {
        console.error(`migrate dev needs a migration name.\n${USAGE}`);
        return 2;
      }
      const { created } = await migrateDev(url, name);
      console.log(created ? `Created and applied prisma/migrations/${created}/migration.sql` : "Schema and migrations are in sync: nothing to create.");
      return 0;
    }
    case "status": {
      const status = await migrateStatus(url);
      console.log(JSON.stringify(status, null, 2));
      // Non-zero when the database is not exactly at the migrations dir, so scripts can gate on it.
      return status.history === null && status.failedMigrationNames.length === 0 ? 0 : 1;
    }
    default:
      console.error(USAGE);
      return 2;
  }
}

main(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (error: unknown) => {
    console.error(error instanceof Error ? error.message : String(error));
    process.exit(1);
  },
);
