import type { StoredDiffSummary } from "../snapshots/summarize-change";
import type { SnapshotDto } from "./server-dto";

type SnapshotRow = {
  id: string;
  contentHash: string;
  toolCount: number;
  trigger: string;
  protocolVersion: string | null;
  era: string | null;
  serverVersion: string | null;
  serverVersionChanged: boolean;
  notified: boolean;
  authContext: string | null;
  ttlMs: number | null;
  cacheScope: string | null;
  takenAt: Date;
  lastConfirmedAt: Date;
  confirmCount: number;
  diagnostics: unknown;
  diffSummary: unknown;
};

export function snapshotDto(s: SnapshotRow): SnapshotDto {
  const d = s.diffSummary as StoredDiffSummary | null;
  const pages = (s.diagnostics as { pages?: unknown } | null)?.pages;
  return {
    id: s.id,
    contentHash: s.contentHash,
    toolCount: s.toolCount,
    trigger: s.trigger,
    protocolVersion: s.protocolVersion,
    era: s.era,
    serverVersion: s.serverVersion,
    serverVersionChanged: s.serverVersionChanged,
    notified: s.notified,
    authContext: s.authContext,
    ttlMs: s.ttlMs,
    cacheScope: s.cacheScope,
    takenAt: s.takenAt.toISOString(),
    lastConfirmedAt: s.lastConfirmedAt.toISOString(),
    confirmCount: s.confirmCount,
    changes: d
      ? { added: d.added, removed: d.removed, changed: d.changed, renamed: d.renamed, orderOnly: d.orderOnly, highest: d.highest, levels: d.levels }
      : null,
    pages: typeof pages === "number" ? pages : null,
  };
}
