import { createHmac } from "node:crypto";
import { canonicalJson } from "../hash/canonical-hash";
import type { ServerConnectionConfig } from "../discovery/connection-config";

// The connection config itself belongs to discovery (how to reach a server); the store re-exports it.
export { ServerConnectionConfig, TransportKindSchema, type TransportKind } from "../discovery/connection-config";

/**
 * Keyed so the stored hash reveals nothing about the secrets inside the config, yet changes
 * whenever any part of it (including a rotated token) changes.
 */
export function computeConfigHash(key: Buffer, config: ServerConnectionConfig): string {
  return createHmac("sha256", key).update(canonicalJson(config)).digest("hex");
}

/**
 * The authorization context a tool list was fetched under: a keyed hash of the credentials sent
 * (HTTP headers; a stdio server's environment), "anonymous" when none were. Two servers with the
 * same credentials share a context; the value reveals nothing about the credentials themselves.
 * Lists marked cacheScope "private" are only valid within one context (protocol 2026-07-28).
 */
export function authContextOf(key: Buffer, config: ServerConnectionConfig): string {
  const credentials = config.transport === "stdio" ? config.env : config.headers;
  if (Object.keys(credentials).length === 0) return "anonymous";
  return "ac1:" + createHmac("sha256", key).update("auth-context\u0000" + canonicalJson(credentials)).digest("hex").slice(0, 32);
}
