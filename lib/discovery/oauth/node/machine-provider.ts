// Machine-to-machine OAuth (the MCP client-credentials and enterprise-managed authorization
// extensions) on the SDK's own providers; this file only picks one and feeds it.
import { createPrivateKey } from "node:crypto";
import {
  ClientCredentialsProvider,
  CrossAppAccessProvider,
  PrivateKeyJwtProvider,
  requestJwtAuthorizationGrant,
  type OAuthClientProvider,
} from "@modelcontextprotocol/client";
import type { GuardedFetch } from "@/lib/discovery/node/guarded-fetch";

export type MachineCredentials = {
  clientId: string;
  scope?: string;
} & (
  | { kind: "client_secret"; clientSecret: string }
  /** private_key_jwt (RFC 7523): the assertion is signed with this PEM key, algorithm from its type. */
  | { kind: "private_key_jwt"; privateKeyPem: string }
  /** SEP-990: an IdP ID token exchanged at the IdP for an ID-JAG, then a jwt-bearer grant here. */
  | { kind: "id_jag"; clientSecret: string; idpTokenEndpoint: string; idpClientId: string; idToken: string }
);

/**
 * A provider for grants that need no user: the SDK's ClientCredentialsProvider (client_secret_basic),
 * PrivateKeyJwtProvider, or CrossAppAccessProvider. `fetch` is the guarded fetch, for the IdP
 * token exchange (the SDK passes it to the other requests itself).
 */
export function createMachineProvider(credentials: MachineCredentials, fetch: GuardedFetch): OAuthClientProvider {
  const scope = credentials.scope ? { scope: credentials.scope } : {};
  switch (credentials.kind) {
    case "client_secret":
      return new ClientCredentialsProvider({ clientId: credentials.clientId, clientSecret: credentials.clientSecret, clientName: "Toolwatch", ...scope });
    case "private_key_jwt":
      return new PrivateKeyJwtProvider({
        clientId: credentials.clientId,
        privateKey: credentials.privateKeyPem,
        algorithm: signingAlgorithmOf(credentials.privateKeyPem),
        clientName: "Toolwatch",
        ...scope,
      });
    case "id_jag":
      return new CrossAppAccessProvider({
        clientId: credentials.clientId,
        clientSecret: credentials.clientSecret,
        clientName: "Toolwatch",
        fetchFn: fetch,
        assertion: async (ctx) =>
          (
            await requestJwtAuthorizationGrant({
              tokenEndpoint: credentials.idpTokenEndpoint,
              audience: ctx.authorizationServerUrl,
              resource: ctx.resourceUrl,
              idToken: credentials.idToken,
              clientId: credentials.idpClientId,
              ...(ctx.scope ? { scope: ctx.scope } : {}),
              fetchFn: ctx.fetchFn,
            })
          ).jwtAuthGrant,
      });
  }
}

/** The JWS algorithm a PEM private key signs with: ES256/384/512 by curve, RS256, or EdDSA. */
export function signingAlgorithmOf(pem: string): string {
  let key;
  try {
    key = createPrivateKey(pem);
  } catch {
    throw new Error("the client key is not a readable PEM private key");
  }
  const type = key.asymmetricKeyType;
  if (type === "ec") {
    const curve = key.asymmetricKeyDetails?.namedCurve;
    const byCurve: Record<string, string> = { prime256v1: "ES256", secp384r1: "ES384", secp521r1: "ES512" };
    if (curve && byCurve[curve]) return byCurve[curve];
    throw new Error(`the client key uses an unsupported curve (${curve ?? "unknown"})`);
  }
  if (type === "rsa") return "RS256";
  if (type === "ed25519") return "EdDSA";
  throw new Error(`the client key type ${type ?? "unknown"} cannot sign a client assertion`);
}
