// The MCP authorization spec on the SDK's own OAuth client: discovery (RFC 9728 path-based and
// root, RFC 8414 / OpenID / 2025-03-26 fallbacks), registration (pre-registered, client ID metadata
// documents, RFC 7591), PKCE S256, resource indicators, scope selection, step-up and refresh all
// live in `auth()` and the HTTP transports. This file only connects them to Toolwatch: the guarded
// fetch for every OAuth request, and one way to tell "needs authorization" from other failures.
import {
  auth,
  discoverOAuthProtectedResourceMetadata,
  IssuerMismatchError,
  OAuthError,
  UnauthorizedError,
  type OAuthClientProvider,
  type Transport,
} from "@modelcontextprotocol/client";
import type { GuardedFetch } from "@/lib/discovery/node/guarded-fetch";

/** Whether `error` (or a cause of it) says the server wants an authorization we do not hold. */
export function isAuthorizationRequired(error: unknown): boolean {
  for (let e = error, depth = 0; e && depth < 6; e = (e as { cause?: unknown }).cause, depth++) {
    if (UnauthorizedError.isInstance(e)) return true;
  }
  return false;
}

/** An OAuth protocol error from the authorization server (invalid_grant, invalid_client, …), if any. */
export function oauthErrorOf(error: unknown): OAuthError | undefined {
  for (let e = error, depth = 0; e && depth < 6; e = (e as { cause?: unknown }).cause, depth++) {
    if (OAuthError.isInstance(e)) return e;
  }
  return undefined;
}

type FinishesAuth = Transport & { finishAuth(callbackParams: URLSearchParams): Promise<void> };

/**
 * Redeems an authorization callback on the transport that was refused: the SDK checks `iss`
 * (RFC 9207) before anything else and exchanges the code with the stored PKCE verifier; the tokens
 * land in the transport's provider. `state` must have been checked by the caller.
 */
export async function completeAuthorization(transport: Transport, callbackParams: URLSearchParams): Promise<void> {
  const finishing = transport as Partial<FinishesAuth>;
  if (typeof finishing.finishAuth !== "function") throw new Error("this transport cannot take an OAuth authorization");
  await finishing.finishAuth(callbackParams);
}

/**
 * Product side, step 1 (an admin clicks Authorize): discovers the server's authorization server,
 * registers the client if needed, and either finds usable tokens ("AUTHORIZED", e.g. after a
 * refresh) or hands the authorization URL to `provider.redirectToAuthorization` ("REDIRECT").
 */
export function beginAuthorization(provider: OAuthClientProvider, serverUrl: string, fetch: GuardedFetch, scope?: string): Promise<"AUTHORIZED" | "REDIRECT"> {
  return auth(provider, { serverUrl, fetchFn: fetch, ...(scope ? { scope } : {}) });
}

/**
 * Product side, step 2 (the callback route, after it checked `state`): exchanges the code for
 * tokens, which the SDK passes to `provider.saveTokens`. `iss` is validated per RFC 9207.
 */
export async function finishAuthorization(provider: OAuthClientProvider, serverUrl: string, callbackParams: URLSearchParams, fetch: GuardedFetch): Promise<void> {
  const code = callbackParams.get("code");
  if (!code) throw new UnauthorizedError("the authorization callback carries no code");
  const iss = callbackParams.get("iss") ?? undefined;
  const result = await auth(provider, { serverUrl, authorizationCode: code, fetchFn: fetch, ...(iss ? { iss } : {}) });
  if (result !== "AUTHORIZED") throw new UnauthorizedError("the authorization server did not issue tokens");
}

/**
 * 2025-03-26 servers publish no protected-resource metadata: the client derives the authorization
 * server from the MCP server's own origin, and some of them serve metadata whose `issuer` differs
 * from that origin (e.g. `/oauth`), which the SDK's RFC 8414 §3.3 check refuses. Only then — an
 * issuer mismatch on the metadata and no protected-resource metadata at all, so every endpoint
 * still comes from the server's own origin — is the flow worth retrying without that check.
 */
export async function isLegacyIssuerMismatch(error: unknown, serverUrl: string, fetch: GuardedFetch): Promise<boolean> {
  if (!IssuerMismatchError.isInstance(error) || error.kind !== "metadata") return false;
  try {
    await discoverOAuthProtectedResourceMetadata(serverUrl, undefined, fetch);
    return false; // a 2025-06-18+ server: the mismatch stands
  } catch {
    return true;
  }
}
