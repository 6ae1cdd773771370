// Isomorphic: what GET /api/v1/cache returns and the cache page renders. One item per (server,
// cache entry) the team's servers have used; counters are this server's own, never another
// team's, even for an entry shared with other teams.

export type CacheOutcomeName = "hit" | "miss" | "refresh";

export type CacheEntryDto = {
  entryId: string;
  serverId: string;
  serverName: string;
  /** The entry this server used last (older entries stay listed after a credential change). */
  current: boolean;
  /** A public list fetched without credentials, shared by every team watching this endpoint. */
  shared: boolean;
  /** "anonymous", or "credentials" for a keyed hash of the credentials used (never the secret). */
  authContext: "anonymous" | "credentials";
  /** public | private; null = the server sent no hint (treated as private with ttl 0). */
  scope: string | null;
  ttlMs: number | null;
  fetchedAt: string;
  /** Why the entry was last fetched from the server: connect, ttl_expiry, list_changed, manual, … */
  refreshReason: string;
  expiresAt: string;
  /** Fresh now: within its TTL and not invalidated since. */
  fresh: boolean;
  /** ms of freshness left (0 when stale). */
  timeLeftMs: number;
  ageMs: number;
  invalidatedAt: string | null;
  invalidatedBy: string | null;
  toolCount: number;
  hits: number;
  misses: number;
  refreshes: number;
  /** hits / (hits + misses + refreshes); null before any use. */
  hitRate: number | null;
  lastOutcome: CacheOutcomeName;
  /** The listing trigger of the last use: connect, poll, ttl_expiry, list_changed, manual, … */
  lastReason: string;
  lastAt: string;
  /** The snapshot this server recorded (created or confirmed) from the entry the last time. */
  snapshotId: string | null;
};

export type CachePage = {
  items: CacheEntryDto[];
  totals: { hits: number; misses: number; refreshes: number; hitRate: number | null; fetches: number };
  generatedAt: string;
};
