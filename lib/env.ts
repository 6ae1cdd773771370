import fs from "node:fs";
import path from "node:path";
import { z } from "zod";
import { parseRate } from "./rate-limit/rate";

// The one reader of process.env: every setting, its default and its validation live here, so
// the README's configuration table and the code cannot drift apart silently.
const boolish = z.enum(["0", "1", "true", "false"]).transform((v) => v === "1" || v === "true");
const int = (def: number, min: number) => z.coerce.number().int().min(min).default(def);
// "<requests>/<window>" (600/min, 20/15min, 5/10s) or 0 for no limit; null = no limit.
const rate = (def: string) =>
  z
    .string()
    .default(def)
    .transform((text, ctx) => {
      try {
        return parseRate(text);
      } catch (error) {
        ctx.addIssue({ code: "custom", message: (error as Error).message });
        return z.NEVER;
      }
    });

export const EnvSchema = z.object({
  DATABASE_URL: z.string().url().optional(),
  PORT: int(3000, 1),
  HOST: z.string().default("0.0.0.0"),
  TOOLWATCH_DATA_DIR: z.string().default(".toolwatch"),
  TOOLWATCH_SECRET_KEY: z.string().optional(),
  TOOLWATCH_DEMO: boolish.default(true),
  // Read by scripts/embedded-postgres.ts (before this module is loaded); listed so it is documented.
  TOOLWATCH_PG_STAT_STATEMENTS: boolish.default(false),
  TOOLWATCH_DEMO_CHANGE_MS: int(60_000, 1_000),
  TOOLWATCH_DEBOUNCE_MS: int(300, 0),
  TOOLWATCH_CONNECT_TIMEOUT_MS: int(20_000, 100),
  TOOLWATCH_REQUEST_TIMEOUT_MS: int(30_000, 100),
  TOOLWATCH_MAX_PAGES: int(1_000, 1),
  TOOLWATCH_LEASE_TTL_MS: int(15_000, 1_500),
  // Connects and listings (with their stores) one worker runs at once, fair across teams.
  TOOLWATCH_LISTING_CONCURRENCY: int(32, 1),
  // Of those, stdio servers at once (each connect of a stdio server starts a process).
  TOOLWATCH_STDIO_CONCURRENCY: int(4, 1),
  // Alert evaluations one worker runs at once, off the listing slots (snapshots land first).
  TOOLWATCH_EVALUATION_CONCURRENCY: int(2, 1),
  // Connections in each process's Postgres pool (the worker adds 2 of its own for leases).
  TOOLWATCH_DB_POOL: int(10, 2),
  // Instance defaults of the per-team quotas (an instance administrator can set each team's own):
  // servers a team may register, the shortest poll interval it may ask for, and listings per
  // minute the worker starts for it (0 = unlimited; excess listings wait their turn, never dropped).
  TOOLWATCH_QUOTA_MAX_SERVERS: int(10_000, 1),
  TOOLWATCH_QUOTA_MIN_POLL_SECONDS: int(10, 10),
  TOOLWATCH_QUOTA_LISTINGS_PER_MINUTE: int(0, 0),
  TOOLWATCH_MAX_RESPONSE_BYTES: int(16 * 1024 * 1024, 1024),
  // Who may aim servers and webhooks at private and loopback addresses: teams an instance
  // administrator belongs to (default), every team, or nobody. Unset: "admins", or "none" under
  // the older TOOLWATCH_BLOCK_PRIVATE_NETWORKS=1 (kept as an alias). See privateTargetsPolicy().
  TOOLWATCH_PRIVATE_TARGETS: z.enum(["admins", "all", "none"]).optional(),
  TOOLWATCH_BLOCK_PRIVATE_NETWORKS: boolish.default(false),
  TOOLWATCH_STDIO_POLICY: z.enum(["off", "admins", "all"]).default("admins"),
  TOOLWATCH_HEARTBEAT_MS: int(5_000, 500),
  TOOLWATCH_BACKOFF_MAX_MS: int(300_000, 1_000),
  TOOLWATCH_WORKER_ID: z.string().optional(),
  // The worker's CPU niceness (0–19; Linux and macOS). On a machine it shares with the web process,
  // a sweep of thousands of new servers would otherwise take the CPU the API and the dashboard need;
  // niceness only matters under contention, so an idle web process costs the worker nothing.
  TOOLWATCH_WORKER_NICE: z.coerce.number().int().min(0).max(19).default(10),
  // The URL people use to reach the web UI (links in invitations, secure cookies under https).
  // Unset: whatever host the browser used, with same-origin checks.
  TOOLWATCH_BASE_URL: z.string().url().optional(),
  // Open sign-up. When false, only the first account and people holding an invitation may sign up.
  TOOLWATCH_ALLOW_SIGNUP: boolish.default(true),
  // Password of the seeded demo account (demo@toolwatch.local); unset: a random one kept in the data dir.
  TOOLWATCH_DEMO_PASSWORD: z.string().min(8).optional(),
  // Keep snapshots this many days (the latest of each server always stays); 0 = forever. Tool
  // versions no snapshot references any more go with them. Confirmations are counters, never rows.
  TOOLWATCH_RETENTION_DAYS: int(0, 0),
  // The shared tool-list cache (lib/cache): 0 makes every listing a tools/list call again.
  TOOLWATCH_LIST_CACHE: boolish.default(true),
  // Identity probes (docs/identity-probes.md): list each server's tools under other clients'
  // identities to catch servers that cloak. 0 turns them off on this worker.
  TOOLWATCH_IDENTITY_PROBES: boolish.default(true),
  // How often each server is probed under each identity (a team setting may override it); default 6 h.
  TOOLWATCH_IDENTITY_PROBE_INTERVAL_MS: int(21_600_000, 1_000),
  // The fleet list and alert list served by their handlers straight from the Node server,
  // skipping Next's pipeline (app/_lib/direct-routes.ts); 0 sends them through Next like the rest.
  TOOLWATCH_DIRECT_ROUTES: boolish.default(true),
  // Web processes remember verified API keys for up to 30 s, forgetting one the moment its row
  // changes (LISTEN/NOTIFY: lib/auth/api-key-cache.ts); 0 reads every key from the database.
  TOOLWATCH_API_KEY_CACHE: boolish.default(true),
  // Behind a reverse proxy: trust its x-forwarded-for / x-forwarded-host headers.
  TOOLWATCH_TRUST_PROXY: boolish.default(false),
  // Sign-in and sign-up attempts per minute per client IP (brute-force brake; 0 = no limit).
  TOOLWATCH_AUTH_RATE_LIMIT: int(10, 0),
  // Sign-in, sign-up and password-reset attempts per account (email), from any address: the brake
  // on guessing one person's password from many addresses. Shared by all web processes (Postgres).
  TOOLWATCH_AUTH_RATE_PER_ACCOUNT: rate("20/15min"),
  // /api/v1 requests, shared by all web processes (Postgres): per API key, per team (all its keys
  // together) and per signed-in person (browser sessions, across their teams).
  TOOLWATCH_API_RATE_PER_KEY: rate("600/min"),
  TOOLWATCH_API_RATE_PER_TEAM: rate("3000/min"),
  TOOLWATCH_API_RATE_PER_USER: rate("1200/min"),
  // The public share endpoint (no credentials): per client address, against floods and guessing.
  TOOLWATCH_SHARE_RATE_PER_ADDRESS: rate("300/min"),
  // GET /metrics (Prometheus, docs/metrics.md) asks for "Authorization: Bearer <token>" when set;
  // unset, the endpoint is open and belongs behind a firewall.
  TOOLWATCH_METRICS_TOKEN: z
    .string()
    .min(16, "TOOLWATCH_METRICS_TOKEN must be at least 16 characters")
    .regex(/^[\x21-\x7e]+$/, "TOOLWATCH_METRICS_TOKEN must be printable ASCII without spaces")
    .optional(),
  // The worker's own /metrics port (it serves no other HTTP); unset = no metrics endpoint. Each
  // worker on one host needs its own port.
  TOOLWATCH_WORKER_METRICS_PORT: z.coerce.number().int().min(1).max(65_535).optional(),
  // Logs (lib/logger.ts): one JSON object a line, or colored text for people; unset = pretty when
  // the output is a terminal, JSON otherwise.
  TOOLWATCH_LOG_FORMAT: z.enum(["json", "pretty"]).optional(),
  TOOLWATCH_LOG_LEVEL: z.enum(["fatal", "error", "warn", "info", "debug", "trace", "silent"]).default("info"),
  // On SIGTERM/SIGINT, how long the worker waits for listings and webhook deliveries in flight
  // (and the web process for requests in flight) before it exits anyway.
  TOOLWATCH_SHUTDOWN_GRACE_MS: int(10_000, 0),
  // For profiling (bench/, `npm run bench -- fleet --cpu-prof=<dir>`): the supervisor starts the
  // web and worker processes with V8's sampling profiler, each writing a .cpuprofile there on exit.
  // (Node refuses --cpu-prof in NODE_OPTIONS, so it has to be on their command lines.)
  TOOLWATCH_CPU_PROFILE_DIR: z.string().min(1).optional(),
});
export type Env = z.infer<typeof EnvSchema>;

