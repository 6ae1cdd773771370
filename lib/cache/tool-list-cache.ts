import type { Db } from "@/lib/db";
import type { Listing } from "@/lib/discovery/open-connection";
import type { Prisma, ToolListCacheEntry } from "@/lib/generated/prisma/client";
import type { SnapshotTrigger } from "@/lib/snapshots/record-snapshot";
import { hashTool, hashToolList } from "@/lib/snapshots/canonical-hash";
import { partitionFor, PUBLIC_PARTITION, readablePartitions } from "./cache-key";
import { findDivergence, type Divergence } from "./cache-divergence";
import type { FetchLock } from "./fetch-lock";

// The worker's tool-list cache (protocol 2026-07-28 ttlMs/cacheScope, mcp-discovery.md §1.5).
// Before a session calls tools/list it asks here: a fresh entry it may read is served instead
// (a hit); otherwise the session fetches and the result is stored (a miss when no entry existed,
// a refresh when one did). Entries live in Postgres, so every worker and restart sees them; one
// fetch per endpoint is in flight per worker at a time, and sessions that need the same list
// wait for it instead of asking the server again.

/** How often a session waiting for another worker's fetch looks for its entry. */
const LOCK_POLL_MS = 150;

/** The spec lets clients cap TTLs; the SDK client caps at 24 h, so do we. */
export const MAX_TTL_MS = 86_400_000;

export type CacheIdentity = { tenantId: string; serverId: string; endpointKey: string; authContext: string };
export type CacheOutcome = "hit" | "miss" | "refresh";

export type ObtainedListing = {
  listing: Listing;
  outcome: CacheOutcome;
  /** null: the cache could not be used (database trouble) and the list was fetched directly. */
  entryId: string | null;
  /** Until when the session may treat the list as fresh (ms since epoch; ≤ now: stale already). */
  freshUntil: number;
  /** A public list that another authorization context sees differently (rule R31). */
  divergence: Divergence | null;
  /** The tools' content addresses, when this call fetched and hashed the list (the store reuses them). */
  toolHashes?: string[];
};

type Flight = { startedAt: number; done: Promise<void> };

export class ToolListCache {
  private readonly flights = new Map<string, Flight>();

  constructor(
    private readonly db: Db,
    private readonly now: () => number = Date.now,
    /** Cross-worker coordination for shared (anonymous) lists; absent = this process only. */
    private readonly lock?: FetchLock,
    /** How long to wait for another worker's fetch of the same list before fetching anyway. */
    private readonly waitForOthersMs = 15_000,
  ) {}

  /**
   * The list for one server: served from a fresh entry fetched at or after `notBefore` (ms since
   * epoch), else fetched with `fetch` and stored. `notBefore` beyond now forces a fetch (manual
   * refresh); a list_changed passes the time it arrived, so an entry from before it never serves.
   */
  async obtain(id: CacheIdentity, trigger: SnapshotTrigger, notBefore: number, fetch: () => Promise<Listing>): Promise<ObtainedListing> {
    const forced = notBefore > this.now();
    const flightKey = flightKeyOf(id);
    if (!forced) {
      for (let round = 0; round < 2; round++) {
        const entry = await this.findUsable(id, notBefore);
        if (entry) return this.serveHit(id, entry, trigger);
        const flight = this.flights.get(flightKey);
        if (!flight || flight.startedAt < notBefore) break;
        await flight.done; // someone is fetching this very list right now: use theirs
      }
    }
    const held = await this.lockAcrossWorkers(id, notBefore, forced);
    if (held.kind === "served") return this.serveHit(id, held.entry, trigger);
    try {
      return await this.fetchAndStore(id, trigger, flightKey, fetch);
    } finally {
      await held.release?.();
    }
  }

  /**
   * Another worker fetching the same shared list: wait for its entry (polling the database)
   * rather than asking the server too. Only anonymous lists can be shared across teams, so only
   * they take the lock; once it is ours, check again whether someone stored it meanwhile.
   */
  private async lockAcrossWorkers(
    id: CacheIdentity,
    notBefore: number,
    forced: boolean,
  ): Promise<{ kind: "served"; entry: ToolListCacheEntry } | { kind: "fetch"; release?: () => Promise<void> }> {
    if (!this.lock || id.authContext !== "anonymous" || forced) return { kind: "fetch" };
    const deadline = Date.now() + this.waitForOthersMs;
    for (;;) {
      const result = await this.lock.tryAcquire(flightKeyOf(id));
      if (result.kind === "unavailable") return { kind: "fetch" };
      if (result.kind === "acquired") {
        // A lock left held would make every later fetch of this list wait the full 15 s.
        let entry: ToolListCacheEntry | null;
        try {
          entry = await this.findUsable(id, notBefore);
        } catch (error) {
          await result.release();
          throw error;
        }
        if (!entry) return { kind: "fetch", release: result.release };
        await result.release();
        return { kind: "served", entry };
      }
      await new Promise((resolve) => setTimeout(resolve, LOCK_POLL_MS));
      const entry = await this.findUsable(id, notBefore);
      if (entry) return { kind: "served", entry };
      if (Date.now() > deadline) return { kind: "fetch" };
    }
  }

