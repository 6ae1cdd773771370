import { alertOnStatusChange } from "../alerts/server-status-alerts";
import type { ServiceContext } from "../context";
import type { SessionStatus } from "../generated/prisma/client";
import { notifyInTx } from "../realtime/notify";
import { assertLeaseHeld } from "../workers/leases";

export type SessionPatch = {
  status?: SessionStatus;
  reason?: string | null;
  protocolVersion?: string | null;
  era?: string | null;
  serverInfo?: object | null;
  capabilities?: object | null;
  instructions?: string | null;
  /** null clears the last error; undefined leaves it. */
  error?: { code: string; message: string } | null;
  connectedAt?: Date | null;
  workerId?: string | null;
  transportUsed?: string | null;
  /** The era verdict and the config hash it was obtained for (a config change invalidates it). */
  verdict?: { value: object; configHash: string };
  /** When set, the write only commits while this worker holds the server's lease. */
  leaseHolder?: string;
};

/**
 * Applies a session state change; a status change also appends a transition row (the uptime
 * history), opens or resolves the server-down alert, and tells the tenant's browsers, all in one
 * transaction.
 */
export async function updateSessionState(ctx: ServiceContext, serverId: string, patch: SessionPatch): Promise<void> {
  const now = new Date();
  const { status, reason, error, serverInfo, capabilities, verdict, leaseHolder, ...rest } = patch;
  const data = {
    ...rest,
    ...(verdict ? { eraVerdict: verdict.value, verdictFor: verdict.configHash, eraVerdictAt: now } : {}),
    ...(status ? { status, statusReason: reason ?? null } : {}),
    ...(serverInfo !== undefined ? { serverInfo: serverInfo ?? undefined } : {}),
    ...(capabilities !== undefined ? { capabilities: capabilities ?? undefined } : {}),
    ...(error === null ? { lastErrorCode: null, lastError: null } : {}),
    ...(error ? { lastErrorCode: error.code, lastError: error.message.slice(0, 4000), lastErrorAt: now } : {}),
  };
  await ctx.db.$transaction(async (tx) => {
    if (leaseHolder) await assertLeaseHeld(tx, serverId, leaseHolder);
    const current = await tx.serverSession.findFirst({
      where: { serverId, tenantId: ctx.tenantId },
      select: { status: true },
    });
    await tx.serverSession.upsert({
      where: { serverId },
      create: { serverId, tenantId: ctx.tenantId, ...data },
      update: data,
    });
    if (status && status !== current?.status) {
      await tx.sessionTransition.create({
        data: { tenantId: ctx.tenantId, serverId, fromStatus: current?.status ?? null, toStatus: status, reason: reason ?? null, at: now },
      });
      await notifyInTx(tx, { type: "session:statusChanged", tenantId: ctx.tenantId, serverId, status });
      await alertOnStatusChange(tx, ctx.tenantId, serverId, { from: current?.status ?? null, to: status, reason: reason ?? null, error, at: now });
    }
  });
}
