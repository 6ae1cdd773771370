import type { Db } from "@/lib/db";
import { rootLogger } from "@/lib/logger";

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
 * (a claim is cut to what is left), so no process ever admits past the limit. A process has at
 * most one claim per bucket out at a time: requests that find no token while one is out wait for
 * it and spend what it brought, and the next claim is sized to the requests still waiting (up to
 * MAX_CLAIM), which spend it. What a process claimed and did not spend is lost with the window:
 * (claim − 1) per bucket when requests come one by one, at most MAX_CLAIM − 1 after a burst that
 * stops right after a large claim. So a bucket may refuse up to that many × processes requests
 * early, and never admits one past its limit.
 * (Without the one-claim rule, 300 requests in flight at once each claimed for themselves and a
 * limit of 200 admitted 50: tests/integration/rate-lease.test.ts.)
 * Limits of 50 or less claim one token at a time: exact, as the sign-in limits must be.
 */
export class LeaseStore {
  private readonly leases = new Map<string, Lease>();
  /** Per bucket: the claim out now (settles when its statement does), and how many requests wait for one. */
  private readonly claims = new Map<string, Promise<void>>();
  private readonly waiters = new Map<string, number>();
  constructor(private readonly now: () => number = Date.now) {}

  /** Tokens to claim: the usual share, or as many as requests wait for (up to MAX_CLAIM). */
  claimSize(bucket: Bucket): number {
    const base = Math.max(1, Math.min(MAX_CLAIM, Math.floor(bucket.limit * CLAIM_SHARE)));
    if (base === 1) return 1;
    return Math.max(base, Math.min(MAX_CLAIM, 1 + (this.waiters.get(bucket.key) ?? 0)));
  }

  /** Whether a claim for one of these buckets is out. */
  claimOut(buckets: Bucket[]): boolean {
    return buckets.some((b) => this.claims.has(b.key));
  }

  /**
   * Waits for the claims out for these buckets, counted as waiting until the caller resumes (the
   * count sizes the next claim); the caller checks claimOut again before claiming itself.
   */
  async awaitClaims(buckets: Bucket[]): Promise<void> {
    const out = buckets.filter((b) => this.claims.has(b.key));
    for (const b of out) this.waiters.set(b.key, (this.waiters.get(b.key) ?? 0) + 1);
    try {
      await Promise.all(out.map((b) => this.claims.get(b.key)));
    } finally {
      // Still counted while the other waiters of this claim resume: queued in order behind us.
      queueMicrotask(() => {
        for (const b of out) {
          const n = (this.waiters.get(b.key) ?? 1) - 1;
          if (n > 0) this.waiters.set(b.key, n);
          else this.waiters.delete(b.key);
        }
      });
    }
  }

  /** Marks a claim for these buckets as out until `statement` settles. */
  claiming<T>(buckets: Bucket[], statement: Promise<T>): Promise<T> {
    const done = statement.then(
      () => undefined,
      () => undefined,
    );
    for (const b of buckets) {
      this.claims.set(b.key, done);
      void done.then(() => {
        if (this.claims.get(b.key) === done) this.claims.delete(b.key);
      });
    }
    return statement;
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
  // No await between the last check and registering our own claim below: requests that arrive
  // (or wake) together must see each other's claim.
  while (leases?.claimOut(buckets)) await leases.awaitClaims(buckets);
  // Buckets with a token claimed ahead spend it here; only the others go to the database.
  const local = leases ? buckets.filter((b) => leases.holds(b)) : [];
  const spent = local.map((b) => leases!.spend(b));
  const remote = buckets.filter((b) => !local.includes(b));
  if (remote.length === 0) return decide(spent);
  const claims = remote.map((b) => leases?.claimSize(b) ?? 1);
  const keys = remote.map((b) => b.key);
  const windows = remote.map((b) => Math.round(b.windowSeconds * 1000));
  // The claim settles only once its tokens are kept (keep), so requests waiting for it find them.
  const claim = async (): Promise<BucketState[]> => {
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
    return remote.map((bucket, i): BucketState => {
      const row = rows.find((r) => r.key === bucket.key);
      if (!row) throw new Error(`rate counter ${bucket.key} returned no row`);
      const endsAt = Number(row.window_start) + row.window_ms;
      const claimed = claims[i]!;
      // What this claim got: the tokens still under the limit before it, at most the claim.
      const granted = Math.max(0, Math.min(claimed, bucket.limit - (row.count - claimed)));
      const resetSeconds = Math.max(1, Math.ceil((endsAt - Number(row.now_ms)) / 1000));
      const remainingAfterClaim = Math.max(0, bucket.limit - row.count);
      if (granted < 1) return { ...bucket, count: Math.max(row.count, bucket.limit + 1), remaining: 0, resetSeconds };
      // This request spends one token of the claim; the rest stay with the process for the window.
      leases?.keep(bucket, granted - 1, resetSeconds, remainingAfterClaim);
      const remaining = remainingAfterClaim + granted - 1;
      return { ...bucket, count: bucket.limit - remaining, remaining, resetSeconds };
    });
  };
  const states = await (leases ? leases.claiming(remote, claim()) : claim());
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
