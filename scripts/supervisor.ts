import path from "node:path";
import concurrently, { type CloseEvent } from "concurrently";
import { createAuth } from "@/lib/auth/auth";
import { createDb } from "@/lib/db";
import { dataDir, loadEnv } from "@/lib/env";
import { configureLogger } from "@/lib/logger";
import { DEMO_TENANT_SLUG, ensureTenant } from "@/lib/tenants/ensure-tenant";
import { demoBanner, seedDemoAccount, type DemoAccount } from "@/lib/tenants/seed-demo-account";
import { buildIfNeeded, WEB_BUNDLE, WORKER_BUNDLE } from "./build-if-needed";
import { startEmbeddedPostgres } from "./embedded-postgres";
import { migrateDeploy } from "./migrate-engine";

// Started by scripts/start.ts in its own process group. Order on the way up: database,
// migrations, seed, build; then web and worker side by side. On the way down: web and worker,
// then the database. If web or worker dies, the other is stopped and we exit non-zero.
const ROOT = path.resolve(import.meta.dirname, "..");
const dev = process.argv.includes("--dev");
const logger = configureLogger("toolwatch");
const log = (line: string) => logger.info(line);
process.stdout.on("error", () => undefined); // a closed output pipe must not stop an orderly shutdown
process.stderr.on("error", () => undefined);
const env = loadEnv();

let pg: Awaited<ReturnType<typeof startEmbeddedPostgres>> | undefined;
let url = env.DATABASE_URL;
if (!url) {
  const dir = path.join(dataDir(env), "pg");
  log(`DATABASE_URL is not set: starting the embedded Postgres in ${path.relative(ROOT, dir) || dir}`);
  pg = await startEmbeddedPostgres({ dataDir: dir, persistent: true, database: "toolwatch" });
  url = pg.url;
} else {
  log("using the database at DATABASE_URL");
}

// Seeded here, before web and worker exist, so exactly one process seeds.
let demoAccount: DemoAccount | undefined;
try {
  const { applied } = await migrateDeploy(url);
  if (applied.length) log(`applied migrations: ${applied.join(", ")}`);
  const db = createDb(url);
  const demo = await ensureTenant(db, DEMO_TENANT_SLUG, "Demo team");
  if (env.TOOLWATCH_DEMO) {
    demoAccount = await seedDemoAccount(db, {
      auth: createAuth(db),
      tenantId: demo.id,
      password: env.TOOLWATCH_DEMO_PASSWORD,
      passwordFile: path.join(dataDir(env), "demo-password"),
    });
    if (demoAccount.created) log(`created the demo account ${demoAccount.email} (owner of the demo team)`);
    if (demoAccount.passwordReset) log("the demo account's password was set from TOOLWATCH_DEMO_PASSWORD");
  }
  await db.$disconnect();
  if (!dev) await buildIfNeeded(log);
} catch (error) {
  logger.fatal(`start failed: ${(error as Error).message}`);
  await pg?.stop();
  process.exit(1);
}

// Web and worker write to pipes here, so on their own they would log JSON: in a terminal, they
// log for people as this process does (an explicit TOOLWATCH_LOG_FORMAT wins).
const logFormat = env.TOOLWATCH_LOG_FORMAT ?? (process.stdout.isTTY ? "pretty" : "json");
const childEnv = { ...process.env, TOOLWATCH_LOG_FORMAT: logFormat, DATABASE_URL: url, NODE_ENV: dev ? "development" : "production", NEXT_TELEMETRY_DISABLED: "1" };
const node = JSON.stringify(process.execPath);
// Sampling every 500 µs: fine enough to place a 10 ms listing's parts, light enough not to skew them.
const profile = env.TOOLWATCH_CPU_PROFILE_DIR ? ` --cpu-prof --cpu-prof-interval=500 --cpu-prof-dir=${JSON.stringify(path.resolve(env.TOOLWATCH_CPU_PROFILE_DIR))}` : "";
const { result, commands } = concurrently(
  [
    { name: "web", command: dev ? `exec ${node} --import tsx server.ts` : `exec ${node}${profile} ${JSON.stringify(WEB_BUNDLE)}`, env: childEnv, prefixColor: "blue" },
    {
      name: "worker",
      command: dev ? `exec ${node} --import tsx --watch worker/main.ts` : `exec ${node}${profile} ${JSON.stringify(WORKER_BUNDLE)}`,
      env: childEnv,
      prefixColor: "magenta",
    },
  ],
  { cwd: ROOT, prefix: "name", handleInput: false },
);

// The demo credentials go last, under the web's "ready" line, where they are seen.
const web = commands.find((c) => c.name === "web");
if (demoAccount && web) {
  let seen = "";
  const subscription = web.stdout.subscribe((chunk) => {
    seen = (seen + chunk.toString()).slice(-4096);
    const ready = /Toolwatch is ready at ([^\s"]+)/.exec(seen);
    if (!ready) return;
    subscription.unsubscribe();
    const base = (env.TOOLWATCH_BASE_URL ?? ready[1]!).replace(/\/+$/, "");
    for (const line of demoBanner(demoAccount!, `${base}/login`)) logger.info({ demo: true }, line);
  });
}

// Signal each process itself (not its tree): the worker stops its own demo servers in order.
const terminate = () => {
  for (const command of commands) {
    if (command.pid && command.state === "started") {
      try {
        process.kill(command.pid, "SIGTERM");
      } catch {
        // already gone
      }
    }
  }
};
let shuttingDown = false;
let crashed: CloseEvent | undefined;
const shutdown = () => {
  if (shuttingDown) return;
  shuttingDown = true;
  terminate();
};
// If one process dies on its own, stop the other: half a product must not look healthy.
for (const command of commands) {
  command.close.subscribe((event) => {
    if (shuttingDown || crashed) return;
    crashed = event;
    log(`${event.command.name} exited on its own (code ${String(event.exitCode)}); stopping the rest`);
    terminate();
  });
}
process.on("message", (msg: { type?: string }) => msg?.type === "shutdown" && shutdown());
process.on("disconnect", shutdown); // the npm start process is gone: do not linger

const events: CloseEvent[] = await result.catch((closed: CloseEvent[]) => closed);
await pg?.stop();
if (shuttingDown) {
  log("stopped; history is kept in the database");
  process.exit(0);
}
log(`stopped because ${crashed?.command.name ?? events[0]?.command.name ?? "a process"} exited (code ${String(crashed?.exitCode ?? events[0]?.exitCode)})`);
process.exit(1);
