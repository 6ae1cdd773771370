import { requirePermission } from "@/lib/auth/permissions";
import type { ServiceContext } from "@/lib/context";
import { clientIdentityOf } from "@/lib/discovery/client-identities";
import { loadEnv } from "@/lib/env";
import { getServerOrThrow } from "@/lib/servers/get-server-or-throw";
import { loadEffectiveProbeSettings } from "./probe-settings";
import type { IdentityProbeState, ProbeOutcome } from "./types";

/** One server's identity probes: the settings that apply, each identity's last probe, the open alert. */
export async function getIdentityProbeState(ctx: ServiceContext, serverId: string): Promise<IdentityProbeState> {
  requirePermission(ctx, "team:read");
  const server = await getServerOrThrow(ctx, serverId);
  const [{ team, server: own, effective }, rows, alert] = await Promise.all([
    loadEffectiveProbeSettings(ctx, server.id, server.transport, loadEnv().TOOLWATCH_IDENTITY_PROBE_INTERVAL_MS),
    ctx.db.identityProbe.findMany({
      where: { tenantId: ctx.tenantId, serverId: server.id },
      select: { identity: true, probedAt: true, outcome: true, toolCount: true, listHash: true, referenceHash: true, error: true },
    }),
    ctx.db.alert.findFirst({ where: { tenantId: ctx.tenantId, serverId: server.id, kind: "identity_divergence", status: { not: "resolved" } }, select: { id: true } }),
  ]);
  const order = new Map(effective.identities.map((i, n) => [i.key, n]));
  const probes = rows
    .map((r) => {
      const identity = clientIdentityOf(r.identity);
      return {
        identity: r.identity,
        label: identity?.label ?? r.identity,
        clientInfo: identity?.clientInfo ?? { name: r.identity, version: "" },
        probedAt: r.probedAt.toISOString(),
        outcome: r.outcome as ProbeOutcome,
        toolCount: r.toolCount,
        listHash: r.listHash,
        referenceHash: r.referenceHash,
        error: (r.error as { code: string; message: string } | null) ?? null,
      };
    })
    .sort((a, b) => (order.get(a.identity) ?? 99) - (order.get(b.identity) ?? 99));
  return {
    settings: {
      team,
      server: own,
      effective: {
        enabled: effective.enabled,
        reason: effective.reason,
        identities: effective.identities.map((i) => ({ key: i.key, label: i.label, clientInfo: i.clientInfo })),
        intervalMinutes: Math.round(effective.intervalMs / 60_000),
      },
    },
    probes,
    alertId: alert?.id ?? null,
  };
}
