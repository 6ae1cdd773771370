import os from "node:os";
import { closeDb, createDb, getDb, poolOf } from "@/lib/db";
import { loadEnv, privateTargetsPolicy, requireDatabaseUrl } from "@/lib/env";
import { listenForEvents } from "@/lib/realtime/listen";
import { configureLogger } from "@/lib/logger";
import { createTargetFetches } from "@/lib/discovery/node/guarded-fetch";
import { privateTargetsRule } from "@/lib/discovery/node/network-guard";
import { getSecretKey } from "@/lib/secrets";
import { ensureDemoServers } from "@/lib/servers/ensure-demo-servers";
import { DEMO_TENANT_SLUG, ensureTenant } from "@/lib/tenants/ensure-tenant";
import { pruneHistory } from "@/lib/snapshots/prune-history";
import { pruneStaleHeartbeats, recordHeartbeat, removeHeartbeat } from "@/lib/workers/record-heartbeat";
import { startDemoFleet } from "./demo-fleet/demo-fleet";
import { createPgFetchLock } from "@/lib/cache/fetch-lock";
import { pruneCacheEntries } from "@/lib/cache/prune-cache";
import { ToolListCache } from "@/lib/cache/tool-list-cache";
import { loadListingRates } from "@/lib/tenants/team-quota";
import { Scheduler } from "./scheduler";
import { startWebhookDispatcher } from "./webhook-dispatcher";
import { sealLegacyWebhookUrls } from "@/lib/webhooks/webhook-url";
import { startMetricsServer } from "@/lib/metrics/node/metrics-endpoint";
import { registerWorkerMetrics } from "@/lib/metrics/worker-metrics";
import { backfillContextTokens } from "@/lib/context-tokens/backfill-context-tokens";
import { checkEveryContextBudget } from "@/lib/alerts/context-budget-alert";

// The worker process: owns every discovery session, never serves HTTP.
const env = loadEnv();
const url = requireDatabaseUrl(env);
const db = getDb();
// Leases and heartbeats on their own two connections: a pool busy with listings never starves them.
const leaseDb = createDb(url, 2);
const key = getSecretKey();
const workerId = env.TOOLWATCH_WORKER_ID ?? `${os.hostname()}-${process.pid}`;
const startedAt = new Date();
const log = configureLogger("worker").child({ workerId });
// Background work yields the CPU to the web process under contention (TOOLWATCH_WORKER_NICE); the
// stdio servers it starts inherit the niceness. Raising one's own niceness needs no privilege.
try {
  if (env.TOOLWATCH_WORKER_NICE > os.getPriority()) os.setPriority(env.TOOLWATCH_WORKER_NICE);
} catch (error) {
  log.warn(`could not lower the worker's CPU priority: ${(error as Error).message}`);
}

// The MCP SDK can reject promises nobody awaits when a server dies mid-request; one bad server
// must not take the worker (and every other server's monitoring) down with it.
process.on("unhandledRejection", (reason) => log.warn(`unhandled rejection (ignored): ${reason instanceof Error ? reason.message : String(reason)}`));

// Every HTTP request to a tenant's server goes through the SSRF guard (checked after DNS, on the
// address actually connected to) and the response size cap. Private and loopback addresses only
// for teams with the right (TOOLWATCH_PRIVATE_TARGETS), decided per server by the scheduler.
const privateTargets = privateTargetsPolicy(env);
const privateRule = privateTargetsRule(privateTargets === "none" ? "none" : "admins");
const guardedFetches = createTargetFetches({ privateRule, maxResponseBytes: env.TOOLWATCH_MAX_RESPONSE_BYTES });

// Workers share fetches of public lists through Postgres advisory locks (lib/cache/fetch-lock.ts).
const listCacheLock = env.TOOLWATCH_LIST_CACHE ? createPgFetchLock(url) : undefined;
// Per-team listings per minute (quotas an instance administrator sets); re-read every minute.
let listingRates = { byTeam: new Map<string, number>(), fallback: env.TOOLWATCH_QUOTA_LISTINGS_PER_MINUTE };
const refreshRates = () =>
  loadListingRates(leaseDb)
    .then((rates) => (listingRates = rates))
    .catch((error: Error) => log.warn(`could not read team quotas: ${error.message}`));
