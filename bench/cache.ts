import fs from "node:fs";
import path from "node:path";
import { ToolListCache, type CacheIdentity } from "@/lib/cache/tool-list-cache";
import { createDb } from "@/lib/db";
import type { Listing } from "@/lib/discovery/open-connection";
import { ensureTenant } from "@/lib/tenants/ensure-tenant";
import { startEmbeddedPostgres } from "@/scripts/embedded-postgres";
import { migrateDeploy } from "@/scripts/migrate-engine";
import { traversableTmpBase } from "@/scripts/traversable-tmp";

// `npm run bench`: the tool-list cache (lib/cache) against a throwaway real Postgres. Prints the
// cost of a hit and of a miss for a TOOLS-tool list, and how many tools/list calls TEAMS teams
// watching one public server make over WINDOWS TTL windows, with and without the cache.
const TOOLS = Number(process.env.BENCH_TOOLS ?? 500);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 100);
const TEAMS = Number(process.env.BENCH_TEAMS ?? 20);
const WINDOWS = 10;
const TTL = 60_000;

const tool = (i: number) => ({ name: `tool_${i}`, description: `Does thing ${i}. `.repeat(8), inputSchema: { type: "object" as const, properties: { id: { type: "string" } } } });
const listing: Listing = { tools: Array.from({ length: TOOLS }, (_, i) => tool(i)), dropped: [], duplicateNames: [], pages: 1, restarts: 0, ttlMs: TTL, cacheScope: "public", warnings: [], surface: { prompts: null, resources: null, resourceTemplates: null, instructions: null } };

function p(samples: number[], q: number): string {
  const s = [...samples].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor(q * s.length))]!.toFixed(1);
}

console.log(`tool-list cache — ${TOOLS} tools per list, ${ROUNDS} rounds, ${TEAMS} teams\n`);
const base = fs.mkdtempSync(path.join(traversableTmpBase(), "toolwatch-bench-cache-"));
const pg = await startEmbeddedPostgres({ dataDir: path.join(base, "data"), persistent: false, database: "bench" });
try {
  await migrateDeploy(pg.url);
  const db = createDb(pg.url);
  let clock = Date.now();
  const cache = new ToolListCache(db, () => clock);
  const ids: CacheIdentity[] = [];
  for (let t = 0; t < TEAMS; t++) {
    const tenant = await ensureTenant(db, `bench-cache-${t}`, `Bench ${t}`);
    const server = await db.mcpServer.create({ data: { tenantId: tenant.id, name: "public", transport: "streamable_http", url: "http://x/mcp", configHash: "x" } });
    ids.push({ tenantId: tenant.id, serverId: server.id, endpointKey: "ep1:bench", authContext: "anonymous" });
  }
  let fetches = 0;
  const fetch = async () => {
    fetches++;
    return listing;
  };

  const misses: number[] = [];
  const hits: number[] = [];
  for (let r = 0; r < ROUNDS; r++) {
    clock += TTL + 1; // every entry stale: the next obtain fetches and stores
    let t0 = performance.now();
    await cache.obtain(ids[0]!, "ttl_expiry", 0, fetch);
    misses.push(performance.now() - t0);
    t0 = performance.now();
    await cache.obtain(ids[1 % TEAMS]!, "poll", 0, fetch);
    hits.push(performance.now() - t0);
  }
  console.log(`miss: fetch (instant here) + store ${TOOLS} tools:  p50 ${p(misses, 0.5)} ms  p95 ${p(misses, 0.95)} ms`);
  console.log(`hit: find fresh entry + serve ${TOOLS} tools:      p50 ${p(hits, 0.5)} ms  p95 ${p(hits, 0.95)} ms`);

  fetches = 0;
  for (let w = 0; w < WINDOWS; w++) {
    clock += TTL + 1;
    for (const id of ids) await cache.obtain(id, "ttl_expiry", 0, fetch);
  }
  console.log(`${TEAMS} teams × ${WINDOWS} TTL windows on one public server: ${fetches} tools/list calls with the cache, ${TEAMS * WINDOWS} without`);
  await db.$disconnect();
} finally {
  await pg.stop();
  fs.rmSync(base, { recursive: true, force: true });
}
