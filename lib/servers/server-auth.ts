import { createPrivateKey } from "node:crypto";
import { z } from "zod";

// How a server is signed in to with OAuth 2.1 (docs/oauth-servers.md). Two grants:
// - client_credentials: a machine client (secret, or a private key for private_key_jwt);
// - authorization_code: a person authorizes once in the browser (Authorize on the server page);
//   without a clientId the SDK registers the client (dynamic registration).
// Secrets (clientSecret, privateKeyPem) are sealed at rest and never returned.

const clientId = z.string().trim().min(1).max(500);
const clientSecret = z.string().min(1).max(4_000);
const scope = z.string().trim().min(1).max(1_000).regex(/^[\x21\x23-\x5B\x5D-\x7E]+( [\x21\x23-\x5B\x5D-\x7E]+)*$/, "scope is a space-separated list of scope tokens");
const privateKeyPem = z
  .string()
  .max(16_000)
  .refine((pem) => {
    try {
      const key = createPrivateKey(pem);
      return key.asymmetricKeyType === "rsa" || key.asymmetricKeyType === "ec";
    } catch {
      return false;
    }
  }, "privateKeyPem must be a PEM-encoded RSA or EC private key");

export const ClientCredentialsAuth = z
  .object({
    type: z.literal("oauth"),
    grant: z.literal("client_credentials"),
    clientId,
    clientSecret: clientSecret.optional(),
    privateKeyPem: privateKeyPem.optional(),
    scope: scope.optional(),
    tokenEndpointAuthMethod: z.enum(["client_secret_basic", "client_secret_post", "private_key_jwt"]).optional(),
  })
  .strict()
  .superRefine((v, ctx) => {
    if (!v.clientSecret === !v.privateKeyPem) ctx.addIssue({ code: "custom", path: ["clientSecret"], message: "client_credentials needs exactly one of clientSecret or privateKeyPem" });
    if (v.privateKeyPem && v.tokenEndpointAuthMethod && v.tokenEndpointAuthMethod !== "private_key_jwt") {
      ctx.addIssue({ code: "custom", path: ["tokenEndpointAuthMethod"], message: "a privateKeyPem authenticates with private_key_jwt" });
    }
    if (v.clientSecret && v.tokenEndpointAuthMethod === "private_key_jwt") ctx.addIssue({ code: "custom", path: ["tokenEndpointAuthMethod"], message: "private_key_jwt needs privateKeyPem, not clientSecret" });
  });

export const AuthorizationCodeAuth = z
  .object({
    type: z.literal("oauth"),
    grant: z.literal("authorization_code"),
    clientId: clientId.optional(),
    clientSecret: clientSecret.optional(),
    scope: scope.optional(),
  })
  .strict()
  .superRefine((v, ctx) => {
    if (v.clientSecret && !v.clientId) ctx.addIssue({ code: "custom", path: ["clientSecret"], message: "clientSecret needs the clientId it belongs to" });
  });

export const ServerAuthInput = z.discriminatedUnion("grant", [ClientCredentialsAuth, AuthorizationCodeAuth]);
export type ServerAuthInput = z.infer<typeof ServerAuthInput>;

/** What is stored in the clear (mcp_server.auth_config) and shown by the API. */
export type PublicAuthConfig = {
  type: "oauth";
  grant: "client_credentials" | "authorization_code";
  clientId: string | null;
  scope: string | null;
  tokenEndpointAuthMethod: string | null;
  hasSecret: boolean;
};
/** The sealed part (mcp_server.auth_secret_encrypted). */
export type AuthSecrets = { clientSecret?: string; privateKeyPem?: string };
/** Both, decrypted: what the worker and the authorization verbs work with. */
export type ServerAuth = PublicAuthConfig & AuthSecrets;

export function splitAuth(input: ServerAuthInput): { config: PublicAuthConfig; secrets: AuthSecrets } {
  const secrets: AuthSecrets = {
    ...(input.clientSecret ? { clientSecret: input.clientSecret } : {}),
    ...(input.grant === "client_credentials" && input.privateKeyPem ? { privateKeyPem: input.privateKeyPem } : {}),
  };
  const method = input.grant === "client_credentials" ? (input.tokenEndpointAuthMethod ?? (input.privateKeyPem ? "private_key_jwt" : null)) : null;
  return {
    config: {
      type: "oauth",
      grant: input.grant,
      clientId: input.clientId ?? null,
      scope: input.scope ?? null,
      tokenEndpointAuthMethod: method,
      hasSecret: Object.keys(secrets).length > 0,
    },
    secrets,
  };
}

const PublicAuthConfigSchema = z.object({
  type: z.literal("oauth"),
  grant: z.enum(["client_credentials", "authorization_code"]),
  clientId: z.string().nullable(),
  scope: z.string().nullable(),
  tokenEndpointAuthMethod: z.string().nullable(),
  hasSecret: z.boolean(),
});

/** The stored column back to its type; null for servers without OAuth (or an unreadable value). */
export function publicAuthOf(stored: unknown): PublicAuthConfig | null {
  if (stored === null || stored === undefined) return null;
  const parsed = PublicAuthConfigSchema.safeParse(stored);
  return parsed.success ? parsed.data : null;
}
