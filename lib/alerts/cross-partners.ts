// The candidate partners of the cross-server rules (R19–R21) for one evaluation, found through the
// team's tool-name index: a query per own name and per identifier its texts mention, each bounded
// by a LIMIT, so the cost follows the new server's tools, not the size of the fleet. The pure
// rules (lib/detection rules-cross.ts) then judge these partners as they would judge the whole team.
import type { OtherServer, ToolLike } from "@/lib/detection";
import { nameSkeleton, referenceCandidates, siblingKey, skeletonVariants } from "@/lib/detection/name-keys";
import type { Tx } from "@/lib/db";

export type OtherServerTools = OtherServer & { serverId: string };
export type OwnTool = { definition: ToolLike; hash: string };

/** Different definitions of the same name looked at (per side of the own hash): enough to find the closest. */
const SAME_NAME_LIMIT = 4;
/** Servers reported for a name a description mentions (R19's message lists them). */
const REFERENCE_LIMIT = 3;

export async function loadCrossPartners(tx: Tx, tenantId: string, serverId: string, tools: readonly OwnTool[]): Promise<OtherServerTools[]> {
  if (tools.length === 0) return [];
  const own = [...new Map(tools.map((t) => [`${String(t.definition.name)}\u0000${t.hash}`, t])).values()].map((t) => {
    const name = String(t.definition.name);
    const skeleton = nameSkeleton(name);
    return { name, hash: t.hash, skeleton, sibling_key: siblingKey(name) };
  });
  // One row per (own variant, its skeleton, its sibling key), as parallel arrays: a jsonb record set
  // of ~500 variants cost Postgres ~3 ms to parse alone.
  const variantRows = own.flatMap((o) => skeletonVariants(o.skeleton).map((variant) => [variant, o.skeleton, o.sibling_key] as const));
  const variants = variantRows.map((r) => r[0]);
  const identifiers = referenceCandidates(tools.map((t) => t.definition));
  const rows = await tx.$queryRaw<{ server_id: string; server_name: string; definition: ToolLike }[]>`
    WITH own AS (
      SELECT * FROM jsonb_to_recordset(${JSON.stringify(own)}::jsonb) AS o(name text, hash text, skeleton text, sibling_key text)
    ), hits AS (
      -- R21: the same name with another definition (an identical one is the same software)
      SELECT p.server_id, p.version_id FROM own o CROSS JOIN LATERAL (
        (SELECT e.server_id, e.version_id FROM tool_name_entry e
          WHERE e.tenant_id = ${tenantId}::uuid AND e.name = o.name AND e.hash < o.hash AND e.server_id <> ${serverId}::uuid
          ORDER BY e.hash DESC LIMIT ${SAME_NAME_LIMIT})
        UNION ALL
        (SELECT e.server_id, e.version_id FROM tool_name_entry e
          WHERE e.tenant_id = ${tenantId}::uuid AND e.name = o.name AND e.hash > o.hash AND e.server_id <> ${serverId}::uuid
          ORDER BY e.hash LIMIT ${SAME_NAME_LIMIT})
      ) AS p
      UNION ALL
      -- R21: a look-alike (same skeleton, another name)
      SELECT p.server_id, p.version_id FROM own o CROSS JOIN LATERAL (
        (SELECT e.server_id, e.version_id FROM tool_name_entry e
          WHERE e.tenant_id = ${tenantId}::uuid AND e.skeleton = o.skeleton AND e.name < o.name AND e.server_id <> ${serverId}::uuid
          ORDER BY e.name DESC LIMIT 1)
        UNION ALL
        (SELECT e.server_id, e.version_id FROM tool_name_entry e
          WHERE e.tenant_id = ${tenantId}::uuid AND e.skeleton = o.skeleton AND e.name > o.name AND e.server_id <> ${serverId}::uuid
          ORDER BY e.name LIMIT 1)
      ) AS p
      UNION ALL
      -- R21: one edit away (a shared one-deletion variant), numbered and versioned siblings left out.
      -- The team's variants are read by one index scan over the sorted own variants (= ANY: the
      -- btree walks them in order, 6 descents for ~500 keys) instead of a probe per variant
      -- (~25 µs each), then matched to the own rows by hash.
      SELECT p.server_id, p.version_id FROM (
        SELECT DISTINCT t.skeleton
          FROM tool_name_variant t
          JOIN unnest(${variants}::text[], ${variantRows.map((r) => r[1])}::text[], ${variantRows.map((r) => r[2])}::text[]) AS ov(variant, skeleton, sibling_key)
            ON ov.variant = t.variant
         WHERE t.tenant_id = ${tenantId}::uuid AND t.variant = ANY(${[...new Set(variants)].sort()}::text[])
           AND t.skeleton <> ov.skeleton AND t.sibling_key <> ov.sibling_key
      ) AS c CROSS JOIN LATERAL (
        SELECT e.server_id, e.version_id FROM tool_name_entry e
         WHERE e.tenant_id = ${tenantId}::uuid AND e.skeleton = c.skeleton AND e.server_id <> ${serverId}::uuid
         LIMIT 1
      ) AS p
      UNION ALL
      -- R19/R20: tools the descriptions name
      SELECT p.server_id, p.version_id FROM unnest(${identifiers}::text[]) AS f(folded) CROSS JOIN LATERAL (
        SELECT e.server_id, e.version_id FROM tool_name_entry e
         WHERE e.tenant_id = ${tenantId}::uuid AND e.folded = f.folded AND e.server_id <> ${serverId}::uuid
         LIMIT ${REFERENCE_LIMIT}
      ) AS p
    )
    SELECT h.server_id::text AS server_id, m.name AS server_name, tv.definition
      FROM (SELECT DISTINCT server_id, version_id FROM hits) AS h
      CROSS JOIN LATERAL (SELECT s.name FROM mcp_server s WHERE s.id = h.server_id AND s.tenant_id = ${tenantId}::uuid) AS m
      CROSS JOIN LATERAL (SELECT v.name, v.definition FROM tool_version v WHERE v.id = h.version_id AND v.tenant_id = ${tenantId}::uuid) AS tv
     ORDER BY m.name, tv.name`;
  const byServer = new Map<string, OtherServerTools>();
  for (const r of rows) {
    const entry = byServer.get(r.server_id) ?? { serverId: r.server_id, serverName: r.server_name, tools: [] };
    (entry.tools as ToolLike[]).push(r.definition);
    byServer.set(r.server_id, entry);
  }
  return [...byServer.values()];
}
