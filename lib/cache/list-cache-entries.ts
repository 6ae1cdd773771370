import { requirePermission } from "@/lib/auth/permissions";
import type { ServiceContext } from "@/lib/context";
import { AppError } from "@/lib/errors";
import { isUuid } from "@/lib/ids";
import { PUBLIC_PARTITION } from "./cache-key";
import type { CacheEntryDto, CacheOutcomeName, CachePage } from "./cache-dto";

const LIMIT = 1000;

const rate = (hits: number, total: number) => (total > 0 ? hits / total : null);

/**
 * The team's cache entries, seen through its own servers' uses: a shared public entry appears
 * once per server of this team that read it, with that server's counters. `serverId` narrows to
 * one server (the server page).
 */
export async function listCacheEntries(ctx: ServiceContext, params: Record<string, string> = {}, now = new Date()): Promise<CachePage> {
  requirePermission(ctx, "team:read");
  const serverId = params.serverId;
  if (serverId !== undefined && !isUuid(serverId)) throw new AppError("INVALID_INPUT", "serverId must be a server id (uuid)", { fields: { serverId: "not a uuid" } });
  const uses = await ctx.db.serverCacheUse.findMany({
    where: { tenantId: ctx.tenantId, ...(serverId ? { serverId } : {}) },
    include: { entry: { omit: { listing: true } }, server: { select: { name: true } } },
    orderBy: [{ server: { name: "asc" } }, { lastAt: "desc" }],
    take: LIMIT,
  });
  const latestByServer = new Map<string, string>();
  for (const use of uses) if (!latestByServer.has(use.serverId)) latestByServer.set(use.serverId, use.id);
  const items: CacheEntryDto[] = uses.map((use) => {
    const e = use.entry;
    const fresh = e.invalidatedAt === null && e.expiresAt.getTime() > now.getTime();
    return {
      entryId: e.id,
      serverId: use.serverId,
      serverName: use.server.name,
      current: latestByServer.get(use.serverId) === use.id,
      shared: e.partition === PUBLIC_PARTITION,
      authContext: e.authContext === "anonymous" ? "anonymous" : "credentials",
      scope: e.scope,
      ttlMs: e.ttlMs,
      fetchedAt: e.fetchedAt.toISOString(),
      refreshReason: e.lastReason,
      expiresAt: e.expiresAt.toISOString(),
      fresh,
      timeLeftMs: fresh ? e.expiresAt.getTime() - now.getTime() : 0,
      ageMs: Math.max(0, now.getTime() - e.fetchedAt.getTime()),
      invalidatedAt: e.invalidatedAt?.toISOString() ?? null,
      invalidatedBy: e.invalidatedBy,
      toolCount: e.toolCount,
      hits: use.hits,
      misses: use.misses,
      refreshes: use.refreshes,
      hitRate: rate(use.hits, use.hits + use.misses + use.refreshes),
      lastOutcome: use.lastOutcome as CacheOutcomeName,
      lastReason: use.lastReason,
      lastAt: use.lastAt.toISOString(),
      snapshotId: use.snapshotId,
    };
  });
  const sum = (k: "hits" | "misses" | "refreshes") => items.reduce((n, i) => n + i[k], 0);
  const [hits, misses, refreshes] = [sum("hits"), sum("misses"), sum("refreshes")];
  return { items, totals: { hits, misses, refreshes, fetches: misses + refreshes, hitRate: rate(hits, hits + misses + refreshes) }, generatedAt: now.toISOString() };
}
