import type { Db } from "../db";
import { decryptJson } from "../secrets";
import type { ServerConnectionConfig } from "./server-config";

export type RunnableServer = {
  tenantId: string;
  serverId: string;
  name: string;
  configHash: string;
  pollIntervalSeconds: number;
  config: ServerConnectionConfig;
};

/**
 * System scope, for the worker only: every enabled server of every tenant with its decrypted
 * connection config. The worker is the one component that must act for all tenants; each
 * session it starts then works inside that server's tenant context.
 */
export async function listRunnableServers(db: Db, key: Buffer): Promise<RunnableServer[]> {
  const rows = await db.mcpServer.findMany({ where: { enabled: true }, orderBy: { createdAt: "asc" } });
  return rows.map((r) => ({
    tenantId: r.tenantId,
    serverId: r.id,
    name: r.name,
    configHash: r.configHash,
    pollIntervalSeconds: r.pollIntervalSeconds,
    config:
      r.transport === "stdio"
        ? {
            transport: "stdio",
            command: r.command ?? "",
            args: r.args,
            ...(r.cwd ? { cwd: r.cwd } : {}),
            env: r.envEncrypted ? decryptJson<Record<string, string>>(key, r.envEncrypted) : {},
          }
        : {
            transport: r.transport,
            url: r.url ?? "",
            headers: r.headersEncrypted ? decryptJson<Record<string, string>>(key, r.headersEncrypted) : {},
          },
  }));
}