await refreshRates();
const ratesTimer = setInterval(() => void refreshRates(), 60_000);
ratesTimer.unref();
const scheduler = new Scheduler(
  db,
  key,
  workerId,
  {
    discovery: {
      connectTimeoutMs: env.TOOLWATCH_CONNECT_TIMEOUT_MS,
      requestTimeoutMs: env.TOOLWATCH_REQUEST_TIMEOUT_MS,
      maxPages: env.TOOLWATCH_MAX_PAGES,
      debounceMs: env.TOOLWATCH_DEBOUNCE_MS,
      backoffMaxMs: env.TOOLWATCH_BACKOFF_MAX_MS,
      maxMessageBytes: env.TOOLWATCH_MAX_RESPONSE_BYTES,
    },
    targets: guardedFetches,
    privateTargets,
    leaseTtlMs: env.TOOLWATCH_LEASE_TTL_MS,
    leaseDb,
    concurrency: env.TOOLWATCH_LISTING_CONCURRENCY,
    stdioConcurrency: env.TOOLWATCH_STDIO_CONCURRENCY,
    evaluationConcurrency: env.TOOLWATCH_EVALUATION_CONCURRENCY,
    listingsPerMinute: (tenantId) => listingRates.byTeam.get(tenantId) ?? listingRates.fallback,
    liveWorkerWindowMs: env.TOOLWATCH_HEARTBEAT_MS * 3,
    stdioPolicy: env.TOOLWATCH_STDIO_POLICY,
    listCache: listCacheLock ? new ToolListCache(db, Date.now, listCacheLock) : undefined,
    identityProbes: env.TOOLWATCH_IDENTITY_PROBES
      ? {
          probe: { connectTimeoutMs: env.TOOLWATCH_CONNECT_TIMEOUT_MS, requestTimeoutMs: env.TOOLWATCH_REQUEST_TIMEOUT_MS, maxPages: env.TOOLWATCH_MAX_PAGES, maxMessageBytes: env.TOOLWATCH_MAX_RESPONSE_BYTES },
          defaultIntervalMs: env.TOOLWATCH_IDENTITY_PROBE_INTERVAL_MS,
        }
      : undefined,
  },
  log,
);

const demoTenant = await ensureTenant(db, DEMO_TENANT_SLUG, "Demo team");
// Only the worker that `npm start` launches runs the demo fleet; extra workers (`npm run worker`,
// which passes --no-demo) would otherwise start a second fleet and rewrite the demo servers' URLs.
const runDemo = env.TOOLWATCH_DEMO && !process.argv.includes("--no-demo");
const fleet = runDemo ? await startDemoFleet({ changeIntervalMs: env.TOOLWATCH_DEMO_CHANGE_MS, log: (l) => log.info(`demo: ${l}`) }) : undefined;
if (fleet) {
  await ensureDemoServers(
    { tenantId: demoTenant.id, actor: { kind: "system", id: workerId }, db },
    key,
    fleet.servers.map((s) => ({
      key: s.key,
      name: s.name,
      tags: s.tags,
      pollIntervalSeconds: 60,
      config:
        s.transport === "stdio"
          ? { transport: "stdio", command: s.command!, args: s.args ?? [], env: s.env ?? {} }
          : { transport: "streamable_http", url: s.url!, headers: {} },
    })),
  );
}

await pruneStaleHeartbeats(leaseDb);
await recordHeartbeat(leaseDb, workerId, startedAt, 0);
// Retention (TOOLWATCH_RETENTION_DAYS): hourly; every worker may run it, it is idempotent.
const retention = env.TOOLWATCH_RETENTION_DAYS > 0
  ? setInterval(() => {
      pruneHistory(db, new Date(Date.now() - env.TOOLWATCH_RETENTION_DAYS * 86_400_000))
        .then((r) => r.snapshots > 0 && log.info(`retention: pruned ${r.snapshots} snapshot(s), ${r.toolVersions} tool version(s)`))
        .catch((error: Error) => log.warn(`retention failed: ${error.message}`));
    }, 3_600_000)
  : undefined;
retention?.unref();
// Cache entries no server uses any more (deleted servers, rotated credentials): hourly.
const cachePrune = setInterval(() => {
  pruneCacheEntries(db)
    .then((n) => n > 0 && log.info(`cache: dropped ${n} unused tool-list entr${n === 1 ? "y" : "ies"}`))
    .catch((error: Error) => log.warn(`cache pruning failed: ${error.message}`));
}, 3_600_000);
cachePrune.unref();

const heartbeat = setInterval(() => {
  recordHeartbeat(leaseDb, workerId, startedAt, scheduler.size).catch((error: Error) => log.warn(`heartbeat failed: ${error.message}`));
}, env.TOOLWATCH_HEARTBEAT_MS);

