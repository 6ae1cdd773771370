import { createPrivateKey } from "node:crypto";
import {
  ClientCredentialsProvider,
  PrivateKeyJwtProvider,
  type OAuthClientMetadata,
  type OAuthClientProvider,
  type OAuthDiscoveryState,
  type StoredOAuthClientInformation,
  type StoredOAuthTokens,
} from "@modelcontextprotocol/client";
import type { Db } from "@/lib/db";
import { DiscoveryError } from "@/lib/discovery/discovery-error";
import type { ServerAuth } from "@/lib/servers/server-auth";
import { loadOAuthState, saveOAuthState, type OAuthTarget } from "./oauth-state";

/**
 * Where the provider runs, which decides what happens when the SDK needs a person:
 * - worker: never redirects. The server is marked auth_required (the session then records the
 *   status, and an alert opens); tokens are read from and saved to the database.
 * - authorize: the Authorize button. The SDK's authorization URL and PKCE verifier are kept on
 *   the provider for the verb to store with the pending authorization.
 * - callback: the provider's redirect back, with the verifier of the pending authorization.
 */
export type ProviderMode =
  | { kind: "worker" }
  | { kind: "authorize"; redirectUrl: string; state: string }
  | { kind: "callback"; redirectUrl: string; codeVerifier: string; authorizedBy: string };

/** Why a worker could not go on without a person (also the status reason shown on the server page). */
export const AUTH_REQUIRED_REASON = "the authorization server refused the stored tokens (expired or revoked refresh token): an admin must Authorize again";
const UNAUTHORIZED_REASON = "not authorized yet: an admin must click Authorize on the server page";
// A worker with no authorization yet still needs *a* redirect URL so the SDK treats the grant as
// interactive; it is never sent anywhere the provider would follow (the worker never redirects).
const WORKER_PLACEHOLDER_REDIRECT = "http://localhost/api/v1/oauth/callback-not-configured";

/**
 * The SDK's OAuthClientProvider backed by server_oauth_state: one team's tokens for one server,
 * sealed at rest. The SDK drives discovery, registration, PKCE, refresh and retries; this only
 * stores what it hands over and says what a worker may not do (redirect a browser).
 */
export class StoredOAuthProvider implements OAuthClientProvider {
  /** Set by redirectToAuthorization in authorize mode: where the browser must go. */
  authorizationUrl: URL | undefined;
  /** Set by saveCodeVerifier in authorize mode: sealed into the pending authorization. */
  pendingVerifier: string | undefined;
  /** Set in worker mode when the SDK wanted a person; the session reports AUTH_REQUIRED. */
  needsAuthorization = false;
  private readonly machine: ClientCredentialsProvider | PrivateKeyJwtProvider | undefined;
  private lastRedirectUri: string | null = null;

  constructor(
    private readonly db: Db,
    private readonly key: Buffer,
    private readonly target: OAuthTarget,
    private readonly auth: ServerAuth,
    private readonly mode: ProviderMode,
  ) {
    this.machine = auth.grant === "client_credentials" ? machineProvider(auth) : undefined;
  }

  get redirectUrl(): string | undefined {
    if (this.machine) return undefined;
    if (this.mode.kind !== "worker") return this.mode.redirectUrl;
    return this.lastRedirectUri ?? WORKER_PLACEHOLDER_REDIRECT;
  }

  get clientMetadata(): OAuthClientMetadata {
    if (this.machine) {
      const base = this.machine.clientMetadata;
      return { ...base, client_name: "Toolwatch", ...(this.auth.tokenEndpointAuthMethod ? { token_endpoint_auth_method: this.auth.tokenEndpointAuthMethod } : {}) };
    }
    return {
      client_name: "Toolwatch",
      redirect_uris: [this.redirectUrl!],
      grant_types: ["authorization_code", "refresh_token"],
      response_types: ["code"],
      token_endpoint_auth_method: this.auth.clientSecret ? "client_secret_basic" : "none",
      ...(this.auth.scope ? { scope: this.auth.scope } : {}),
    };
  }

  /** Asked right before a new authorization starts: only the Authorize button may start one. */
  async state(): Promise<string> {
    if (this.mode.kind === "authorize") return this.mode.state;
    throw await this.markPersonNeeded();
  }

  async clientInformation(): Promise<StoredOAuthClientInformation | undefined> {
    const configured = this.configuredClient();
    const stored = (await this.load()).client;
    // A stored copy of the configured client carries the issuer stamp the SDK added; a stored
    // registration of another client id belongs to an older setting and is ignored.
    if (configured) return stored?.client_id === configured.client_id ? { ...configured, ...(stored.issuer ? { issuer: stored.issuer } : {}) } : configured;
    // A worker never registers a client: the registration must carry the callback URL, which only
    // the Authorize button knows. Until someone authorizes, the server waits.
    if (!stored && this.mode.kind === "worker") throw this.personNeeded(false);
    return stored;
  }

