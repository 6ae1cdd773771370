import type { Db } from "../db";
import { rootLogger } from "../logger";

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

/**
 * Tokens a web process claimed ahead for a bucket in the current window (see LeaseStore). Local
 * clock: `endsAt` is when the window the database reported ends, as seen here.
 */
type Lease = { tokens: number; endsAt: number; limit: number; remainingAtClaim: number };

/**
 * Claim-ahead for busy buckets: instead of one statement per request, a process claims a few
 * tokens at once (CLAIM_SHARE of the limit, at most MAX_CLAIM) and spends them locally until the
 * window ends. The database still grants no more than the limit in a window across all processes
 * (a claim is cut to what is left); what a process claimed and did not spend is lost with the
 * window, so a bucket may refuse up to (claim − 1) × processes requests early, never admit late.
 * Limits of 50 or less claim one token at a time: exact, as the sign-in limits must be.
 */
export class LeaseStore {
  private readonly leases = new Map<string, Lease>();
  constructor(private readonly now: () => number = Date.now) {}

  claimSize(bucket: Bucket): number {
    return Math.max(1, Math.min(MAX_CLAIM, Math.floor(bucket.limit * CLAIM_SHARE)));
  }

  /** Whether a bucket has a local token to spend now. */
  holds(bucket: Bucket): boolean {
    const lease = this.leases.get(bucket.key);
    return !!lease && lease.tokens >= 1 && lease.endsAt > this.now() && lease.limit === bucket.limit;
  }

  /** Spends one local token of a bucket that holds one (see holds). */
  spend(bucket: Bucket): BucketState {
    const lease = this.leases.get(bucket.key)!;
    lease.tokens--;
    const remaining = Math.max(0, lease.remainingAtClaim + lease.tokens);
    return { ...bucket, count: bucket.limit - remaining, remaining, resetSeconds: Math.max(1, Math.ceil((lease.endsAt - this.now()) / 1000)) };
  }

  keep(bucket: Bucket, tokens: number, resetSeconds: number, remainingAtClaim: number): void {
    if (tokens > 0) this.leases.set(bucket.key, { tokens, endsAt: this.now() + resetSeconds * 1000, limit: bucket.limit, remainingAtClaim });
    else this.leases.delete(bucket.key);
    if (this.leases.size > MAX_LEASES) this.leases.delete(this.leases.keys().next().value!);
  }
}

const CLAIM_SHARE = 0.02;
const MAX_CLAIM = 100;
const MAX_LEASES = 10_000;

/**
 * Counts one request against every bucket; null when there are none. With a LeaseStore, busy
 * buckets are served from tokens claimed ahead (one statement per claim, not per request).
 */
export async function consume(db: Db, buckets: Bucket[], leases?: LeaseStore): Promise<RateDecision | null> {
  if (buckets.length === 0) return null;
  // Buckets with a token claimed ahead spend it here; only the others go to the database.
  const local = leases ? buckets.filter((b) => leases.holds(b)) : [];
  const spent = local.map((b) => leases!.spend(b));
  const remote = buckets.filter((b) => !local.includes(b));
  if (remote.length === 0) return decide(spent);
  const claims = remote.map((b) => leases?.claimSize(b) ?? 1);
  const keys = remote.map((b) => b.key);
  const windows = remote.map((b) => Math.round(b.windowSeconds * 1000));
  const rows = await db.$queryRaw<Row[]>`
    WITH now AS (SELECT (extract(epoch FROM clock_timestamp()) * 1000)::bigint AS ms)
    INSERT INTO rate_counter AS c (key, window_start, window_ms, count)
    SELECT k, now.ms, w, n FROM unnest(${keys}::text[], ${windows}::int[], ${claims}::int[]) AS b(k, w, n), now
    ON CONFLICT (key) DO UPDATE SET
      count = CASE WHEN c.window_start + EXCLUDED.window_ms <= EXCLUDED.window_start THEN EXCLUDED.count ELSE c.count + EXCLUDED.count END,
      window_start = CASE WHEN c.window_start + EXCLUDED.window_ms <= EXCLUDED.window_start THEN EXCLUDED.window_start ELSE c.window_start END,
      window_ms = EXCLUDED.window_ms
    RETURNING c.key, c.count, c.window_start, c.window_ms, (SELECT ms FROM now) AS now_ms`;
  maybePrune(db);
  const states = remote.map((bucket, i): BucketState => {
    const row = rows.find((r) => r.key === bucket.key);
    if (!row) throw new Error(`rate counter ${bucket.key} returned no row`);
    const endsAt = Number(row.window_start) + row.window_ms;
    const claim = claims[i]!;
    // What this claim got: the tokens still under the limit before it, at most the claim.
    const granted = Math.max(0, Math.min(claim, bucket.limit - (row.count - claim)));
    const resetSeconds = Math.max(1, Math.ceil((endsAt - Number(row.now_ms)) / 1000));
    const remainingAfterClaim = Math.max(0, bucket.limit - row.count);
    if (granted < 1) return { ...bucket, count: Math.max(row.count, bucket.limit + 1), remaining: 0, resetSeconds };
    // This request spends one token of the claim; the rest stay with the process for the window.
    leases?.keep(bucket, granted - 1, resetSeconds, remainingAfterClaim);
    const remaining = remainingAfterClaim + granted - 1;
    return { ...bucket, count: bucket.limit - remaining, remaining, resetSeconds };
  });
  return decide([...spent, ...states]);
}

function decide(states: BucketState[]): RateDecision {
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
    rootLogger().warn(`rate limits: pruning old counters failed: ${error instanceof Error ? error.message : String(error)}`);
  });
}
