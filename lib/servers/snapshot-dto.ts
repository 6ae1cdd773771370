import type { Snapshot } from "@/lib/generated/prisma/client";
import type { StoredDiffSummary } from "@/lib/snapshots/summarize-change";
import type { SnapshotDto } from "./server-dto";

// Every column but the tool list and the owner ids (list routes omit the array on purpose).
type SnapshotRow = Omit<Snapshot, "tenantId" | "serverId" | "toolVersionIds" | "surfaceVersionIds" | "surfaceTracked"> & Partial<Pick<Snapshot, "surfaceVersionIds" | "surfaceTracked">>;

export function snapshotDto(s: SnapshotRow): SnapshotDto {
  const d = s.diffSummary as StoredDiffSummary | null;
  const pages = (s.diagnostics as { pages?: unknown } | null)?.pages;
  return {
    id: s.id,
    contentHash: s.contentHash,
    toolCount: s.toolCount,
    contextTokens: s.contextTokens,
    trigger: s.trigger,
    protocolVersion: s.protocolVersion,
    era: s.era,
    serverVersion: s.serverVersion,
    serverVersionChanged: s.serverVersionChanged,
    notified: s.notified,
    authContext: s.authContext,
    ttlMs: s.ttlMs,
    cacheScope: s.cacheScope,
    cacheEntryId: s.cacheEntryId,
    fromCache: s.fromCache,
    takenAt: s.takenAt.toISOString(),
    lastConfirmedAt: s.lastConfirmedAt.toISOString(),
    confirmCount: s.confirmCount,
    changes: d
      ? { added: d.added, removed: d.removed, changed: d.changed, renamed: d.renamed, orderOnly: d.orderOnly, highest: d.highest, levels: d.levels, ...(d.surface ? { surface: d.surface.items, surfaceCounts: d.surface.byKind } : {}) }
      : null,
    pages: typeof pages === "number" ? pages : null,
  };
}
