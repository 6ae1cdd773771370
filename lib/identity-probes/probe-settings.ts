import { withTransaction } from "@/lib/transaction";
import { requirePermission } from "@/lib/auth/permissions";
import type { ServiceContext } from "@/lib/context";
import type { Tx } from "@/lib/db";
import { resolveIdentities, type ClientIdentity } from "@/lib/discovery/client-identities";
import { ServerProbeSettingsPatch, TeamProbeSettingsPatch } from "./settings-schema";

export { ServerProbeSettingsPatch, TeamProbeSettingsPatch };
import { Prisma, type ServerIdentityProbeSettings, type TeamIdentityProbeSettings } from "@/lib/generated/prisma/client";
import { notifyInTx } from "@/lib/realtime/notify";
import { recordAudit } from "@/lib/audit-log/record-audit";
import { invalidInput } from "@/lib/validation";

// Who decides what is probed: the team's defaults, a server's override, and the transport (a
// stdio probe starts a process, so stdio servers are off unless enabled on the server itself).

export type TeamProbeSettingsDto = { enabled: boolean; identities: string[]; intervalMinutes: number | null; probeStdio: boolean };
export type ServerProbeSettingsDto = { enabled: boolean | null; identities: string[] | null };

export type EffectiveProbeSettings = {
  enabled: boolean;
  /** Why it is on or off, in words for the server page. */
  reason: string;
  identities: ClientIdentity[];
  intervalMs: number;
};

export const teamSettingsDto = (row: TeamIdentityProbeSettings | null): TeamProbeSettingsDto => ({
  enabled: row?.enabled ?? true,
  identities: row?.identities ?? [],
  intervalMinutes: row?.intervalMinutes ?? null,
  probeStdio: row?.probeStdio ?? false,
});

export const serverSettingsDto = (row: ServerIdentityProbeSettings | null): ServerProbeSettingsDto => ({
  enabled: row?.enabled ?? null,
  identities: Array.isArray(row?.identities) ? (row.identities as string[]) : null,
});

/** Pure: what applies to one server. */
export function effectiveProbeSettings(team: TeamProbeSettingsDto, server: ServerProbeSettingsDto, transport: string, defaultIntervalMs: number): EffectiveProbeSettings {
  const identities = resolveIdentities(server.identities ?? team.identities);
  const intervalMs = team.intervalMinutes ? team.intervalMinutes * 60_000 : defaultIntervalMs;
  const base = { identities, intervalMs };
  if (server.enabled === false) return { ...base, enabled: false, reason: "turned off for this server" };
  if (server.enabled === true) return { ...base, enabled: true, reason: "turned on for this server" };
  if (!team.enabled) return { ...base, enabled: false, reason: "turned off for the team" };
  if (transport === "stdio" && !team.probeStdio) return { ...base, enabled: false, reason: "off by default for stdio servers (each probe starts a process); turn it on for this server or for the team's stdio servers" };
  if (transport === "stdio") return { ...base, enabled: true, reason: "team default (stdio servers included)" };
  return { ...base, enabled: true, reason: "team default" };
}

export async function getTeamProbeSettings(ctx: ServiceContext): Promise<TeamProbeSettingsDto> {
  requirePermission(ctx, "team:read");
  return teamSettingsDto(await ctx.db.teamIdentityProbeSettings.findUnique({ where: { tenantId: ctx.tenantId } }));
}

/** Team defaults (admins: the same right as editing servers). Workers pick them up on the next probe. */
export async function updateTeamProbeSettings(ctx: ServiceContext, raw: unknown): Promise<TeamProbeSettingsDto> {
  requirePermission(ctx, "server:write");
  const parsed = TeamProbeSettingsPatch.safeParse(raw);
  if (!parsed.success) throw invalidInput(parsed.error);
  const patch = parsed.data;
  const row = await withTransaction(ctx, async (tx) => {
    const saved = await tx.teamIdentityProbeSettings.upsert({
      where: { tenantId: ctx.tenantId },
      create: { tenantId: ctx.tenantId, enabled: patch.enabled ?? true, identities: patch.identities ?? [], intervalMinutes: patch.intervalMinutes ?? null, probeStdio: patch.probeStdio ?? false },
      update: {
        ...(patch.enabled !== undefined ? { enabled: patch.enabled } : {}),
        ...(patch.identities !== undefined ? { identities: patch.identities } : {}),
        ...(patch.intervalMinutes !== undefined ? { intervalMinutes: patch.intervalMinutes } : {}),
        ...(patch.probeStdio !== undefined ? { probeStdio: patch.probeStdio } : {}),
      },
    });
    await recordAudit(tx, ctx, "team.identity_probes_updated", { type: "team", id: ctx.tenantId }, { fields: Object.keys(patch).sort(), ...patch });
    return saved;
  });
  return teamSettingsDto(row);
}

/** A server's override, written inside the server update's transaction (PATCH /servers/{id}). */
// internal-writer: a step of updateServer, inside its transaction after it authorized and audited
export async function saveServerProbeSettings(tx: Tx, tenantId: string, serverId: string, patch: ServerProbeSettingsPatch): Promise<void> {
  const data: { enabled?: boolean | null; identities?: Prisma.InputJsonValue | typeof Prisma.DbNull } = {
    ...(patch.enabled !== undefined ? { enabled: patch.enabled } : {}),
    ...(patch.identities !== undefined ? { identities: patch.identities ?? Prisma.DbNull } : {}),
  };
  await tx.serverIdentityProbeSettings.upsert({
    where: { serverId },
    create: { serverId, tenantId, enabled: patch.enabled ?? null, identities: patch.identities ?? Prisma.DbNull },
    update: data,
  });
  await notifyInTx(tx, { type: "server:changed", tenantId, serverId });
}


/** Loads the team's and the server's settings (tenant-scoped) and resolves them. */
export async function loadEffectiveProbeSettings(ctx: Pick<ServiceContext, "db" | "tenantId">, serverId: string, transport: string, defaultIntervalMs: number) {
  const [team, server] = await Promise.all([
    ctx.db.teamIdentityProbeSettings.findUnique({ where: { tenantId: ctx.tenantId } }),
    ctx.db.serverIdentityProbeSettings.findFirst({ where: { serverId, tenantId: ctx.tenantId } }),
  ]);
  const teamDto = teamSettingsDto(team);
  const serverDto = serverSettingsDto(server);
  return { team: teamDto, server: serverDto, effective: effectiveProbeSettings(teamDto, serverDto, transport, defaultIntervalMs) };
}
