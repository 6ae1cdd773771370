// The team's tool-name index (tool_name_entry, tool_name_variant): kept equal to each server's
// latest snapshot by evaluateSnapshot, under the server lock, with set-based SQL. The cross-server
// rules look partners up here instead of loading every other server's tools, and the ⌘K search
// matches names and descriptions of current tools here (lib/search/search-team.ts).
import { foldName, nameSkeleton, siblingKey, skeletonVariants } from "@/lib/detection/name-keys";
import type { Tx } from "@/lib/db";
import type { CurrentTool } from "./evaluation-state";

export type IndexChange = { added: string[]; removed: string[] };

/**
 * Takes the per-name locks (tenant:name, sorted, transaction-scoped) that serialise every change to
 * one name's collision list: two servers adding the same name at once see each other's rows. The
 * server-delete trigger (migration 20261201151500) takes the same keys in the same order.
 */
export async function lockToolNames(tx: Tx, tenantId: string, names: readonly string[]): Promise<void> {
  if (names.length === 0) return;
  await tx.$queryRaw`
    SELECT count(pg_advisory_xact_lock(k))::int AS n
      FROM (SELECT DISTINCT hashtextextended(${tenantId} || ':' || n, 0) AS k FROM unnest(${[...names]}::text[]) AS n ORDER BY 1) AS locks`;
}

/** What the index holds for this server now, by name, before it is brought up to date. */
export async function indexedNames(tx: Tx, tenantId: string, serverId: string): Promise<Map<string, string>> {
  const rows = await tx.toolNameEntry.findMany({ where: { tenantId, serverId }, select: { name: true, hash: true, versionId: true, folded: true, skeleton: true, siblingKey: true } });
  return new Map(rows.map((r) => [r.name, rowKey(r)]));
}

const rowKey = (r: { hash: string; versionId: string; folded: string; skeleton: string; siblingKey: string }) => JSON.stringify([r.hash, r.versionId, r.folded, r.skeleton, r.siblingKey]);

/**
 * Locks the names that join or leave (lockToolNames), then replaces the server's rows with
 * `current` (one statement: delete what left, insert what came, update what changed) and records
 * the skeletons' deletion variants once per team. An unchanged re-list writes nothing; rows whose
 * keys differ from what name-keys.ts computes now (the migration's SQL backfill, a changed key
 * function) are rewritten.
 * Returns the names that joined or left, whose collision lists need a look.
 */
// internal-writer: a derived index kept in step with snapshots by the worker
export async function syncToolNameIndex(tx: Tx, tenantId: string, serverId: string, current: readonly CurrentTool[], before: ReadonlyMap<string, string>): Promise<IndexChange> {
  const now = new Set(current.map((t) => t.name));
  const added = [...now].filter((n) => !before.has(n));
  const removed = [...before.keys()].filter((n) => !now.has(n));
  const rows = current.map((t) => {
    const skeleton = nameSkeleton(t.name);
    return { name: t.name, folded: foldName(t.name), skeleton, sibling_key: siblingKey(t.name), hash: t.hash, version_id: t.versionId, variants: skeletonVariants(skeleton) };
  });
  const same = (r: (typeof rows)[number]) => before.get(r.name) === rowKey({ hash: r.hash, versionId: r.version_id, folded: r.folded, skeleton: r.skeleton, siblingKey: r.sibling_key });
  if (added.length === 0 && removed.length === 0 && rows.every(same)) return { added, removed };
  await lockToolNames(tx, tenantId, [...added, ...removed]);
  await tx.$executeRaw`
    WITH input AS (
      SELECT * FROM jsonb_to_recordset(${JSON.stringify(rows)}::jsonb)
        AS x(name text, folded text, skeleton text, sibling_key text, hash text, version_id uuid)
    ), gone AS (
      DELETE FROM tool_name_entry e
       WHERE e.tenant_id = ${tenantId}::uuid AND e.server_id = ${serverId}::uuid
         AND NOT EXISTS (SELECT 1 FROM input i WHERE i.name = e.name)
    )
    INSERT INTO tool_name_entry (tenant_id, server_id, name, folded, skeleton, sibling_key, hash, version_id, description)
    SELECT ${tenantId}::uuid, ${serverId}::uuid, i.name, i.folded, i.skeleton, i.sibling_key, i.hash, i.version_id, v.definition ->> 'description'
      FROM input i
      -- the search text (content-addressed with the hash, so an unchanged row keeps it)
      LEFT JOIN tool_version v ON v.id = i.version_id AND v.tenant_id = ${tenantId}::uuid
    ON CONFLICT (server_id, name) DO UPDATE
       SET folded = EXCLUDED.folded, skeleton = EXCLUDED.skeleton, sibling_key = EXCLUDED.sibling_key, hash = EXCLUDED.hash, version_id = EXCLUDED.version_id, description = EXCLUDED.description
     WHERE (tool_name_entry.folded, tool_name_entry.skeleton, tool_name_entry.sibling_key, tool_name_entry.hash, tool_name_entry.version_id)
           IS DISTINCT FROM (EXCLUDED.folded, EXCLUDED.skeleton, EXCLUDED.sibling_key, EXCLUDED.hash, EXCLUDED.version_id)`;
  const fresh = rows.filter((r) => !same(r) && r.variants.length > 0);
  if (fresh.length > 0) {
    // Parallel arrays, not a jsonb record set (~500 rows a new server: parsing jsonb cost ~2 ms).
    const variantRows = fresh.flatMap((r) => r.variants.map((v) => [v, r.skeleton, r.sibling_key] as const));
    await tx.$executeRaw`
      INSERT INTO tool_name_variant (tenant_id, variant, skeleton, sibling_key)
      SELECT DISTINCT ${tenantId}::uuid, x.variant, x.skeleton, x.sibling_key
        FROM unnest(${variantRows.map((r) => r[0])}::text[], ${variantRows.map((r) => r[1])}::text[], ${variantRows.map((r) => r[2])}::text[]) AS x(variant, skeleton, sibling_key)
       ORDER BY 2, 3, 4
      ON CONFLICT DO NOTHING`;
  }
  return { added, removed };
}