  async saveClientInformation(info: StoredOAuthClientInformation): Promise<void> {
    await saveOAuthState(this.db, this.key, this.target, { client: info });
  }

  async tokens(): Promise<StoredOAuthTokens | undefined> {
    return (await this.load()).tokens;
  }

  async saveTokens(tokens: StoredOAuthTokens): Promise<void> {
    await saveOAuthState(this.db, this.key, this.target, {
      tokens,
      status: "authorized",
      statusReason: null,
      ...(this.mode.kind === "callback" ? { redirectUri: this.mode.redirectUrl, authorizedBy: this.mode.authorizedBy } : {}),
    });
  }

  async redirectToAuthorization(url: URL): Promise<void> {
    if (this.mode.kind === "authorize") {
      this.authorizationUrl = url;
      return;
    }
    throw await this.markPersonNeeded();
  }

  /** No browser here: the server waits for an admin (recorded for the server page). */
  private async markPersonNeeded(): Promise<DiscoveryError> {
    this.needsAuthorization = true;
    const hadTokens = (await this.load()).status !== "unauthorized";
    if (this.mode.kind === "worker") {
      await saveOAuthState(this.db, this.key, this.target, { status: hadTokens ? "auth_required" : "unauthorized", statusReason: hadTokens ? AUTH_REQUIRED_REASON : UNAUTHORIZED_REASON });
    }
    return this.personNeeded(hadTokens);
  }

  /**
   * What the session records: AUTH_REQUIRED (tokens this server had were refused: an alert opens)
   * or NOT_AUTHORIZED (never authorized yet). Thrown through the SDK's 401 handling as it is.
   */
  private personNeeded(hadTokens: boolean): DiscoveryError {
    return hadTokens ? new DiscoveryError("AUTH_REQUIRED", AUTH_REQUIRED_REASON) : new DiscoveryError("NOT_AUTHORIZED", UNAUTHORIZED_REASON);
  }

  saveCodeVerifier(verifier: string): void {
    this.pendingVerifier = verifier;
  }

  codeVerifier(): string {
    if (this.mode.kind === "callback") return this.mode.codeVerifier;
    if (this.pendingVerifier) return this.pendingVerifier;
    throw new Error("no PKCE verifier: the authorization was not started here");
  }

  async discoveryState(): Promise<OAuthDiscoveryState | undefined> {
    return (await this.load()).discovery;
  }

  async saveDiscoveryState(state: OAuthDiscoveryState): Promise<void> {
    await saveOAuthState(this.db, this.key, this.target, { discovery: state });
  }

  async invalidateCredentials(scope: "all" | "client" | "tokens" | "verifier" | "discovery"): Promise<void> {
    const all = scope === "all";
    await saveOAuthState(this.db, this.key, this.target, {
      ...(all || scope === "tokens" ? { tokens: null } : {}),
      // A configured client stays configured; only a dynamically registered one is forgotten.
      ...((all || scope === "client") && !this.auth.clientId ? { client: null } : {}),
      ...(all || scope === "discovery" ? { discovery: null } : {}),
    });
  }

  prepareTokenRequest(scope?: string): URLSearchParams | undefined {
    return this.machine?.prepareTokenRequest(scope);
  }

  get addClientAuthentication() {
    return this.machine instanceof PrivateKeyJwtProvider ? this.machine.addClientAuthentication : undefined;
  }

  private configuredClient(): StoredOAuthClientInformation | undefined {
    if (this.machine) {
      const base = this.machine.clientInformation();
      return { ...base, ...(this.auth.tokenEndpointAuthMethod ? { token_endpoint_auth_method: this.auth.tokenEndpointAuthMethod } : {}) };
    }
    if (!this.auth.clientId) return undefined;
    return {
      client_id: this.auth.clientId,
      ...(this.auth.clientSecret ? { client_secret: this.auth.clientSecret } : {}),
    };
  }

  private async load() {
    const state = await loadOAuthState(this.db, this.key, this.target);
    this.lastRedirectUri = state.redirectUri;
    return state;
  }
}

/** The SDK's own client-credentials providers supply the grant and the client authentication. */
function machineProvider(auth: ServerAuth): ClientCredentialsProvider | PrivateKeyJwtProvider {
  const scope = auth.scope ?? undefined;
  if (auth.privateKeyPem) {
    const type = createPrivateKey(auth.privateKeyPem).asymmetricKeyType;
    return new PrivateKeyJwtProvider({ clientId: auth.clientId!, privateKey: auth.privateKeyPem, algorithm: type === "ec" ? "ES256" : "RS256", clientName: "Toolwatch", ...(scope ? { scope } : {}) });
  }
  return new ClientCredentialsProvider({ clientId: auth.clientId!, clientSecret: auth.clientSecret!, clientName: "Toolwatch", ...(scope ? { scope } : {}) });
}
