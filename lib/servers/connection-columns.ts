import type { McpServer } from "../generated/prisma/client";
import { decryptJson, encryptJson } from "../secrets";
import { computeConfigHash, type ServerConnectionConfig } from "./server-config";

/** A connection config as stored: env and headers sealed, plus the keyed config hash. */
export function connectionColumns(key: Buffer, config: ServerConnectionConfig) {
  const stdio = config.transport === "stdio";
  return {
    transport: config.transport,
    command: stdio ? config.command : null,
    args: stdio ? config.args : [],
    cwd: stdio ? (config.cwd ?? null) : null,
    envEncrypted: stdio && Object.keys(config.env).length ? encryptJson(key, config.env) : null,
    url: stdio ? null : config.url,
    headersEncrypted: !stdio && Object.keys(config.headers).length ? encryptJson(key, config.headers) : null,
    configHash: computeConfigHash(key, config),
  };
}

type ConnectionRow = Pick<McpServer, "transport" | "command" | "args" | "cwd" | "envEncrypted" | "url" | "headersEncrypted">;

/** The stored row back to a connection config, secrets decrypted (worker and edits only). */
export function configFromRow(key: Buffer, row: ConnectionRow): ServerConnectionConfig {
  return row.transport === "stdio"
    ? {
        transport: "stdio",
        command: row.command ?? "",
        args: row.args,
        ...(row.cwd ? { cwd: row.cwd } : {}),
        env: row.envEncrypted ? decryptJson<Record<string, string>>(key, row.envEncrypted) : {},
      }
    : {
        transport: row.transport,
        url: row.url ?? "",
        headers: row.headersEncrypted ? decryptJson<Record<string, string>>(key, row.headersEncrypted) : {},
      };
}
