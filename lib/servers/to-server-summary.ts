import type { McpServer, ServerSession, Snapshot } from "@/lib/generated/prisma/client";
import { decryptJson } from "@/lib/secrets";
import type { ServerSummary } from "./server-dto";
import { publicAuthOf } from "./server-auth";

/** The columns a summary reads (a full Prisma row fits, and so does the fleet list's SQL row). */
export type ServerRow = Pick<McpServer, "id" | "name" | "transport" | "command" | "args" | "url" | "tags" | "enabled" | "demoKey" | "envEncrypted" | "headersEncrypted" | "pollIntervalSeconds" | "auditPolicy" | "updatedAt"> & {
  session: Pick<ServerSession, "status" | "statusReason" | "era" | "protocolVersion" | "serverInfo" | "lastChangeAt" | "lastListedAt" | "connectedAt" | "lastError" | "lastErrorCode" | "lastErrorAt" | "transportUsed" | "warnings" | "updatedAt"> | null;
  _count: { snapshots: number };
  /** OAuth settings (mcp_server.auth_config) and the team's OAuth state for this server. */
  authConfig: unknown;
  oauthState: { status: string; statusReason: string | null } | null;
};

// Opening a sealed blob costs an AES-GCM decrypt; a fleet listing would pay it for every row on
// every request. A blob is immutable (a new IV on every write), so its key names can be
// remembered by the blob itself: bounded, and never holding a secret value.
const KEY_NAMES_CACHE_MAX = 10_000;
const keyNamesCache = new Map<string, string[]>();

/** Keys of a sealed object only; a secret that cannot be opened shows as unreadable, not as a 500. */
export function sealedKeys(key: Buffer, sealed: string | null): string[] {
  if (!sealed) return [];
  const cached = keyNamesCache.get(sealed);
  if (cached) return [...cached];
  let names: string[];
  try {
    names = Object.keys(decryptJson<Record<string, string>>(key, sealed)).sort();
  } catch {
    return ["(unreadable: wrong TOOLWATCH_SECRET_KEY?)"];
  }
  if (keyNamesCache.size >= KEY_NAMES_CACHE_MAX) keyNamesCache.delete(keyNamesCache.keys().next().value!);
  keyNamesCache.set(sealed, names);
  return [...names];
}

export function toServerSummary(key: Buffer, row: ServerRow, latest: Pick<Snapshot, "id" | "toolCount" | "contextTokens"> | null): ServerSummary {
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
    auth: authSummary(row),
    status: row.enabled ? (s?.status ?? "pending") : "stopped",
    statusReason: s?.statusReason ?? null,
    era: s?.era ?? null,
    protocolVersion: s?.protocolVersion ?? null,
    serverInfo: (s?.serverInfo as ServerSummary["serverInfo"]) ?? null,
    toolCount: latest?.toolCount ?? null,
    contextTokens: latest?.contextTokens ?? null,
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

/** The OAuth settings as shown: never a secret, only whether one is set, plus the authorization status. */
function authSummary(row: ServerRow): ServerSummary["auth"] {
  const config = publicAuthOf(row.authConfig);
  if (!config) return null;
  const status = (row.oauthState?.status ?? "unauthorized") as NonNullable<ServerSummary["auth"]>["status"];
  return { type: config.type, grant: config.grant, clientId: config.clientId, scope: config.scope, hasSecret: config.hasSecret, status, statusReason: row.oauthState?.statusReason ?? null };
}
