import type { Db } from "../db";
import type { EraVerdict } from "../discovery/open-connection";
import { configFromRow } from "./connection-columns";
import type { ServerConnectionConfig } from "./server-config";

export type RunnableServer = {
  tenantId: string;
  serverId: string;
  name: string;
  configHash: string;
  pollIntervalSeconds: number;
  config: ServerConnectionConfig;
  /** The stored era verdict, only if it was obtained for this exact configuration. */
  verdict?: EraVerdict;
};

/**
 * System scope, for the worker only: enabled servers (of every tenant, or just `onlyIds`) with
 * their decrypted connection config. The worker is the one component that acts for all tenants;
 * each session it starts then works inside that server's tenant context.
 */
export async function listRunnableServers(db: Db, key: Buffer, onlyIds?: string[]): Promise<RunnableServer[]> {
  if (onlyIds && onlyIds.length === 0) return [];
  const rows = await db.mcpServer.findMany({
    where: { enabled: true, ...(onlyIds ? { id: { in: onlyIds } } : {}) },
    include: { session: { select: { eraVerdict: true, verdictFor: true } } },
    orderBy: { createdAt: "asc" },
  });
  return rows.map((r) => ({
    tenantId: r.tenantId,
    serverId: r.id,
    name: r.name,
    configHash: r.configHash,
    pollIntervalSeconds: r.pollIntervalSeconds,
    ...(r.session?.eraVerdict && r.session.verdictFor === r.configHash ? { verdict: r.session.eraVerdict as EraVerdict } : {}),
    config: configFromRow(key, r),
  }));
}

/** What the scheduler compares on every tick: enabled servers among `ids` and their config hashes (no secrets). */
export async function listServerHeads(db: Db, ids: string[]): Promise<Array<{ serverId: string; configHash: string }>> {
  if (ids.length === 0) return [];
  const rows = await db.mcpServer.findMany({ where: { enabled: true, id: { in: ids } }, select: { id: true, configHash: true } });
  return rows.map((r) => ({ serverId: r.id, configHash: r.configHash }));
}