  /** A list_changed arrived: every entry this server could read is stale from now on, whatever its TTL. */
  async invalidate(id: CacheIdentity, reason: string): Promise<number> {
    const { count } = await this.db.toolListCacheEntry.updateMany({
      where: { endpointKey: id.endpointKey, authContext: id.authContext, partition: { in: readablePartitions(id.authContext, id.tenantId) }, invalidatedAt: null },
      data: { invalidatedAt: new Date(this.now()), invalidatedBy: reason },
    });
    return count;
  }

  private async findUsable(id: CacheIdentity, notBefore: number): Promise<ToolListCacheEntry | null> {
    const now = new Date(this.now());
    const candidates = await this.db.toolListCacheEntry.findMany({
      where: {
        endpointKey: id.endpointKey,
        authContext: id.authContext,
        partition: { in: readablePartitions(id.authContext, id.tenantId) },
        invalidatedAt: null,
        expiresAt: { gt: now },
        requestedAt: { gte: new Date(Math.max(0, notBefore)) },
      },
    });
    // The shared entry first: it is what every team sees; the team's own entry otherwise. Entries
    // stored before prompts and resources were listed lack them: serving one would hide them.
    const usable = candidates.filter((e) => typeof e.listing === "object" && e.listing !== null && "surface" in e.listing);
    return usable.find((e) => e.partition === PUBLIC_PARTITION) ?? usable[0] ?? null;
  }

  private async serveHit(id: CacheIdentity, entry: ToolListCacheEntry, trigger: SnapshotTrigger): Promise<ObtainedListing> {
    await this.recordUse(id, entry.id, "hit", trigger);
    return { listing: entry.listing as unknown as Listing, outcome: "hit", entryId: entry.id, freshUntil: entry.expiresAt.getTime(), divergence: null };
  }

  private async fetchAndStore(id: CacheIdentity, trigger: SnapshotTrigger, flightKey: string, fetch: () => Promise<Listing>): Promise<ObtainedListing> {
    const requestedAt = this.now();
    let finish = () => undefined as void;
    const flight: Flight = { startedAt: requestedAt, done: new Promise<void>((resolve) => (finish = resolve)) };
    this.flights.set(flightKey, flight);
    try {
      const listing = await fetch();
      const stored = await this.store(id, listing, trigger, requestedAt);
      const divergence = listing.cacheScope === "public" ? await findDivergence(this.db, stored.entry, listing) : null;
      return { listing, outcome: stored.existed ? "refresh" : "miss", entryId: stored.entry.id, freshUntil: stored.entry.expiresAt.getTime(), divergence, toolHashes: stored.toolHashes };
    } finally {
      if (this.flights.get(flightKey) === flight) this.flights.delete(flightKey);
      finish();
    }
  }

