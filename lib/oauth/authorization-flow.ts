import { withTransaction } from "@/lib/transaction";
import { createHash, randomBytes } from "node:crypto";
import { auth as runSdkAuth } from "@modelcontextprotocol/client";
import { alertOnAuthChange } from "@/lib/alerts/server-status-alerts";
import { requirePermission } from "@/lib/auth/permissions";
import { recordAudit } from "@/lib/audit-log/record-audit";
import type { ServiceContext } from "@/lib/context";
import { createGuardedFetch } from "@/lib/discovery/node/guarded-fetch";
import { AppError } from "@/lib/errors";
import { teamMayUsePrivateTargets } from "@/lib/network/private-targets";
import { notifyInTx } from "@/lib/realtime/notify";
import { decryptJson, encryptJson, getSecretKey } from "@/lib/secrets";
import { authFromRow } from "@/lib/servers/connection-columns";
import { getServerOrThrow } from "@/lib/servers/get-server-or-throw";
import type { ServerAuth } from "@/lib/servers/server-auth";
import { saveOAuthState } from "./oauth-state";
import { StoredOAuthProvider } from "./stored-provider";

// The interactive OAuth flow of a server (authorization code + PKCE), run by the web process on
// an admin's behalf: Authorize → the provider → the callback. The SDK does discovery, client
// registration, PKCE (S256), the resource indicator and the code exchange; this binds the
// round trip to the admin's session and the server, and stores what comes back sealed.

/** How long an admin has to finish at the provider. */
export const PENDING_TTL_MS = 10 * 60 * 1000;

/** The signed-in person starting or finishing the flow (API keys cannot: there is no browser). */
export type Caller = { userId: string; sessionToken: string };

const sha256 = (text: string) => createHash("sha256").update(text).digest("hex");

/** `${base}/api/v1/servers/{id}/oauth/callback`: the one redirect URI this instance registers. */
export function callbackUrl(baseUrl: string, serverId: string): string {
  return `${baseUrl.replace(/\/+$/, "")}/api/v1/servers/${serverId}/oauth/callback`;
}

/** The server's URL and its interactive OAuth settings, or a 4xx saying why it has none. */
async function interactiveServer(ctx: ServiceContext, serverId: string, key: Buffer): Promise<{ id: string; url: string; auth: ServerAuth }> {
  const row = await getServerOrThrow(ctx, serverId);
  const auth = authFromRow(key, row);
  if (!auth || auth.grant !== "authorization_code" || !row.url) {
    throw new AppError("CONFLICT", "This server is not set up for interactive OAuth (auth.grant authorization_code)");
  }
  return { id: row.id, url: row.url, auth };
}

/** OAuth requests go through the same guard as the server's own: the team's right to private targets. */
async function guardedFetchFor(ctx: ServiceContext) {
  return createGuardedFetch({ blockPrivate: !(await teamMayUsePrivateTargets(ctx)), maxResponseBytes: 1024 * 1024, isStreaming: () => false });
}

/** An SDK or network failure as a 4xx/503 that names the step, never a token or secret. */
function upstreamError(step: string, error: unknown): AppError {
  const message = error instanceof Error ? error.message : String(error);
  return new AppError("UNAVAILABLE", `OAuth ${step} failed: ${message.slice(0, 300)}`);
}

/**
 * Starts an authorization: discovery, registration if needed, PKCE, state. Returns the provider's
 * authorization URL for the browser; the state (hashed), the sealed verifier and who asked are
 * kept for the callback, for 10 minutes and one use.
 */
