import { createHmac } from "node:crypto";
import { z } from "zod";
import { canonicalJson } from "../snapshots/canonical-hash";

// How to reach one MCP server. Env and headers may hold credentials: they are sealed at rest
// (lib/secrets.ts) and only the keys are ever shown.
export const TransportKindSchema = z.enum(["stdio", "streamable_http", "sse"]);
export type TransportKind = z.infer<typeof TransportKindSchema>;

export const ServerConnectionConfig = z.discriminatedUnion("transport", [
  z.object({
    transport: z.literal("stdio"),
    command: z.string().min(1),
    args: z.array(z.string()).default([]),
    cwd: z.string().optional(),
    env: z.record(z.string(), z.string()).default({}),
  }),
  z.object({
    transport: z.enum(["streamable_http", "sse"]),
    url: z.string().url(),
    headers: z.record(z.string(), z.string()).default({}),
  }),
]);
export type ServerConnectionConfig = z.infer<typeof ServerConnectionConfig>;

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
