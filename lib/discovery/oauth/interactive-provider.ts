import type { OAuthClientMetadata, OAuthClientProvider, OAuthDiscoveryState, StoredOAuthClientInformation, StoredOAuthTokens } from "@modelcontextprotocol/client";

export type InteractiveProviderOptions = {
  /** Where the authorization server sends the user agent back (the CLI's loopback receiver). */
  redirectUrl: string;
  /** A pre-registered client; without one the SDK uses a client ID metadata document or registers (RFC 7591). */
  clientId?: string;
  clientSecret?: string;
  /** An https URL serving this client's metadata document (SEP-991), used when the server supports it. */
  clientMetadataUrl?: string;
  /** Sent at registration and, when the server names none, at authorization. */
  scope?: string;
  /** Called with the authorization URL; the state it carries is `expectedState()`. */
  onRedirect: (authorizationUrl: URL) => void | Promise<void>;
};

export type InteractiveProvider = OAuthClientProvider & {
  /** The `state` of the latest authorization request, for the callback check. */
  expectedState(): string | undefined;
};

/**
 * An OAuthClientProvider that keeps everything in memory for one CLI run: client registration,
 * PKCE verifier, state and tokens. Nothing here is ever printed; the product keeps its own
 * provider (tokens encrypted in Postgres) behind the same interface.
 */
export function createInteractiveProvider(opts: InteractiveProviderOptions): InteractiveProvider {
  let client: StoredOAuthClientInformation | undefined = opts.clientId
    ? { client_id: opts.clientId, ...(opts.clientSecret ? { client_secret: opts.clientSecret } : {}) }
    : undefined;
  let tokens: StoredOAuthTokens | undefined;
  let verifier: string | undefined;
  let state: string | undefined;
  // Kept with the verifier so the SDK can bind the code to the authorization server it came from (SEP-2352).
  let discovery: OAuthDiscoveryState | undefined;
  const metadata: OAuthClientMetadata = {
    client_name: "Toolwatch CLI",
    redirect_uris: [opts.redirectUrl],
    // grant_types and the token endpoint auth method are left to the SDK's defaults and to what
    // the authorization server answers at registration (it may hand out a secret for basic/post).
    ...(opts.scope ? { scope: opts.scope } : {}),
  };
  return {
    get redirectUrl() {
      return opts.redirectUrl;
    },
    get clientMetadata() {
      return metadata;
    },
    ...(opts.clientMetadataUrl && !opts.clientId ? { clientMetadataUrl: opts.clientMetadataUrl } : {}),
    state: () => (state = crypto.randomUUID()),
    expectedState: () => state,
    clientInformation: () => client,
    saveClientInformation: (info) => {
      client = info;
    },
    tokens: () => tokens,
    saveTokens: (next) => {
      tokens = next;
    },
    redirectToAuthorization: (url) => opts.onRedirect(url),
    saveCodeVerifier: (next) => {
      verifier = next;
    },
    codeVerifier: () => {
      if (!verifier) throw new Error("no PKCE code verifier: the authorization was not started here");
      return verifier;
    },
    saveDiscoveryState: (next) => {
      discovery = next;
    },
    discoveryState: () => discovery,
    invalidateCredentials: (scope) => {
      if (scope === "all" || scope === "discovery") discovery = undefined;
      if (scope === "all" || scope === "tokens") tokens = undefined;
      if (scope === "all" || scope === "verifier") verifier = undefined;
      // A pre-registered client stays; a registered one is forgotten so the SDK registers again.
      if ((scope === "all" || scope === "client") && !opts.clientId) client = undefined;
    },
  };
}
