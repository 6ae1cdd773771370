import type { OAuthDiscoveryState, StoredOAuthClientInformation, StoredOAuthTokens } from "@modelcontextprotocol/client";
import type { Db, Tx } from "@/lib/db";
import { Prisma } from "@/lib/generated/prisma/client";
import { decryptJson, encryptJson } from "@/lib/secrets";

// The OAuth state of one server of one team (server_oauth_state): every read and write names both
// the tenant and the server, so a team's tokens are never read for another team. Secrets are
// sealed with lib/secrets.ts; only the provider (stored-provider.ts) and the authorization verbs
// open them.

export type OAuthTarget = { tenantId: string; serverId: string };
export type OAuthStatus = "unauthorized" | "authorized" | "auth_required";

export type OpenedOAuthState = {
  status: OAuthStatus;
  statusReason: string | null;
  client: StoredOAuthClientInformation | undefined;
  tokens: StoredOAuthTokens | undefined;
  discovery: OAuthDiscoveryState | undefined;
  redirectUri: string | null;
};

const EMPTY: OpenedOAuthState = { status: "unauthorized", statusReason: null, client: undefined, tokens: undefined, discovery: undefined, redirectUri: null };

export async function loadOAuthState(db: Db | Tx, key: Buffer, target: OAuthTarget): Promise<OpenedOAuthState> {
  const row = await db.serverOAuthState.findFirst({ where: { serverId: target.serverId, tenantId: target.tenantId } });
  if (!row) return EMPTY;
  return {
    status: row.status as OAuthStatus,
    statusReason: row.statusReason,
    client: row.clientEncrypted ? decryptJson<StoredOAuthClientInformation>(key, row.clientEncrypted) : undefined,
    tokens: row.tokensEncrypted ? decryptJson<StoredOAuthTokens>(key, row.tokensEncrypted) : undefined,
    discovery: (row.discovery as OAuthDiscoveryState | null) ?? undefined,
    redirectUri: row.redirectUri,
  };
}

export type OAuthStatePatch = {
  status?: OAuthStatus;
  statusReason?: string | null;
  /** undefined leaves it; null clears it. */
  client?: StoredOAuthClientInformation | null;
  tokens?: StoredOAuthTokens | null;
  discovery?: OAuthDiscoveryState | null;
  redirectUri?: string;
  authorizedBy?: string;
};

/** Upserts the row; the server must belong to the tenant (checked in the same statement's where). */
// internal-writer: OAuth client plumbing (the worker's token refreshes, the authorization flow, which authorizes and audits itself)
export async function saveOAuthState(db: Db | Tx, key: Buffer, target: OAuthTarget, patch: OAuthStatePatch): Promise<void> {
  const data = {
    ...(patch.status ? { status: patch.status } : {}),
    ...(patch.statusReason !== undefined ? { statusReason: patch.statusReason } : {}),
    ...(patch.client !== undefined ? { clientEncrypted: patch.client ? encryptJson(key, patch.client) : null } : {}),
    ...(patch.tokens !== undefined
      ? {
          tokensEncrypted: patch.tokens ? encryptJson(key, patch.tokens) : null,
          accessExpiresAt: patch.tokens?.expires_in ? new Date(Date.now() + patch.tokens.expires_in * 1000) : null,
        }
      : {}),
    ...(patch.discovery !== undefined ? { discovery: patch.discovery ? (patch.discovery as unknown as Prisma.InputJsonValue) : Prisma.DbNull } : {}),
    ...(patch.redirectUri ? { redirectUri: patch.redirectUri } : {}),
    ...(patch.authorizedBy ? { authorizedBy: patch.authorizedBy, authorizedAt: new Date() } : {}),
  };
  const owned = await db.mcpServer.count({ where: { id: target.serverId, tenantId: target.tenantId } });
  if (!owned) return; // deleted meanwhile: nothing to keep
  await db.serverOAuthState.upsert({
    where: { serverId: target.serverId },
    create: { serverId: target.serverId, tenantId: target.tenantId, ...data },
    update: data,
  });
}