export async function startAuthorization(ctx: ServiceContext, serverId: string, caller: Caller, baseUrl: string): Promise<{ authorizationUrl: string }> {
  requirePermission(ctx, "server:write");
  const key = getSecretKey();
  const server = await interactiveServer(ctx, serverId, key);
  const redirectUrl = callbackUrl(baseUrl, server.id);
  const state = randomBytes(32).toString("base64url");
  const provider = new StoredOAuthProvider(ctx.db, key, { tenantId: ctx.tenantId, serverId: server.id }, server.auth, { kind: "authorize", redirectUrl, state });
  const fetchFn = await guardedFetchFor(ctx);
  try {
    // A fresh authorization even when a refresh token exists: the admin asked for one.
    await runSdkAuth(provider, { serverUrl: server.url, fetchFn, forceReauthorization: true, ...(server.auth.scope ? { scope: server.auth.scope } : {}) });
  } catch (error) {
    throw upstreamError("discovery or registration", error);
  } finally {
    await fetchFn.close();
  }
  if (!provider.authorizationUrl || !provider.pendingVerifier) throw new AppError("UNAVAILABLE", "The authorization server did not offer an authorization URL");
  await withTransaction(ctx, async (tx) => {
    await tx.oAuthPendingAuthorization.deleteMany({ where: { tenantId: ctx.tenantId, serverId: server.id, expiresAt: { lt: new Date() } } });
    await tx.oAuthPendingAuthorization.create({
      data: {
        stateHash: sha256(state),
        tenantId: ctx.tenantId,
        serverId: server.id,
        userId: caller.userId,
        sessionHash: sha256(caller.sessionToken),
        codeVerifierEncrypted: encryptJson(key, provider.pendingVerifier),
        redirectUri: redirectUrl,
        expiresAt: new Date(Date.now() + PENDING_TTL_MS),
      },
    });
    await recordAudit(tx, ctx, "server.oauth_authorize_started", { type: "server", id: server.id }, { authorizationServer: provider.authorizationUrl!.origin });
  });
  return { authorizationUrl: provider.authorizationUrl.href };
}

export type CallbackParams = { code?: string; state?: string; iss?: string; error?: string; error_description?: string };

/**
 * Finishes an authorization: the state must be one this admin started, in this session, for this
 * server of this team, unexpired and unused (it is spent before the code is exchanged). The
 * tokens are stored sealed, an auth_required alert is resolved and the worker is asked to list
 * again. A provider-side refusal (`error`) spends the state too and comes back as a 4xx.
 */
export async function completeAuthorization(ctx: ServiceContext, serverId: string, caller: Caller, params: CallbackParams): Promise<{ serverId: string }> {
  requirePermission(ctx, "server:write");
  if (!params.state) throw new AppError("INVALID_INPUT", "state is missing from the callback");
  const pending = await ctx.db.oAuthPendingAuthorization.findUnique({ where: { stateHash: sha256(params.state) } });
  if (!pending || pending.tenantId !== ctx.tenantId || pending.serverId !== serverId) {
    throw new AppError("NOT_FOUND", "No authorization with this state was started for this server in your team");
  }
  if (pending.userId !== caller.userId || pending.sessionHash !== sha256(caller.sessionToken)) {
    throw new AppError("FORBIDDEN", "This authorization was started by another person or in another session");
  }
  if (pending.expiresAt.getTime() < Date.now()) throw new AppError("INVALID_INPUT", "This authorization expired (10 minutes): click Authorize again");
  const spent = await ctx.db.oAuthPendingAuthorization.updateMany({ where: { stateHash: pending.stateHash, usedAt: null }, data: { usedAt: new Date() } });
  if (spent.count !== 1) throw new AppError("CONFLICT", "This authorization was already used: click Authorize again");
  if (params.error) {
    throw new AppError("FORBIDDEN", `The authorization server refused: ${params.error}${params.error_description ? ` (${params.error_description.slice(0, 200)})` : ""}`);
  }
  if (!params.code) throw new AppError("INVALID_INPUT", "code is missing from the callback");

  const key = getSecretKey();
  const server = await interactiveServer(ctx, serverId, key);
  const codeVerifier = decryptJson<string>(key, pending.codeVerifierEncrypted);
  const provider = new StoredOAuthProvider(ctx.db, key, { tenantId: ctx.tenantId, serverId: server.id }, server.auth, {
    kind: "callback",
    redirectUrl: pending.redirectUri,
    codeVerifier,
    authorizedBy: ctx.actor.id,
  });
  const fetchFn = await guardedFetchFor(ctx);
  try {
    const result = await runSdkAuth(provider, { serverUrl: server.url, fetchFn, authorizationCode: params.code, ...(params.iss ? { iss: params.iss } : {}) });
    if (result !== "AUTHORIZED") throw new Error("the code was not exchanged for tokens");
  } catch (error) {
    await saveOAuthState(ctx.db, key, { tenantId: ctx.tenantId, serverId: server.id }, { statusReason: "the last authorization failed at the token endpoint" });
    throw upstreamError("code exchange", error);
  } finally {
    await fetchFn.close();
  }
  await withTransaction(ctx, async (tx) => {
    await alertOnAuthChange(tx, ctx.tenantId, server.id, { to: "authorized", reason: null });
    await recordAudit(tx, ctx, "server.oauth_authorized", { type: "server", id: server.id }, {});
    await notifyInTx(tx, { type: "server:refreshRequested", tenantId: ctx.tenantId, serverId: server.id });
  });
  return { serverId: server.id };
}
