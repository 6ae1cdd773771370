// Loads what an evaluation needs, inside its transaction, always scoped to the tenant.
import type { ToolLike } from "@/lib/detection";
import { asScannerTool } from "@/lib/surface/as-scanner-tool";
import { itemKey, SURFACE_KINDS, type SurfaceKind } from "@/lib/surface/surface-keys";
import type { Tx } from "@/lib/db";
import { versionHeadsById, versionsByHash } from "@/lib/snapshots/tool-versions-by-id";
import { Prisma, type Alert, type ToolBaseline } from "@/lib/generated/prisma/client";

/** A tool, or a surface item under its key ("prompt summarize"): judged alike, against a baseline of that name. */
export type CurrentTool = { name: string; hash: string; versionId: string };

export type SnapshotHead = {
  id: string;
  toolVersionIds: string[];
  toolCount: number;
  surfaceVersionIds: string[];
  surfaceTracked: boolean;
  notified: boolean;
  serverVersionChanged: boolean;
  takenAt: Date;
};

/** The server's latest snapshot and the tool counts of the few before it (oldest first, for R32). */
export async function loadSnapshots(tx: Tx, tenantId: string, serverId: string): Promise<{ latest: SnapshotHead | null; previous: SnapshotHead | null; previousCounts: number[] }> {
  const rows = await tx.snapshot.findMany({
    where: { tenantId, serverId },
    orderBy: { takenAt: "desc" },
    take: 6,
    select: { id: true, toolVersionIds: true, toolCount: true, surfaceVersionIds: true, surfaceTracked: true, notified: true, serverVersionChanged: true, takenAt: true },
  });
  return { latest: rows[0] ?? null, previous: rows[1] ?? null, previousCounts: rows.slice(1).map((r) => r.toolCount).reverse() };
}

/** The tools of a snapshot, first occurrence of each name, in server order (hashes only, no definitions). */
export async function loadCurrentTools(tx: Tx, tenantId: string, toolVersionIds: readonly string[]): Promise<CurrentTool[]> {
  if (toolVersionIds.length === 0) return [];
  const rows = await versionHeadsById(tx, tenantId, toolVersionIds);
  const byId = new Map(rows.map((r) => [r.id, r]));
  const seen = new Set<string>();
  const out: CurrentTool[] = [];
  for (const id of toolVersionIds) {
    const row = byId.get(id);
    if (!row || seen.has(row.name)) continue;
    seen.add(row.name);
    out.push({ name: row.name, hash: row.hash, versionId: row.id });
  }
  return out;
}

/** The prompts, resources, templates and instructions of a snapshot, under their keys, in server order. */
export async function loadCurrentSurface(tx: Tx, tenantId: string, surfaceVersionIds: readonly string[]): Promise<CurrentTool[]> {
  if (surfaceVersionIds.length === 0) return [];
  const rows = await versionHeadsById(tx, tenantId, surfaceVersionIds);
  const byId = new Map(rows.map((r) => [r.id, r]));
  const seen = new Set<string>();
  const out: CurrentTool[] = [];
  for (const id of surfaceVersionIds) {
    const row = byId.get(id);
    if (!row || !isSurfaceKind(row.kind)) continue;
    const key = itemKey(row.kind, row.name);
    if (seen.has(key)) continue;
    seen.add(key);
    out.push({ name: key, hash: row.hash, versionId: row.id });
  }
  return out;
}

const isSurfaceKind = (kind: string): kind is SurfaceKind => (SURFACE_KINDS as readonly string[]).includes(kind);

/**
 * Definitions by hash (tenant-scoped: content addressing never crosses teams), tool-shaped: a
 * surface item comes back through asScannerTool, so the scanner and judge read it like a tool.
 */
export async function loadDefinitions(tx: Tx, tenantId: string, hashes: Iterable<string>): Promise<Map<string, ToolLike>> {
  const rows = await versionsByHash(tx, tenantId, [...hashes]);
  return new Map(rows.map((r) => [r.hash, isSurfaceKind(r.kind) ? asScannerTool(r.kind, r.definition as Record<string, unknown>) : (r.definition as ToolLike)]));
}

/** tool_baseline's columns under ToolBaseline's field names, for raw statements that return whole rows. */
export const BASELINE_COLUMNS = Prisma.sql`id::text AS id, tenant_id::text AS "tenantId", server_id::text AS "serverId", tool_name AS "toolName",
  approved_hash AS "approvedHash", source, approved_by AS "approvedBy", approved_at AS "approvedAt", blocked_hash AS "blockedHash", updated_at AS "updatedAt"`;

export async function loadBaselines(tx: Tx, tenantId: string, serverId: string): Promise<Map<string, ToolBaseline>> {
  const rows = await tx.$queryRaw<ToolBaseline[]>`SELECT ${BASELINE_COLUMNS} FROM tool_baseline WHERE tenant_id = ${tenantId}::uuid AND server_id = ${serverId}::uuid`;
  return new Map(rows.map((r) => [r.toolName, r]));
}

export async function loadUnresolvedAlerts(tx: Tx, tenantId: string, serverId: string): Promise<Alert[]> {
  return tx.alert.findMany({ where: { tenantId, serverId, status: { not: "resolved" } }, orderBy: { createdAt: "asc" } });
}