let cached: Env | undefined;

export function loadEnv(source: NodeJS.ProcessEnv = process.env): Env {
  if (source === process.env && cached) return cached;
  const parsed = EnvSchema.safeParse(source);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((i) => `  ${i.path.join(".")}: ${i.message}`);
    throw new Error(`Invalid Toolwatch configuration:\n${lines.join("\n")}`);
  }
  if (source === process.env) cached = parsed.data;
  return parsed.data;
}

export type PrivateTargetsPolicy = "admins" | "all" | "none";

/** TOOLWATCH_PRIVATE_TARGETS, or "none" under the legacy TOOLWATCH_BLOCK_PRIVATE_NETWORKS=1, else "admins". */
export function privateTargetsPolicy(env: Env = loadEnv()): PrivateTargetsPolicy {
  return env.TOOLWATCH_PRIVATE_TARGETS ?? (env.TOOLWATCH_BLOCK_PRIVATE_NETWORKS ? "none" : "admins");
}

export function dataDir(env: Env = loadEnv()): string {
  return path.resolve(env.TOOLWATCH_DATA_DIR);
}

/**
 * DATABASE_URL, or else the embedded Postgres that `npm start` runs from the data dir, so that
 * `npm run worker` can add workers next to a running `npm start` with no configuration.
 */
export function requireDatabaseUrl(env: Env = loadEnv()): string {
  if (env.DATABASE_URL) return env.DATABASE_URL;
  const portFile = path.join(dataDir(env), "pg.port");
  const port = fs.existsSync(portFile) ? fs.readFileSync(portFile, "utf8").trim() : "";
  if (/^\d+$/.test(port)) return `postgresql://toolwatch:toolwatch@127.0.0.1:${port}/toolwatch`;
  throw new Error("DATABASE_URL is not set and no embedded Postgres was found in the data dir (start one with npm start)");
}
