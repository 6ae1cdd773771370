import { spawn } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { Pool } from "undici";
import { createApiKey } from "@/lib/auth/api-keys";
import { createDb } from "@/lib/db";
import { ensureTenant } from "@/lib/tenants/ensure-tenant";
import { startEmbeddedPostgres } from "@/scripts/embedded-postgres";
import { migrateDeploy } from "@/scripts/migrate-engine";
import { traversableTmpBase } from "@/scripts/traversable-tmp";
import { percentile } from "./timing";

// `npm run bench` (`-- --quick` for short runs): the fleet API at fleet size. Seeds one team with
// SERVERS servers, SNAPSHOTS snapshots and ALERTS alerts straight into a throwaway Postgres, runs
// the real route handlers in a child process (bench/fleet-api-server.ts) and hits the first page
// of GET /api/v1/servers and GET /api/v1/alerts from CLIENTS concurrent clients (undici, closed
// loop). Prints requests/s, p50/p95/p99, the server's peak RSS, and EXPLAIN ANALYZE of the list.
// BENCH_CACHE=0: without the change feed, so the fleet list never answers from memory.
const QUICK = process.argv.includes("--quick");
const SERVERS = Number(process.env.BENCH_SERVERS ?? 2_000);
const SNAPSHOTS_PER_SERVER = Number(process.env.BENCH_SNAPSHOTS_PER_SERVER ?? 50);
const ALERTS_PER_SERVER = 10;
const CLIENTS = Number(process.env.BENCH_CLIENTS ?? 50);
const SECONDS = Number(process.env.BENCH_SECONDS ?? (QUICK ? 3 : 10));
const SECRET_KEY = "MDEyMzQ1Njc4OWFiY2RlZjAxMjM0NTY3ODlhYmNkZWY=";

async function seed(db: ReturnType<typeof createDb>, tenantId: string): Promise<void> {
  // Set-based so seeding 100,000 snapshots takes seconds; values vary so filters and sorts have work.
  await db.$executeRaw`
    INSERT INTO mcp_server (id, tenant_id, name, transport, url, tags, enabled, config_hash, updated_at)
    SELECT gen_random_uuid(), ${tenantId}::uuid, 'svc-' || lpad(i::text, 5, '0'), 'streamable_http', 'http://127.0.0.1:9/mcp/' || i,
      ARRAY['env:' || (ARRAY['prod','staging','dev'])[1 + i % 3], 'team:' || (i % 20)], true, 'bench', now()
    FROM generate_series(1, ${SERVERS}::int) i`;
  await db.$executeRaw`
    INSERT INTO server_session (server_id, tenant_id, status, protocol_version, last_change_at, last_listed_at, updated_at)
    SELECT id, tenant_id, (ARRAY['live','live','live','polling','degraded','down'])[1 + (hashtext(id::text) & 5) % 6]::session_status,
      '2025-06-18', now() - (hashtext(name) & 1023) * interval '1 hour', now(), now()
    FROM mcp_server WHERE tenant_id = ${tenantId}::uuid`;
  await db.$executeRaw`
    INSERT INTO snapshot (id, tenant_id, server_id, content_hash, tool_count, trigger, taken_at, tool_version_ids)
    SELECT gen_random_uuid(), m.tenant_id, m.id, md5(m.id::text || s), 40 + s % 20, 'poll', now() - s * interval '1 hour', '{}'
    FROM mcp_server m, generate_series(1, ${SNAPSHOTS_PER_SERVER}::int) s WHERE m.tenant_id = ${tenantId}::uuid`;
  await db.$executeRaw`
    INSERT INTO alert (id, tenant_id, server_id, kind, severity, status, title, dedupe_key, created_at, updated_at)
    SELECT gen_random_uuid(), m.tenant_id, m.id, 'tool_changed', (ARRAY['critical','high','medium','low'])[1 + a % 4]::alert_severity,
      (ARRAY['open','acknowledged','resolved'])[1 + a % 3]::alert_status, 'tool op_' || a || ' changed', 'tool:op_' || a, now() - a * interval '1 minute', now()
    FROM mcp_server m, generate_series(1, ${ALERTS_PER_SERVER}::int) a WHERE m.tenant_id = ${tenantId}::uuid`;
  // As autovacuum would leave a settled table: statistics, and a visibility map for index-only counts.
  await db.$executeRawUnsafe("VACUUM ANALYZE");
}

type Result = { requests: number; errors: number; rps: number; p50: number; p95: number; p99: number };

/** CLIENTS loops, each sending the next request as soon as the last answered, for SECONDS. */
async function load(origin: string, pathWithQuery: string, token: string): Promise<Result> {
  const pool = new Pool(origin, { connections: CLIENTS, pipelining: 1 });
  const latencies: number[] = [];
  let errors = 0;
  const one = async () => {
    const t0 = performance.now();
    const res = await pool.request({ method: "GET", path: pathWithQuery, headers: { authorization: `Bearer ${token}` } });
    await res.body.arrayBuffer();
    if (res.statusCode !== 200) errors++;
    return performance.now() - t0;
  };
  for (let i = 0; i < CLIENTS; i++) await one(); // warm-up: connections open, plans cached
  const end = performance.now() + SECONDS * 1_000;
  const started = performance.now();
  await Promise.all(Array.from({ length: CLIENTS }, async () => {
    while (performance.now() < end) latencies.push(await one());
  }));
  const elapsed = (performance.now() - started) / 1_000;
  await pool.close();
  return { requests: latencies.length, errors, rps: latencies.length / elapsed, p50: percentile(latencies, 0.5), p95: percentile(latencies, 0.95), p99: percentile(latencies, 0.99) };
}

