import type { Db } from "../db";
import type { Listing } from "../discovery/open-connection";
import type { Prisma, ToolListCacheEntry } from "../generated/prisma/client";
import type { SnapshotTrigger } from "../snapshots/record-snapshot";
import { hashTool, hashToolList } from "../snapshots/canonical-hash";
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
        const entry = await this.findUsable(id, notBefore);
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
    // The shared entry first: it is what every team sees; the team's own entry otherwise.
    return candidates.find((e) => e.partition === PUBLIC_PARTITION) ?? candidates[0] ?? null;
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
      await this.recordUse(id, stored.entry.id, stored.existed ? "refresh" : "miss", trigger);
      const divergence = listing.cacheScope === "public" ? await findDivergence(this.db, stored.entry, listing) : null;
      return { listing, outcome: stored.existed ? "refresh" : "miss", entryId: stored.entry.id, freshUntil: stored.entry.expiresAt.getTime(), divergence };
    } finally {
      if (this.flights.get(flightKey) === flight) this.flights.delete(flightKey);
      finish();
    }
  }

  /**
   * Upserts the entry. An invalidation that arrived after this fetch began survives it (the list
   * may have changed while we were reading it); an older one is cleared.
   */
  private async store(id: CacheIdentity, listing: Listing, trigger: SnapshotTrigger, requestedAt: number): Promise<{ entry: ToolListCacheEntry; existed: boolean }> {
    const fetchedAt = this.now();
    const scope = listing.cacheScope;
    const ttlMs = listing.ttlMs === null ? null : Math.max(0, listing.ttlMs);
    const partition = partitionFor(scope, id.authContext, id.tenantId);
    const listHash = hashToolList(listing.tools.map((t) => ({ name: t.name, hash: hashTool(t) })));
    const expiresAt = new Date(fetchedAt + Math.min(ttlMs ?? 0, MAX_TTL_MS));
    const data = {
      scope,
      ttlMs,
      requestedAt: new Date(requestedAt),
      fetchedAt: new Date(fetchedAt),
      expiresAt,
      listHash,
      toolCount: listing.tools.length,
      listing: listing as unknown as Prisma.InputJsonValue,
      lastReason: trigger,
    };
    return this.db.$transaction(async (tx) => {
      const unique = { endpointKey: id.endpointKey, authContext: id.authContext, partition };
      const current = await tx.toolListCacheEntry.findUnique({ where: { endpointKey_authContext_partition: unique } });
      // An anonymous list that changed scope leaves its other partition behind: stale from now on.
      if (id.authContext === "anonymous") {
        await tx.toolListCacheEntry.updateMany({
          where: { endpointKey: id.endpointKey, authContext: id.authContext, partition: { in: readablePartitions(id.authContext, id.tenantId).filter((p) => p !== partition) }, invalidatedAt: null },
          data: { invalidatedAt: new Date(fetchedAt), invalidatedBy: "scope_changed" },
        });
      }
      if (!current) {
        const entry = await tx.toolListCacheEntry.create({ data: { ...unique, tenantId: partition === PUBLIC_PARTITION ? null : id.tenantId, ...data } });
        return { entry, existed: false };
      }
      const keepInvalidation = current.invalidatedAt !== null && current.invalidatedAt.getTime() > requestedAt;
      const entry = await tx.toolListCacheEntry.update({
        where: { id: current.id },
        data: { ...data, fetchCount: { increment: 1 }, ...(keepInvalidation ? {} : { invalidatedAt: null, invalidatedBy: null }) },
      });
      return { entry, existed: true };
    });
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

/** After the snapshot is recorded: which snapshot this server's use of the entry produced or confirmed. */
export async function linkUseToSnapshot(db: Db, serverId: string, entryId: string, snapshotId: string): Promise<void> {
  await db.serverCacheUse.updateMany({ where: { serverId, entryId }, data: { snapshotId } });
}
