import fs from "node:fs";
import path from "node:path";
import { createDb } from "@/lib/db";
import { consume, type Bucket } from "@/lib/rate-limit/counter";
import { startEmbeddedPostgres } from "@/scripts/embedded-postgres";
import { migrateDeploy } from "@/scripts/migrate-engine";
import { traversableTmpBase } from "@/scripts/traversable-tmp";
import { percentile } from "./timing";

// `npm run bench`: what the /api/v1 rate limit adds to a request, against a throwaway real
// Postgres: one upsert of the key's and the team's counters (lib/rate-limit/counter.ts), next to
// a bare `SELECT 1` round trip on the same pool; then CONCURRENCY clients of one team at once
// (every request updates the team's one row, so they queue on its row lock).
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 2000);
const CONCURRENCY = 8;

const fmt = (samples: number[]) => `p50 ${percentile(samples, 0.5).toFixed(2)} ms  p95 ${percentile(samples, 0.95).toFixed(2)} ms  p99 ${percentile(samples, 0.99).toFixed(2)} ms  (n=${samples.length})`;

async function timed(fn: () => Promise<unknown>): Promise<number> {
  const t = performance.now();
  await fn();
  return performance.now() - t;
}

console.log(`API rate limiter — ${ROUNDS} rounds\n`);
const base = fs.mkdtempSync(path.join(traversableTmpBase(), "toolwatch-bench-rate-"));
const pg = await startEmbeddedPostgres({ dataDir: path.join(base, "data"), persistent: false, database: "bench" });
try {
  await migrateDeploy(pg.url);
  const db = createDb(pg.url, CONCURRENCY + 2);
  const buckets = (key: number): Bucket[] => [
    { key: `api:key:bench-${key}`, limit: 1_000_000, windowSeconds: 60 },
    { key: "api:team:bench", limit: 1_000_000, windowSeconds: 60 },
  ];
  for (let i = 0; i < 50; i++) await Promise.all([db.$queryRaw`SELECT 1`, consume(db, buckets(0))]); // warm-up

  const select1: number[] = [];
  const limiter: number[] = [];
  for (let i = 0; i < ROUNDS; i++) {
    select1.push(await timed(() => db.$queryRaw`SELECT 1`));
    limiter.push(await timed(() => consume(db, buckets(0))));
  }
  console.log(`SELECT 1 round trip         ${fmt(select1)}`);
  console.log(`limit check (key + team)    ${fmt(limiter)}`);
  console.log(`added per request (p50)     ${(percentile(limiter, 0.5) - percentile(select1, 0.5)).toFixed(2)} ms over a bare round trip, ${percentile(limiter, 0.5).toFixed(2)} ms in all`);

  const contended: number[] = [];
  const perClient = Math.ceil(ROUNDS / CONCURRENCY);
  const wall = await timed(() =>
    Promise.all(
      Array.from({ length: CONCURRENCY }, async (_, c) => {
        for (let i = 0; i < perClient; i++) contended.push(await timed(() => consume(db, buckets(c + 1))));
      }),
    ),
  );
  console.log(`${CONCURRENCY} clients, one team        ${fmt(contended)}; ${Math.round((contended.length / wall) * 1000)} checks/s`);
  await db.$disconnect();
} finally {
  await pg.stop();
  fs.rmSync(base, { recursive: true, force: true });
}
