import type { Db } from "../db";

// Fixed-window counters in Postgres, shared by every web process. A window starts at the first
// request after the previous one ended (the Postgres clock, so web hosts' clocks never disagree)
// and counts every request in it, refused ones included. One statement per request, whatever the
// number of buckets: INSERT … ON CONFLICT … DO UPDATE … RETURNING.

import type { Rate } from "./rate";

export type Bucket = Rate & { key: string };

export type BucketState = Bucket & { count: number; remaining: number; resetSeconds: number };

export type RateDecision = {
  allowed: boolean;
  /** The bucket that refused the request, or else the one closest to refusing (for headers). */
  binding: BucketState;
  /** Seconds until the refusing bucket's window ends (≥ 1); 0 when allowed. */
  retryAfterSeconds: number;
};

type Row = { key: string; count: number; window_start: bigint; window_ms: number; now_ms: bigint };

export async function consume(db: Db, buckets: Bucket[]): Promise<RateDecision | null> {
  if (buckets.length === 0) return null;
  const keys = buckets.map((b) => b.key);
  const windows = buckets.map((b) => Math.round(b.windowSeconds * 1000));
  const rows = await db.$queryRaw<Row[]>`
    WITH now AS (SELECT (extract(epoch FROM clock_timestamp()) * 1000)::bigint AS ms)
    INSERT INTO rate_counter AS c (key, window_start, window_ms, count)
    SELECT k, now.ms, w, 1 FROM unnest(${keys}::text[], ${windows}::int[]) AS b(k, w), now
    ON CONFLICT (key) DO UPDATE SET
      count = CASE WHEN c.window_start + EXCLUDED.window_ms <= EXCLUDED.window_start THEN 1 ELSE c.count + 1 END,
      window_start = CASE WHEN c.window_start + EXCLUDED.window_ms <= EXCLUDED.window_start THEN EXCLUDED.window_start ELSE c.window_start END,
      window_ms = EXCLUDED.window_ms
    RETURNING c.key, c.count, c.window_start, c.window_ms, (SELECT ms FROM now) AS now_ms`;
  maybePrune(db);
  const states = buckets.map((bucket): BucketState => {
    const row = rows.find((r) => r.key === bucket.key);
    if (!row) throw new Error(`rate counter ${bucket.key} returned no row`);
    const endsAt = Number(row.window_start) + row.window_ms;
    return { ...bucket, count: row.count, remaining: Math.max(0, bucket.limit - row.count), resetSeconds: Math.max(1, Math.ceil((endsAt - Number(row.now_ms)) / 1000)) };
  });
  const refused = states.filter((s) => s.count > s.limit).sort((a, b) => b.resetSeconds - a.resetSeconds);
  if (refused[0]) return { allowed: false, binding: refused[0], retryAfterSeconds: refused[0].resetSeconds };
  const closest = [...states].sort((a, b) => a.remaining - b.remaining || b.resetSeconds - a.resetSeconds)[0]!;
  return { allowed: true, binding: closest, retryAfterSeconds: 0 };
}

// Rows whose window ended long ago are dead weight (sign-in attempts for made-up addresses, say);
// each process sweeps them at most every few minutes, off the request's path.
const PRUNE_EVERY_MS = 5 * 60_000;
const holder = globalThis as unknown as { __toolwatchRatePrunedAt?: number };

function maybePrune(db: Db): void {
  const now = Date.now();
  if (holder.__toolwatchRatePrunedAt !== undefined && now - holder.__toolwatchRatePrunedAt < PRUNE_EVERY_MS) return;
  holder.__toolwatchRatePrunedAt = now;
  void db.$executeRaw`
    DELETE FROM rate_counter
    WHERE window_start + window_ms < (extract(epoch FROM clock_timestamp()) * 1000)::bigint - 3600000`.catch((error: unknown) => {
    console.warn(`[rate-limit] pruning old counters failed: ${error instanceof Error ? error.message : String(error)}`);
  });
}
