import type { McpServer } from "@/lib/generated/prisma/client";
import { decryptJson, encryptJson } from "@/lib/secrets";
import { Prisma } from "@/lib/generated/prisma/client";
import { splitAuth, type AuthSecrets, type PublicAuthConfig, type ServerAuth, type ServerAuthInput } from "./server-auth";
import { computeConfigHash, type ServerConnectionConfig } from "./server-config";

/**
 * A connection config as stored: env and headers sealed, plus the keyed config hash. OAuth
 * settings (when given) are part of the hash, so changing them restarts the session; a server
 * without them hashes exactly as before OAuth existed.
 */
export function connectionColumns(key: Buffer, config: ServerConnectionConfig, auth?: ServerAuth | null) {
  const stdio = config.transport === "stdio";
  return {
    transport: config.transport,
    command: stdio ? config.command : null,
    args: stdio ? config.args : [],
    cwd: stdio ? (config.cwd ?? null) : null,
    envEncrypted: stdio && Object.keys(config.env).length ? encryptJson(key, config.env) : null,
    url: stdio ? null : config.url,
    headersEncrypted: !stdio && Object.keys(config.headers).length ? encryptJson(key, config.headers) : null,
    configHash: computeConfigHash(key, auth ? { ...config, auth } : config),
  };
}

/** The auth columns for an OAuth setting (null clears them). */
export function authColumns(key: Buffer, input: ServerAuthInput | null) {
  if (!input) return { auth: null, columns: { authConfig: Prisma.DbNull as Prisma.InputJsonValue | typeof Prisma.DbNull, authSecretEncrypted: null as string | null } };
  const { config, secrets } = splitAuth(input);
  return {
    auth: { ...config, ...secrets } satisfies ServerAuth,
    columns: { authConfig: config as unknown as Prisma.InputJsonValue | typeof Prisma.DbNull, authSecretEncrypted: config.hasSecret ? encryptJson(key, secrets) : null },
  };
}

/** The stored auth back to its decrypted form (worker and edits only); null without OAuth. */
export function authFromRow(key: Buffer, row: { authConfig: unknown; authSecretEncrypted: string | null }): ServerAuth | null {
  const config = row.authConfig as PublicAuthConfig | null;
  if (!config || config.type !== "oauth") return null;
  const secrets = row.authSecretEncrypted ? decryptJson<AuthSecrets>(key, row.authSecretEncrypted) : {};
  return { ...config, ...secrets };
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
