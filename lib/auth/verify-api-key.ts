import type { Db } from "@/lib/db";
import { Prisma } from "@/lib/generated/prisma/client";
import { rootLogger } from "@/lib/logger";
import { hashApiKey } from "./hash-api-key";
import { apiKeyGeneration, cachedApiKey, rememberApiKey, type KeyRow } from "./api-key-cache";

// Verifying a team API key on every API request. The plugin's verifyApiKey writes the key's row
// on each call (usage and rate-limit bookkeeping we do not use), so concurrent requests with one
// key queue on that row's lock and a commit each: 50 clients on one key measured ~20 req/s. Here
// the check is one indexed read (hash → row: enabled, expiry), or none when the web process
// remembers the key (./api-key-cache.ts: forgotten the moment the row changes anywhere). The
// last-used time is written at most once per LAST_USED_RESOLUTION_S; an UPDATE whose WHERE
// matches nothing takes no lock.
const LAST_USED_RESOLUTION_S = 30;
/** The last-used time is due for a write (both the read's CTE and a cached hit's touch use it). */
const LAST_USED_IS_STALE = Prisma.sql`(last_request IS NULL OR last_request < now() - make_interval(secs => ${LAST_USED_RESOLUTION_S}))`;

export type VerifiedKey = { id: string; name: string | null; start: string | null; metadata: string | null; referenceId: string };
export type KeyRejection = "INVALID_API_KEY" | "KEY_DISABLED" | "KEY_EXPIRED";
type Verdict = { key: VerifiedKey } | { error: KeyRejection };

export async function verifyApiKey(db: Db, secret: string, now = new Date()): Promise<Verdict> {
  const hashed = hashApiKey(secret);
  const cached = await cachedApiKey(hashed, now.getTime());
  if (cached) {
    if (now.getTime() - cached.touchedAt >= LAST_USED_RESOLUTION_S * 1000) {
      cached.touchedAt = now.getTime();
      touchLastUsed(db, cached.row.id);
    }
    return verdictOf(cached.row, now);
  }
  const generation = apiKeyGeneration();
  // One round trip: the read, and the last-used touch when it is stale (a no-op UPDATE otherwise).
  const [row] = await db.$queryRaw<KeyRow[]>`
    WITH k AS (
      SELECT id, name, start, metadata, reference_id, enabled, expires_at FROM api_key WHERE key = ${hashed} LIMIT 1
    ), touched AS (
      UPDATE api_key SET last_request = now()
       WHERE id = (SELECT id FROM k) AND (SELECT enabled FROM k) IS NOT FALSE
         AND ${LAST_USED_IS_STALE}
    )
    SELECT id::text AS id, name, start, metadata, reference_id AS "referenceId", enabled, expires_at AS "expiresAt" FROM k`;
  if (!row) return { error: "INVALID_API_KEY" };
  const verdict = verdictOf(row, now);
  if ("key" in verdict) rememberApiKey(hashed, row, generation, now.getTime());
  return verdict;
}

function verdictOf(row: KeyRow, now: Date): Verdict {
  if (row.enabled === false) return { error: "KEY_DISABLED" };
  if (row.expiresAt && row.expiresAt.getTime() < now.getTime()) return { error: "KEY_EXPIRED" };
  return { key: { id: row.id, name: row.name, start: row.start, metadata: row.metadata, referenceId: row.referenceId } };
}

/** The last-used time of a key served from memory, off the request's path. */
function touchLastUsed(db: Db, id: string): void {
  void db.$executeRaw`
    UPDATE api_key SET last_request = now()
     WHERE id = ${id}::uuid AND enabled IS NOT FALSE
       AND ${LAST_USED_IS_STALE}`.catch((error: unknown) => {
    rootLogger().warn(`API keys: recording last use failed: ${error instanceof Error ? error.message : String(error)}`);
  });
}