  /**
   * Upserts the entry and counts this server's miss or refresh, in one statement (a busy worker
   * stores hundreds of lists a second; an interactive transaction per store starved the pool).
   * An invalidation that arrived after this fetch began survives it (the list may have changed
   * while we were reading it); an older one is cleared. An anonymous list that changed scope
   * leaves its other partition behind, stale from now on.
   */
  private async store(id: CacheIdentity, listing: Listing, trigger: SnapshotTrigger, requestedAt: number): Promise<{ entry: ToolListCacheEntry; existed: boolean; toolHashes: string[] }> {
    const fetchedAt = new Date(this.now());
    const scope = listing.cacheScope;
    const ttlMs = listing.ttlMs === null ? null : Math.max(0, listing.ttlMs);
    const partition = partitionFor(scope, id.authContext, id.tenantId);
    // The addresses go back with the entry: the snapshot store needs the same ones (0.45 ms a 50-tool list).
    const hashed = listing.tools.map((t) => ({ name: t.name, hash: hashTool(t) }));
    const toolHashes = hashed.map((t) => t.hash);
    const listHash = hashToolList(hashed);
    const expiresAt = new Date(fetchedAt.getTime() + Math.min(ttlMs ?? 0, MAX_TTL_MS));
    const others = id.authContext === "anonymous" ? readablePartitions(id.authContext, id.tenantId).filter((p) => p !== partition) : [];
    const entryTenant = partition === PUBLIC_PARTITION ? null : id.tenantId;
    const rows = await this.db.$queryRaw<StoredRow[]>`
      WITH scope_moved AS (
        UPDATE tool_list_cache_entry SET invalidated_at = ${fetchedAt}, invalidated_by = 'scope_changed'
         WHERE endpoint_key = ${id.endpointKey} AND auth_context = ${id.authContext} AND partition = ANY(${others}::text[]) AND invalidated_at IS NULL
        RETURNING 1
      ), up AS (
        INSERT INTO tool_list_cache_entry AS e (id, endpoint_key, auth_context, partition, tenant_id, scope, ttl_ms, requested_at, fetched_at,
                                                expires_at, list_hash, tool_count, listing, last_reason, fetch_count, created_at)
        VALUES (gen_random_uuid(), ${id.endpointKey}, ${id.authContext}, ${partition}, ${entryTenant}::uuid, ${scope}, ${ttlMs}::int, ${new Date(requestedAt)},
                ${fetchedAt}, ${expiresAt}, ${listHash}, ${listing.tools.length}::int, ${JSON.stringify(listing)}::jsonb, ${trigger}, 1, now())
        ON CONFLICT (endpoint_key, auth_context, partition) DO UPDATE SET
          scope = EXCLUDED.scope, ttl_ms = EXCLUDED.ttl_ms, requested_at = EXCLUDED.requested_at, fetched_at = EXCLUDED.fetched_at,
          expires_at = EXCLUDED.expires_at, list_hash = EXCLUDED.list_hash, tool_count = EXCLUDED.tool_count, listing = EXCLUDED.listing,
          last_reason = EXCLUDED.last_reason, fetch_count = e.fetch_count + 1,
          invalidated_at = CASE WHEN e.invalidated_at > EXCLUDED.requested_at THEN e.invalidated_at END,
          invalidated_by = CASE WHEN e.invalidated_at > EXCLUDED.requested_at THEN e.invalidated_by END
        RETURNING e.*, (e.xmax::text <> '0') AS existed
      ), counted AS (
        INSERT INTO server_cache_use AS u (id, tenant_id, server_id, entry_id, misses, refreshes, last_outcome, last_reason, last_at)
        SELECT gen_random_uuid(), ${id.tenantId}::uuid, ${id.serverId}::uuid, up.id, CASE WHEN up.existed THEN 0 ELSE 1 END,
               CASE WHEN up.existed THEN 1 ELSE 0 END, CASE WHEN up.existed THEN 'refresh' ELSE 'miss' END, ${trigger}, ${fetchedAt}
          FROM up
        ON CONFLICT (server_id, entry_id) DO UPDATE SET misses = u.misses + EXCLUDED.misses, refreshes = u.refreshes + EXCLUDED.refreshes,
          last_outcome = EXCLUDED.last_outcome, last_reason = EXCLUDED.last_reason, last_at = EXCLUDED.last_at
      )
      SELECT * FROM up`;
    const row = rows[0]!;
    return { entry: entryFromRow(row), existed: row.existed, toolHashes };
  }

  private async recordUse(id: CacheIdentity, entryId: string, outcome: CacheOutcome, trigger: SnapshotTrigger): Promise<void> {
    const counter = outcome === "hit" ? "hits" : outcome === "miss" ? "misses" : "refreshes";
    const at = new Date(this.now());
    await this.db.serverCacheUse.upsert({
      where: { serverId_entryId: { serverId: id.serverId, entryId } },
      create: { tenantId: id.tenantId, serverId: id.serverId, entryId, [counter]: 1, lastOutcome: outcome, lastReason: trigger, lastAt: at },
      update: { [counter]: { increment: 1 }, lastOutcome: outcome, lastReason: trigger, lastAt: at },
    });
  }
}

/** Anonymous sessions of any team wait for one another; a credentialed one only for its own team and context. */
function flightKeyOf(id: CacheIdentity): string {
  return id.authContext === "anonymous" ? `${id.endpointKey}|anonymous` : `${id.endpointKey}|${id.authContext}|${id.tenantId}`;
}


type StoredRow = {
  id: string; endpoint_key: string; auth_context: string; partition: string; tenant_id: string | null; scope: string | null; ttl_ms: number | null;
  requested_at: Date; fetched_at: Date; expires_at: Date; invalidated_at: Date | null; invalidated_by: string | null; list_hash: string;
  tool_count: number; listing: Prisma.JsonValue; fetch_count: number; last_reason: string; created_at: Date; existed: boolean;
};

const toDate = (value: Date | string) => (value instanceof Date ? value : new Date(value));

function entryFromRow(r: StoredRow): ToolListCacheEntry {
  return {
    id: r.id, endpointKey: r.endpoint_key, authContext: r.auth_context, partition: r.partition, tenantId: r.tenant_id, scope: r.scope, ttlMs: r.ttl_ms,
    requestedAt: toDate(r.requested_at), fetchedAt: toDate(r.fetched_at), expiresAt: toDate(r.expires_at),
    invalidatedAt: r.invalidated_at === null ? null : toDate(r.invalidated_at), invalidatedBy: r.invalidated_by, listHash: r.list_hash,
    toolCount: r.tool_count, listing: r.listing, fetchCount: r.fetch_count, lastReason: r.last_reason, createdAt: toDate(r.created_at),
  };
}
