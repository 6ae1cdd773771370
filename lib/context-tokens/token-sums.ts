import type { Db } from "@/lib/db";
import { Prisma } from "@/lib/generated/prisma/client";

// What the startup backfill and the judgement lane's fill both write, in one place: a batch of
// version counts, and a snapshot's total as the write path sums it (tw_record_snapshot).

/** Stores counts for versions still NULL (a row counted meanwhile keeps its count); how many rows it filled. */
// internal-writer: derived counts of stored versions; acts for no one and changes no team's data
export function storeVersionCounts(db: Db, ids: readonly string[], tokens: readonly number[]): Promise<number> {
  return db.$executeRaw`
    UPDATE tool_version tv SET context_tokens = v.n
      FROM unnest(${ids}::uuid[], ${tokens}::int[]) AS v(id, n)
     WHERE tv.id = v.id AND tv.context_tokens IS NULL`;
}

/**
 * A snapshot's total over its item ids (`items`, uuid[]) in its team (`tenant`): NULL while any
 * item is uncounted; with repeats (a list naming one version twice costs it twice), like the write path.
 */
export const snapshotTotalSql = (items: Prisma.Sql, tenant: Prisma.Sql): Prisma.Sql => Prisma.sql`
  (SELECT CASE WHEN count(*) = count(tv.context_tokens) THEN COALESCE(sum(tv.context_tokens), 0) END
     FROM unnest(${items}) AS u(id) JOIN tool_version tv ON tv.id = u.id AND tv.tenant_id = ${tenant})`;
