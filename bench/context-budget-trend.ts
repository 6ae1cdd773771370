import fs from "node:fs";
import path from "node:path";
import { createDb } from "@/lib/db";
import { listCostliestServers } from "@/lib/context-tokens/costliest-servers";
import { teamTokensPerDaySql } from "@/lib/context-tokens/team-token-trend";
import { getContextBudgetReport } from "@/lib/tenants/context-budget-report";
import { ensureTenant } from "@/lib/tenants/ensure-tenant";
import { startEmbeddedPostgres } from "@/scripts/embedded-postgres";
import { migrateDeploy } from "@/scripts/migrate-engine";
import { traversableTmpBase } from "@/scripts/traversable-tmp";
import { percentile } from "./timing";

// `node --import tsx bench/context-budget-trend.ts`: the budget page's report at fleet size. Seeds
// one team with SERVERS servers and SNAPSHOTS_PER_SERVER counted snapshots each, spread evenly over
// the last SPAN_DAYS days (so about half fall in the 30-day window), prints EXPLAIN (ANALYZE,
// BUFFERS) of the per-day trend statement and the latency of the whole report.
const SERVERS = Number(process.env.BENCH_SERVERS ?? 2_000);
const SNAPSHOTS_PER_SERVER = Number(process.env.BENCH_SNAPSHOTS_PER_SERVER ?? 50);
const SPAN_DAYS = Number(process.env.BENCH_SPAN_DAYS ?? 60);
const RUNS = 20;

const base = fs.mkdtempSync(path.join(traversableTmpBase(), "toolwatch-bench-budget-"));
const pg = await startEmbeddedPostgres({ dataDir: path.join(base, "data"), persistent: false, database: "bench" });
try {
  await migrateDeploy(pg.url);
  const db = createDb(pg.url);
  const tenant = await ensureTenant(db, "bench-budget", "Bench budget");
  const other = await ensureTenant(db, "bench-other", "Another team");
  for (const t of [tenant, other]) {
    await db.$executeRaw`
      INSERT INTO mcp_server (id, tenant_id, name, transport, url, tags, enabled, config_hash, updated_at)
      SELECT gen_random_uuid(), ${t.id}::uuid, 'svc-' || lpad(i::text, 5, '0'), 'streamable_http', 'http://127.0.0.1:9/mcp/' || i, '{}', true, 'bench', now()
      FROM generate_series(1, ${SERVERS}::int) i`;
    await db.$executeRaw`
      INSERT INTO snapshot (id, tenant_id, server_id, content_hash, tool_count, trigger, taken_at, tool_version_ids, context_tokens)
      SELECT gen_random_uuid(), m.tenant_id, m.id, md5(m.id::text || s), 40 + s % 20, 'poll',
             now() - (s * ${SPAN_DAYS}::int * interval '1 day') / ${SNAPSHOTS_PER_SERVER}::int - (hashtext(m.name) & 1023) * interval '1 minute',
             '{}', 2000 + (hashtext(m.name || s) & 4095)
      FROM mcp_server m, generate_series(1, ${SNAPSHOTS_PER_SERVER}::int) s WHERE m.tenant_id = ${t.id}::uuid`;
  }
  await db.$executeRawUnsafe("VACUUM ANALYZE");
  const count = await db.snapshot.count({ where: { tenantId: tenant.id } });
  console.log(`budget report — ${SERVERS} servers, ${count} snapshots over ${SPAN_DAYS} days in the team (and as many in another team)\n`);

  const sql = teamTokensPerDaySql(tenant.id, 30, new Date());
  const plan = await db.$queryRawUnsafe<{ "QUERY PLAN": string }[]>(`EXPLAIN (ANALYZE, BUFFERS) ${sql.text}`, ...sql.values);
  console.log(plan.map((r) => r["QUERY PLAN"]).join("\n"));

  const ctx = { tenantId: tenant.id, actor: { kind: "system" as const, id: "bench" }, db };
  const time = async (what: string, fn: () => Promise<unknown>) => {
    await fn();
    const ms: number[] = [];
    for (let i = 0; i < RUNS; i++) {
      const t0 = performance.now();
      await fn();
      ms.push(performance.now() - t0);
    }
    console.log(`${what.padEnd(36)} p50 ${percentile(ms, 0.5).toFixed(1)} ms  p95 ${percentile(ms, 0.95).toFixed(1)} ms  (n=${RUNS})`);
  };
  console.log("");
  await time("trend, 30 days", () => db.$queryRaw(teamTokensPerDaySql(tenant.id, 30, new Date())));
  await time("costliest 10 servers", () => listCostliestServers(db, tenant.id, 10));
  await time("whole report (GET …/report)", () => getContextBudgetReport(ctx, {}));
  await db.$disconnect();
} finally {
  await pg.stop();
  fs.rmSync(base, { recursive: true, force: true });
}
