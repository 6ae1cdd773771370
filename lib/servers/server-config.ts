import { createHmac } from "node:crypto";
import { canonicalJson } from "@/lib/hash/canonical-hash";
import type { ServerConnectionConfig } from "@/lib/discovery/connection-config";

// The connection config itself belongs to discovery (how to reach a server); the store re-exports it.
export { ServerConnectionConfig, TransportKindSchema, type TransportKind } from "@/lib/discovery/connection-config";

/**
 * Keyed so the stored hash reveals nothing about the secrets inside the config, yet changes
 * whenever any part of it (including a rotated token) changes.
 */
export function computeConfigHash(key: Buffer, config: ServerConnectionConfig | (ServerConnectionConfig & { auth: unknown })): string {
  return createHmac("sha256", key).update(canonicalJson(config)).digest("hex");
}

/**
 * The authorization context a tool list was fetched under: a keyed hash of the credentials sent
 * (HTTP headers; a stdio server's environment), "anonymous" when none were. Two servers with the
 * same credentials share a context; the value reveals nothing about the credentials themselves.
 * Lists marked cacheScope "private" are only valid within one context (protocol 2026-07-28).
 */
export function authContextOf(key: Buffer, config: ServerConnectionConfig, oauth?: OAuthIdentity | null): string {
  const credentials = config.transport === "stdio" ? config.env : config.headers;
  if (Object.keys(credentials).length === 0 && !oauth) return "anonymous";
  // OAuth tokens are one team's, for one server: the context names that grant (stable across
  // refreshes, which rotate the tokens themselves), so no two teams ever share a list fetched with them.
  const material = oauth ? { headers: credentials, oauth } : credentials;
  return "ac1:" + createHmac("sha256", key).update("auth-context\u0000" + canonicalJson(material)).digest("hex").slice(0, 32);
}

/** Who an OAuth-protected list was fetched as: this team's grant for this server and client. */
export type OAuthIdentity = { tenantId: string; serverId: string; grant: string; clientId: string | null };
