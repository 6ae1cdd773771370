import type { Db } from "@/lib/db";

export type PruneResult = { snapshots: number; toolVersions: number };

/**
 * Retention: deletes snapshots taken before `olderThan`, except each server's latest (the
 * current list is never lost), then the tool versions (and prompt, resource… versions) no remaining snapshot references. Runs
 * across tenants (a worker job); a snapshot's stored change summary does not depend on the one
 * before it, so the timeline stays readable after pruning. Versions a baseline or an unresolved
 * alert names are kept; finished webhook deliveries older than the cut-off go too.
 */
// internal-writer: the worker's retention upkeep
export async function pruneHistory(db: Db, olderThan: Date): Promise<PruneResult> {
  return db.$transaction(async (tx) => {
    await tx.$executeRaw`SELECT pg_advisory_xact_lock(hashtext('toolwatch:prune'))`;
    const snapshots = await tx.$executeRaw`
      DELETE FROM snapshot s
       WHERE s.taken_at < ${olderThan}
         AND s.id <> (SELECT l.id FROM snapshot l WHERE l.server_id = s.server_id ORDER BY l.taken_at DESC LIMIT 1)`;
    const toolVersions = await tx.$executeRaw`
      DELETE FROM tool_version tv
       WHERE NOT EXISTS (SELECT 1 FROM snapshot s WHERE s.tenant_id = tv.tenant_id AND s.tool_version_ids @> ARRAY[tv.id])
         AND NOT EXISTS (SELECT 1 FROM snapshot s WHERE s.tenant_id = tv.tenant_id AND s.surface_version_ids @> ARRAY[tv.id])
         -- a baseline (approved or blocked) and what an unresolved alert compares must stay readable
         AND NOT EXISTS (SELECT 1 FROM tool_baseline b WHERE b.tenant_id = tv.tenant_id AND tv.hash IN (b.approved_hash, b.blocked_hash))
         AND NOT EXISTS (SELECT 1 FROM alert a WHERE a.tenant_id = tv.tenant_id AND a.status <> 'resolved' AND tv.hash IN (a.candidate_hash, a.baseline_hash))`;
    await tx.$executeRaw`DELETE FROM webhook_delivery WHERE created_at < ${olderThan} AND status IN ('delivered', 'dead')`;
    return { snapshots, toolVersions };
  });
}