const line = (what: string, r: Result) =>
  `${what.padEnd(34)} ${r.rps.toFixed(0).padStart(6)} req/s  p50 ${r.p50.toFixed(1)} ms  p95 ${r.p95.toFixed(1)} ms  p99 ${r.p99.toFixed(1)} ms  (n=${r.requests}${r.errors ? `, ${r.errors} errors` : ""})`;

console.log(`fleet API${process.env.BENCH_CACHE === "0" ? " (fleet-list cache off)" : ""} — ${SERVERS} servers, ${SERVERS * SNAPSHOTS_PER_SERVER} snapshots, ${SERVERS * ALERTS_PER_SERVER} alerts, ${CLIENTS} concurrent clients, ${SECONDS} s per endpoint\n`);
const base = fs.mkdtempSync(path.join(traversableTmpBase(), "toolwatch-bench-fleet-"));
const pg = await startEmbeddedPostgres({ dataDir: path.join(base, "data"), persistent: false, database: "bench" });
let child: ReturnType<typeof spawn> | undefined;
try {
  await migrateDeploy(pg.url);
  const db = createDb(pg.url);
  const tenant = await ensureTenant(db, "bench-fleet", "Bench fleet");
  const ctx = { tenantId: tenant.id, actor: { kind: "system" as const, id: "bench" }, db };
  let t0 = performance.now();
  await seed(db, tenant.id);
  console.log(`seeded in ${((performance.now() - t0) / 1_000).toFixed(1)} s`);
  const { key } = await createApiKey(ctx, { name: "bench", role: "viewer" });

  try {
    const { serverListSql } = await import("@/lib/servers/list-servers");
    const sql = serverListSql(ctx, {}, { by: "name", dir: "asc" }, 100, null);
    const plan = await db.$queryRawUnsafe<{ "QUERY PLAN": string }[]>(`EXPLAIN (ANALYZE, BUFFERS) ${sql.text}`, ...sql.values);
    const timing = plan.map((r) => r["QUERY PLAN"]).filter((l) => /Planning Time|Execution Time/.test(l));
    console.log(`EXPLAIN ANALYZE, first page of 100 by name: ${timing.join(", ")}`);
    if (process.env.BENCH_PLAN) console.log(plan.map((r) => r["QUERY PLAN"]).join("\n"));
  } catch {
    console.log("EXPLAIN: this checkout has no serverListSql (the unpaged list)");
  }

  const env = { ...process.env, DATABASE_URL: pg.url, TOOLWATCH_SECRET_KEY: SECRET_KEY, TOOLWATCH_DATA_DIR: path.join(base, "data-dir"), NODE_ENV: "production" as const,
    // The per-key and per-team limits of issue 13 would answer most of 50 closed-loop clients with
    // 429 (counted as errors, and fast): the bench measures the list, not the limiter.
    TOOLWATCH_API_RATE_PER_KEY: "10000000/min", TOOLWATCH_API_RATE_PER_TEAM: "10000000/min", TOOLWATCH_API_RATE_PER_USER: "10000000/min" };
  // BENCH_SERVER_ARGS="--cpu-prof --cpu-prof-dir=.scratch/prof" profiles the server under load.
  const serverArgs = process.env.BENCH_SERVER_ARGS?.split(" ").filter(Boolean) ?? [];
  child = spawn(process.execPath, [...serverArgs, ...process.execArgv, path.join(import.meta.dirname, "fleet-api-server.ts")], { env, stdio: ["ignore", "pipe", "inherit"] });
  const port = await new Promise<number>((resolve, reject) => {
    child!.stdout!.on("data", (chunk: Buffer) => {
      const m = /ready (\d+)/.exec(chunk.toString());
      if (m) resolve(Number(m[1]));
    });
    child!.on("exit", (code) => reject(new Error(`bench server exited (${code})`)));
  });
  const origin = `http://127.0.0.1:${port}`;
  t0 = performance.now();
  const first = await fetch(`${origin}/api/v1/servers`, { headers: { authorization: `Bearer ${key}` } });
  const body = (await first.json()) as { items: unknown[] };
  console.log(`first GET /api/v1/servers: ${first.status}, ${body.items.length} items, ${(JSON.stringify(body).length / 1024).toFixed(0)} KiB, ${(performance.now() - t0).toFixed(0)} ms cold`);
  console.log(line("GET /api/v1/servers (first page)", await load(origin, "/api/v1/servers", key)));
  console.log(line("GET /api/v1/servers?status=live&sort=toolCount", await load(origin, "/api/v1/servers?status=live&sort=toolCount&dir=desc", key)));
  console.log(line("GET /api/v1/alerts (first page)", await load(origin, "/api/v1/alerts", key)));
  const status = fs.readFileSync(`/proc/${child.pid ?? 0}/status`, "utf8");
  console.log(`bench server peak RSS: ${(Number(/VmHWM:\s+(\d+)/.exec(status)?.[1] ?? 0) / 1024).toFixed(0)} MiB`);
  await db.$disconnect();
} finally {
  child?.kill("SIGTERM");
  await pg.stop();
  fs.rmSync(base, { recursive: true, force: true });
}