// Added or edited servers start within a moment (NOTIFY); the lease tick renews, takes over
// servers of dead workers and catches anything a NOTIFY missed.
const listener = listenForEvents(url, (event) => {
  if (event.type === "server:changed") void scheduler.tick();
  if (event.type === "server:refreshRequested") scheduler.refresh(event.serverId);
}, (line) => log.warn(line));
// Workers starting together (deploys, restarts) should not all grab servers in the same instant.
await new Promise((resolve) => setTimeout(resolve, Math.random() * Math.min(1_000, scheduler.tickIntervalMs)));
await scheduler.start();
log.info(`worker ${workerId} watching ${scheduler.size} server(s)`);

// Alert notifications (pg-boss queue in the same database). Receivers are tenant-supplied URLs:
// the same SSRF guard as MCP servers, and a small cap on what a receiver may answer.
// Receiver URLs written before they were sealed at rest: seal them now (idempotent; every worker may).
await sealLegacyWebhookUrls(db, key)
  .then((n) => n > 0 && log.info(`webhooks: sealed ${n} receiver URL(s) stored in plain text`))
  .catch((error: Error) => log.warn(`webhooks: sealing stored receiver URLs failed: ${error.message}`));
const webhookFetch = createTargetFetches({ privateRule, maxResponseBytes: 64 * 1024, isStreaming: () => false });
const webhooks = await startWebhookDispatcher({ databaseUrl: url, db, key, targets: webhookFetch, policy: privateTargets, log });

// GET /metrics on a port of its own, only when TOOLWATCH_WORKER_METRICS_PORT is set (docs/metrics.md).
const metricsPort = env.TOOLWATCH_WORKER_METRICS_PORT;
if (metricsPort) registerWorkerMetrics({ sessions: () => scheduler.sessionStatusCounts(), evaluationQueue: () => scheduler.evaluations.waiting, webhookQueue: () => webhooks.queueSize(), pools: { main: () => poolOf(db), lease: () => poolOf(leaseDb) } });
const metricsServer = metricsPort ? await startMetricsServer({ port: metricsPort, host: env.HOST, token: env.TOOLWATCH_METRICS_TOKEN }) : undefined;
if (metricsServer) log.info(`metrics served at http://${env.HOST}:${metricsServer.port}/metrics${env.TOOLWATCH_METRICS_TOKEN ? " (bearer token required)" : " (open: firewall it or set TOOLWATCH_METRICS_TOKEN)"}`);

// Graceful stop: take no new work, let listings and webhook deliveries in flight finish (within
// TOOLWATCH_SHUTDOWN_GRACE_MS), hand the leases back so another worker takes over at once, exit 0.
// A second signal exits at once.
let stopping = false;
async function shutdown(signal: string): Promise<void> {
  if (stopping) {
    log.warn(`${signal} again: exiting now`);
    process.exit(1);
  }
  stopping = true;
  const graceMs = env.TOOLWATCH_SHUTDOWN_GRACE_MS;
  log.info(`${signal}: stopping ${scheduler.size} session(s); listings and deliveries in flight get ${graceMs} ms`);
  clearInterval(heartbeat);
  clearInterval(retention);
  clearInterval(cachePrune);
  clearInterval(ratesTimer);
  const force = setTimeout(() => {
    log.error(`shutdown took longer than ${graceMs + 10_000} ms; exiting`);
    process.exit(1);
  }, graceMs + 10_000);
  force.unref();
  await listener.close();
  await Promise.all([scheduler.stopAll(graceMs), webhooks.stop(graceMs)]);
  await metricsServer?.close();
  await webhookFetch.close();
  await guardedFetches.close();
  await listCacheLock?.close().catch(() => undefined);
  await fleet?.stop();
  await removeHeartbeat(leaseDb, workerId).catch(() => undefined);
  await leaseDb.$disconnect();
  await closeDb();
  log.info("worker stopped");
  process.exit(0);
}
process.on("SIGINT", () => void shutdown("SIGINT"));
process.on("SIGTERM", () => void shutdown("SIGTERM"));

// Context tokens of rows stored before they were counted (docs/context-budget.md): counted in the
// background, in batches, by every worker (idempotent); then budgets see the older snapshots' sums.
void backfillContextTokens(db, { shouldStop: () => stopping })
  .then(async (r) => {
    if (r.versions === 0 && r.snapshots === 0) return;
    log.info(`context tokens: counted ${r.versions} stored version(s), summed ${r.snapshots} snapshot(s)`);
    if (r.snapshots > 0 && !stopping) await checkEveryContextBudget(db);
  })
  .catch((error: Error) => !stopping && log.warn(`context tokens backfill failed: ${error.message}`));
