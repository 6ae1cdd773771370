import { defaultKeyHasher } from "@better-auth/api-key";
import type { Db } from "../db";

// Verifying a team API key on every API request. The plugin's verifyApiKey writes the key's row
// on each call (usage and rate-limit bookkeeping we do not use), so concurrent requests with one
// key queue on that row's lock and a commit each: 50 clients on one key measured ~20 req/s. Here
// the check is one indexed read (hash → row: enabled, expiry), and the last-used time is written
// at most once per LAST_USED_RESOLUTION_S; an UPDATE whose WHERE matches nothing takes no lock.
const LAST_USED_RESOLUTION_S = 30;

export type VerifiedKey = { id: string; name: string | null; start: string | null; metadata: string | null; referenceId: string };
type KeyRow = VerifiedKey & { enabled: boolean | null; expiresAt: Date | null };
export type KeyRejection = "INVALID_API_KEY" | "KEY_DISABLED" | "KEY_EXPIRED";

export async function verifyApiKey(db: Db, secret: string, now = new Date()): Promise<{ key: VerifiedKey } | { error: KeyRejection }> {
  const hashed = await defaultKeyHasher(secret);
  // One round trip: the read, and the last-used touch when it is stale (a no-op UPDATE otherwise).
  const [row] = await db.$queryRaw<KeyRow[]>`
    WITH k AS (
      SELECT id, name, start, metadata, reference_id, enabled, expires_at FROM api_key WHERE key = ${hashed} LIMIT 1
    ), touched AS (
      UPDATE api_key SET last_request = now()
       WHERE id = (SELECT id FROM k) AND (SELECT enabled FROM k) IS NOT FALSE
         AND (last_request IS NULL OR last_request < now() - make_interval(secs => ${LAST_USED_RESOLUTION_S}))
    )
    SELECT id::text AS id, name, start, metadata, reference_id AS "referenceId", enabled, expires_at AS "expiresAt" FROM k`;
  if (!row) return { error: "INVALID_API_KEY" };
  if (row.enabled === false) return { error: "KEY_DISABLED" };
  if (row.expiresAt && row.expiresAt.getTime() < now.getTime()) return { error: "KEY_EXPIRED" };
  return { key: { id: row.id, name: row.name, start: row.start, metadata: row.metadata, referenceId: row.referenceId } };
}
