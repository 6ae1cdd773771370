// Isomorphic and pure: a server's recent status history as equal time buckets, like an uptime
// bar. The database groups the transitions per bucket (lib/servers/list-fleet-row-extras.ts);
// this folds those groups into one status per bucket, so the rule is table-tested without SQL.

/** 24 one-hour buckets: the last day up to the current hour, newest last. */
export const STRIP_BUCKETS = 24;
export const STRIP_BUCKET_MS = 60 * 60 * 1000;

export type StatusStrip = {
  /** Start of the first bucket (ISO); bucket i covers [from + i·bucketMinutes, from + (i+1)·bucketMinutes). */
  from: string;
  bucketMinutes: number;
  /** One status per bucket, oldest first: the worst status held at any time in it; null = no record yet. */
  buckets: (string | null)[];
};

/**
 * What the database says about one bucket: its index, the statuses entered in it, the last one,
 * and when the first transition happened (ms after the window's start).
 */
export type BucketGroup = { b: number; seen: string[]; last: string; firstMs: number };

// Worst first wins a bucket: an hour with a minute down shows as down. "connecting" ranks below
// live because every reconnect passes through it on the way back to live.
const RANK: Record<string, number> = { down: 8, auth_required: 7, degraded: 6, polling: 5, live: 4, connecting: 3, stopped: 2, pending: 1 };
const rank = (status: string) => RANK[status] ?? 0;

function worst(statuses: Iterable<string>): string | null {
  let best: string | null = null;
  for (const s of statuses) if (best === null || rank(s) > rank(best)) best = s;
  return best;
}

/**
 * The strip from the status held when the window opened (null: none recorded before it) and the
 * per-bucket groups of transitions inside the window (any order; out-of-range buckets ignored).
 */
export function foldStatusStrip(from: Date, startStatus: string | null, groups: BucketGroup[], count = STRIP_BUCKETS, bucketMs = STRIP_BUCKET_MS): StatusStrip {
  const byBucket = new Map(groups.map((g) => [g.b, g]));
  const buckets: (string | null)[] = [];
  let current = startStatus;
  for (let i = 0; i < count; i++) {
    const group = byBucket.get(i);
    // The status carried in was held for a while unless the first change came at the very start.
    const carried = current !== null && !(group && group.firstMs <= i * bucketMs);
    const held = [...(carried ? [current!] : []), ...(group?.seen ?? [])];
    buckets.push(worst(held));
    if (group) current = group.last;
  }
  return { from: from.toISOString(), bucketMinutes: bucketMs / 60_000, buckets };
}

/**
 * The window of the strip that holds now: whole buckets (clock hours), the current one last. Two
 * answers computed within the same hour agree exactly (the direct and the Next path of the fleet
 * API, a cached page and a fresh one).
 */
export function stripWindow(now: Date, count = STRIP_BUCKETS, bucketMs = STRIP_BUCKET_MS): { from: Date; to: Date } {
  const to = new Date((Math.floor(now.getTime() / bucketMs) + 1) * bucketMs);
  return { from: new Date(to.getTime() - count * bucketMs), to };
}
