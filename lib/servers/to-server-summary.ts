import type { McpServer, ServerSession, Snapshot } from "../generated/prisma/client";
import { decryptJson } from "../secrets";
import type { ServerSummary } from "./server-dto";

export type ServerRow = McpServer & {
  session: ServerSession | null;
  _count: { snapshots: number };
};

/** Keys of a sealed object only; a secret that cannot be opened shows as unreadable, not as a 500. */
export function sealedKeys(key: Buffer, sealed: string | null): string[] {
  if (!sealed) return [];
  try {
    return Object.keys(decryptJson<Record<string, string>>(key, sealed)).sort();
  } catch {
    return ["(unreadable: wrong TOOLWATCH_SECRET_KEY?)"];
  }
}

export function toServerSummary(key: Buffer, row: ServerRow, latest: Pick<Snapshot, "id" | "toolCount"> | null): ServerSummary {
  const s = row.session;
  return {
    id: row.id,
    name: row.name,
    transport: row.transport,
    target: row.transport === "stdio" ? [row.command ?? "", ...row.args].join(" ") : (row.url ?? ""),
    tags: row.tags,
    enabled: row.enabled,
    demo: row.demoKey !== null,
    envKeys: sealedKeys(key, row.envEncrypted),
    headerKeys: sealedKeys(key, row.headersEncrypted),
    pollIntervalSeconds: row.pollIntervalSeconds,
    auditPolicy: row.auditPolicy,
    status: row.enabled ? (s?.status ?? "pending") : "stopped",
    statusReason: s?.statusReason ?? null,
    era: s?.era ?? null,
    protocolVersion: s?.protocolVersion ?? null,
    serverInfo: (s?.serverInfo as ServerSummary["serverInfo"]) ?? null,
    toolCount: latest?.toolCount ?? null,
    latestSnapshotId: latest?.id ?? null,
    snapshotCount: row._count.snapshots,
    lastChangeAt: s?.lastChangeAt?.toISOString() ?? null,
    lastListedAt: s?.lastListedAt?.toISOString() ?? null,
    connectedAt: s?.connectedAt?.toISOString() ?? null,
    lastError: s?.lastError
      ? { code: s.lastErrorCode, message: s.lastError, at: s.lastErrorAt?.toISOString() ?? null }
      : null,
    transportUsed: s?.transportUsed ?? null,
    warnings: Array.isArray(s?.warnings) ? (s.warnings as unknown[]).filter((w): w is string => typeof w === "string") : [],
    updatedAt: (s?.updatedAt ?? row.updatedAt).toISOString(),
  };
}
