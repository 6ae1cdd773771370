import type { Db } from "@/lib/db";
import { loadAddressCounter } from "./load-counter";

// The worker stores a listing without counting its new versions' context tokens (recordSnapshot
// with tokens "later": counting was 13-17 % of its CPU in a 2,000-server sweep) and counts them
// here, in the judgement lane, right after the snapshot is stored and before the team's budget is
// checked. Idempotent: every update fills only a NULL, so a second worker or the startup backfill
// doing the same work never writes a different number.

export type FillResult = { versions: number; snapshots: number };

type VersionRow = { id: string; kind: string; hash: string; definition: unknown };

/** Counts the versions the server's uncounted snapshots name, then sums those snapshots. */
// internal-writer: derived counts of rows the worker's listing wrote; acts for no one and changes no team's data
export async function fillContextTokens(db: Db, tenantId: string, serverId: string): Promise<FillResult> {
  // snapshot_uncounted_idx holds only snapshots still NULL, so a server with none costs one probe.
  const rows = await db.$queryRaw<VersionRow[]>`
    SELECT tv.id::text, tv.kind, tv.hash, tv.definition FROM tool_version tv
     WHERE tv.tenant_id = ${tenantId}::uuid AND tv.context_tokens IS NULL
       AND tv.id IN (SELECT unnest(s.tool_version_ids || COALESCE(s.surface_version_ids, '{}')) FROM snapshot s
                      WHERE s.tenant_id = ${tenantId}::uuid AND s.server_id = ${serverId}::uuid AND s.context_tokens IS NULL)`;
  let versions = 0;
  if (rows.length > 0) {
    // By content address: a version another server of the fleet listed is counted from memory.
    const count = await loadAddressCounter();
    const tokens = rows.map((r) => count(r.kind, r.hash, r.definition));
    versions = await db.$executeRaw`
      UPDATE tool_version tv SET context_tokens = v.n
        FROM unnest(${rows.map((r) => r.id)}::uuid[], ${tokens}::int[]) AS v(id, n)
       WHERE tv.id = v.id AND tv.context_tokens IS NULL`;
  }
  // With repeats (a list naming one version twice costs it twice), as the write path sums.
  const snapshots = await db.$executeRaw`
    UPDATE snapshot s SET context_tokens = LEAST(sums.total, 2147483647)::int
      FROM (SELECT s2.id, (SELECT CASE WHEN count(*) = count(tv.context_tokens) THEN COALESCE(sum(tv.context_tokens), 0) END
                             FROM unnest(s2.tool_version_ids || COALESCE(s2.surface_version_ids, '{}')) AS u(id)
                             JOIN tool_version tv ON tv.id = u.id AND tv.tenant_id = s2.tenant_id) AS total
              FROM snapshot s2
             WHERE s2.tenant_id = ${tenantId}::uuid AND s2.server_id = ${serverId}::uuid AND s2.context_tokens IS NULL) AS sums
     WHERE s.id = sums.id AND sums.total IS NOT NULL AND s.context_tokens IS NULL`;
  return { versions, snapshots };
}
