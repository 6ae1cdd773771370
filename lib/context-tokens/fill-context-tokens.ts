import type { Db } from "@/lib/db";
import { Prisma } from "@/lib/generated/prisma/client";
import { loadAddressCounter } from "./load-counter";
import { snapshotTotalSql, storeVersionCounts } from "./token-sums";

// The worker stores a listing without counting its new versions' context tokens (recordSnapshot
// with tokens "later": counting was 13-17 % of its CPU in a 2,000-server sweep) and counts them
// here, in the judgement lane, right after the snapshot is stored and before the team's budget is
// checked. Idempotent: every update fills only a NULL, so a second worker or the startup backfill
// doing the same work never writes a different number.

export type FillResult = { versions: number; snapshots: number };

type VersionRow = { id: string | null; kind: string; hash: string; definition: unknown };

/** Counts the versions the server's uncounted snapshots name, then sums those snapshots. */
// internal-writer: derived counts of rows the worker's listing wrote; acts for no one and changes no team's data
export async function fillContextTokens(db: Db, tenantId: string, serverId: string): Promise<FillResult> {
  // snapshot_uncounted_idx holds only snapshots still NULL, so a server with none costs one probe
  // and this one statement (the row of NULLs says that some snapshot is uncounted).
  const rows = await db.$queryRaw<VersionRow[]>`
    WITH uncounted AS (
      SELECT s.tool_version_ids || COALESCE(s.surface_version_ids, '{}') AS items FROM snapshot s
       WHERE s.tenant_id = ${tenantId}::uuid AND s.server_id = ${serverId}::uuid AND s.context_tokens IS NULL)
    SELECT tv.id::text, tv.kind, tv.hash, tv.definition FROM tool_version tv
     WHERE tv.tenant_id = ${tenantId}::uuid AND tv.context_tokens IS NULL AND tv.id IN (SELECT unnest(items) FROM uncounted)
    UNION ALL SELECT NULL, NULL, NULL, NULL WHERE EXISTS (SELECT 1 FROM uncounted)`;
  if (rows.length === 0) return { versions: 0, snapshots: 0 };
  const uncounted = rows.filter((r): r is VersionRow & { id: string } => r.id !== null);
  let versions = 0;
  if (uncounted.length > 0) {
    // By content address: a version another server of the fleet listed is counted from memory.
    const count = await loadAddressCounter();
    versions = await storeVersionCounts(db, uncounted.map((r) => r.id), uncounted.map((r) => count(r.kind, r.hash, r.definition)));
  }
  const snapshots = await db.$executeRaw`
    UPDATE snapshot s SET context_tokens = LEAST(sums.total, 2147483647)::int
      FROM (SELECT s2.id, ${snapshotTotalSql(Prisma.sql`s2.tool_version_ids || COALESCE(s2.surface_version_ids, '{}')`, Prisma.sql`s2.tenant_id`)} AS total
              FROM snapshot s2
             WHERE s2.tenant_id = ${tenantId}::uuid AND s2.server_id = ${serverId}::uuid AND s2.context_tokens IS NULL) AS sums
     WHERE s.id = sums.id AND sums.total IS NOT NULL AND s.context_tokens IS NULL`;
  return { versions, snapshots };
}
