import type { Db } from "@/lib/db";
import { Prisma } from "@/lib/generated/prisma/client";
import { loadContextTokenCounter } from "./load-counter";
import { snapshotTotalSql, storeVersionCounts } from "./token-sums";

// Rows stored before context tokens were counted (NULL): the worker counts them at startup, in
// batches, across every team (system work, like retention). Idempotent: each update only fills
// a NULL, so two workers starting together do the same work twice at worst, never wrong work.

export type BackfillResult = { versions: number; snapshots: number };

export type BackfillOptions = {
  /** Rows read per round trip. */
  batchSize?: number;
  /** Between batches, so listings sharing the process and the database are not starved. */
  pauseMs?: number;
  /** Checked between batches: a stopping worker leaves the rest for the next start. */
  shouldStop?: () => boolean;
};

type VersionRow = { id: string; kind: string; definition: unknown };

/** Counts every uncounted tool version, then sums every snapshot whose items are now all counted. */
// internal-writer: the worker's startup backfill of derived counts; acts for no one and changes no team's data
export async function backfillContextTokens(db: Db, options: BackfillOptions = {}): Promise<BackfillResult> {
  const batchSize = options.batchSize ?? 500;
  const pause = () => new Promise((resolve) => setTimeout(resolve, options.pauseMs ?? 10));
  const stop = options.shouldStop ?? (() => false);
  const result: BackfillResult = { versions: 0, snapshots: 0 };

  // Keyset on the primary key: each batch starts where the last ended, so the whole pass reads
  // the table once however many rows are NULL.
  let after = "00000000-0000-0000-0000-000000000000";
  for (;;) {
    if (stop()) return result;
    const rows = await db.$queryRaw<VersionRow[]>`
      SELECT id::text, kind, definition FROM tool_version
       WHERE id > ${after}::uuid AND context_tokens IS NULL
       ORDER BY id LIMIT ${batchSize}`;
    if (rows.length === 0) break;
    const count = await loadContextTokenCounter();
    const ids = rows.map((r) => r.id);
    const tokens = rows.map((r) => count(r.kind, r.definition));
    result.versions += await storeVersionCounts(db, ids, tokens);
    after = rows.at(-1)!.id;
    await pause();
  }

  after = "00000000-0000-0000-0000-000000000000";
  for (;;) {
    if (stop()) return result;
    const [batch] = await db.$queryRaw<{ last: string | null; updated: number }[]>`
      WITH batch AS (
        SELECT s.id, s.tenant_id, s.tool_version_ids || COALESCE(s.surface_version_ids, '{}') AS items
          FROM snapshot s WHERE s.id > ${after}::uuid AND s.context_tokens IS NULL
         ORDER BY s.id LIMIT ${batchSize}
      ), sums AS (
        SELECT b.id, ${snapshotTotalSql(Prisma.sql`b.items`, Prisma.sql`b.tenant_id`)} AS total FROM batch b
      ), updated AS (
        UPDATE snapshot s SET context_tokens = LEAST(sums.total, 2147483647)::int
          FROM sums WHERE s.id = sums.id AND sums.total IS NOT NULL AND s.context_tokens IS NULL
        RETURNING s.id
      )
      SELECT (SELECT id::text FROM batch ORDER BY id DESC LIMIT 1) AS last, (SELECT count(*)::int FROM updated) AS updated`;
    if (!batch?.last) break;
    result.snapshots += batch.updated;
    after = batch.last;
    await pause();
  }
  return result;
}
