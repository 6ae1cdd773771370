import type { Db } from "@/lib/db";
import type { PrivateTargetsPolicy } from "@/lib/env";
import { teamsWithPrivateTargets } from "@/lib/network/private-targets";
import type { EraVerdict } from "@/lib/discovery/open-connection";
import { authFromRow, configFromRow } from "./connection-columns";
import type { ServerAuth } from "./server-auth";
import type { ServerConnectionConfig } from "./server-config";

export type RunnableServer = {
  tenantId: string;
  serverId: string;
  name: string;
  configHash: string;
  pollIntervalSeconds: number;
  config: ServerConnectionConfig;
  /** OAuth settings, secrets decrypted (null: no sign-in); the tokens live in server_oauth_state. */
  auth: ServerAuth | null;
  /** The stored era verdict, only if it was obtained for this exact configuration. */
  verdict?: EraVerdict;
  /** Whether its connections may reach private and loopback addresses (see privateTargetsOf). */
  privateTargets: boolean;
};

/**
 * Per server, whether the worker may connect it to private and loopback addresses: its team's
 * right under TOOLWATCH_PRIVATE_TARGETS (lib/network/private-targets.ts), or it is one of the
 * instance's own demo servers (demoKey: written by the worker for the demo fleet it runs on
 * loopback; a team cannot set demoKey, and moving a demo server's URL is judged like any edit).
 */
async function privateTargetsOf(db: Db, rows: { tenantId: string; demoKey: string | null }[], policy: PrivateTargetsPolicy): Promise<boolean[]> {
  const teams = await teamsWithPrivateTargets(db, rows.map((r) => r.tenantId), policy);
  return rows.map((r) => teams.has(r.tenantId) || (r.demoKey !== null && policy !== "none"));
}

/**
 * System scope, for the worker only: enabled servers (of every tenant, or just `onlyIds`) with
 * their decrypted connection config. The worker is the one component that acts for all tenants;
 * each session it starts then works inside that server's tenant context.
 */
export async function listRunnableServers(db: Db, key: Buffer, policy: PrivateTargetsPolicy, onlyIds?: string[]): Promise<RunnableServer[]> {
  if (onlyIds && onlyIds.length === 0) return [];
  const rows = await db.mcpServer.findMany({
    where: { enabled: true, ...(onlyIds ? { id: { in: onlyIds } } : {}) },
    include: { session: { select: { eraVerdict: true, verdictFor: true } } },
    orderBy: { createdAt: "asc" },
  });
  const rights = await privateTargetsOf(db, rows, policy);
  return rows.map((r, i) => ({
    tenantId: r.tenantId,
    privateTargets: rights[i]!,
    serverId: r.id,
    name: r.name,
    configHash: r.configHash,
    pollIntervalSeconds: r.pollIntervalSeconds,
    ...(r.session?.eraVerdict && r.session.verdictFor === r.configHash ? { verdict: r.session.eraVerdict as EraVerdict } : {}),
    config: configFromRow(key, r),
    auth: authFromRow(key, r),
  }));
}

/**
 * What the scheduler compares on every tick: enabled servers among `ids`, their config hashes (no
 * secrets) and their right to private targets (a team that loses it has its sessions restarted).
 */
export async function listServerHeads(db: Db, ids: string[], policy: PrivateTargetsPolicy): Promise<Array<{ serverId: string; configHash: string; privateTargets: boolean }>> {
  if (ids.length === 0) return [];
  const rows = await db.mcpServer.findMany({ where: { enabled: true, id: { in: ids } }, select: { id: true, configHash: true, tenantId: true, demoKey: true } });
  const rights = await privateTargetsOf(db, rows, policy);
  return rows.map((r, i) => ({ serverId: r.id, configHash: r.configHash, privateTargets: rights[i]! }));
}
