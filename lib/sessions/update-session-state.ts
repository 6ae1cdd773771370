import { alertOnAuthChange, alertOnStatusChange } from "@/lib/alerts/server-status-alerts";
import type { ServiceContext } from "@/lib/context";
import { queryRows } from "@/lib/db";
import { LeaseLostError } from "@/lib/errors";
import { Prisma, type SessionStatus } from "@/lib/generated/prisma/client";
import { assertLeaseHeld } from "@/lib/workers/leases";

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

type Row = { outcome: string; from_status: SessionStatus | null; to_status: SessionStatus | null; down_open: boolean | null };

/**
 * Applies a session state change in one statement (tw_update_session): the row, and on a status
 * change a transition row (the uptime history) and the NOTIFY that tells the tenant's browsers.
 * Only the rare transitions that open or resolve a server-down alert take a second, fenced
 * transaction for the alert.
 */
// internal-writer: the worker records a session's status
export async function updateSessionState(ctx: ServiceContext, serverId: string, patch: SessionPatch): Promise<void> {
  const { status, reason, leaseHolder, connectedAt, ...rest } = patch;
  const payload = {
    tenantId: ctx.tenantId,
    serverId,
    worker: leaseHolder ?? null,
    ...rest,
    ...(status ? { status, reason: reason ?? null } : {}),
    ...(connectedAt !== undefined ? { connectedAt: connectedAt?.toISOString() ?? null } : {}),
  };
  const [row] = await queryRows<Row>(ctx.db, Prisma.sql`SELECT * FROM tw_update_session(${JSON.stringify(payload)}::jsonb)`);
  if (!row || row.outcome === "lease_lost") throw new LeaseLostError(serverId);
  if (row.outcome !== "ok" || !row.to_status) return;
  const to = row.to_status;
  const needsAlert = to === "down" ? !row.down_open : (to === "live" || to === "polling") && row.down_open === true;
  // OAuth: entering auth_required opens its alert; coming back from it resolves that alert.
  // A server never authorized yet (NOT_AUTHORIZED) waits without an alert: nothing was lost.
  const authChange = to === "auth_required" ? (patch.error?.code === "AUTH_REQUIRED" ? "auth_required" : null) : row.from_status === "auth_required" && (to === "live" || to === "polling") ? "authorized" : null;
  if (!needsAlert && !authChange) return;
  await ctx.db.$transaction(async (tx) => {
    await tx.$executeRaw`SELECT pg_advisory_xact_lock(hashtext(${serverId}))`;
    if (leaseHolder) await assertLeaseHeld(tx, serverId, leaseHolder);
    if (needsAlert) await alertOnStatusChange(tx, ctx.tenantId, serverId, { from: row.from_status, to, reason: reason ?? null, error: patch.error, at: new Date() });
    if (authChange) await alertOnAuthChange(tx, ctx.tenantId, serverId, { to: authChange, reason: reason ?? null });
  });
}
