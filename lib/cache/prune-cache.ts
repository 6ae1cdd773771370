import type { Db } from "@/lib/db";

/** Entries nobody has read or written for this long, and no server still uses, are dropped. */
export const UNUSED_ENTRY_MS = 7 * 86_400_000;

/**
 * Drops cache entries that no server uses any more (their servers were deleted or moved to other
 * credentials: uses go with the server) and that were not fetched for a week. Idempotent; any
 * worker may run it. An entry still in use is kept however old: it is that server's history.
 */
// internal-writer: the worker's cache upkeep
export async function pruneCacheEntries(db: Db, now = new Date()): Promise<number> {
  const { count } = await db.toolListCacheEntry.deleteMany({
    where: { fetchedAt: { lt: new Date(now.getTime() - UNUSED_ENTRY_MS) }, uses: { none: {} } },
  });
  return count;
}
