import type { Tx } from "@/lib/db";
import type { SessionStatus } from "@/lib/generated/prisma/client";
import { dedupeKeyFor, openAlert, resolveAlert } from "./alert-store";

const SYSTEM = "system";

/**
 * Alerts for a status transition, in the transaction that records it (so lease fencing covers them):
 * entering `down` opens one `server_down` (medium) — never a second while one is unresolved; coming
 * back to `live`/`polling` resolves it ("recovered") and records a `server_recovered` (info) alert that
 * is created already resolved: it shows in the history and notifies webhooks without needing action.
 * Only the recovery alert is sent to webhooks, so a recovery is one notification, not two.
 * Other transitions (degraded, stopped, connecting) leave an open `server_down` as it is.
 */
export async function alertOnStatusChange(
  tx: Tx,
  tenantId: string,
  serverId: string,
  transition: { from: SessionStatus | null; to: SessionStatus; reason: string | null; error?: { code: string; message: string } | null; at: Date },
): Promise<void> {
  const { to, reason, at } = transition;
  if (to !== "down" && to !== "live" && to !== "polling") return;
  const open = await tx.alert.findFirst({
    where: { tenantId, serverId, dedupeKey: dedupeKeyFor("server_down", null), status: { not: "resolved" } },
    select: { id: true, serverId: true, createdAt: true },
  });
  if (to === "down" ? open : !open) return;
  const server = await tx.mcpServer.findFirst({ where: { id: serverId, tenantId }, select: { name: true } });
  if (!server) return;
  if (!open) {
    const error = transition.error ? { code: transition.error.code, message: transition.error.message.slice(0, 2_000) } : undefined;
    await openAlert(tx, tenantId, {
      serverId,
      kind: "server_down",
      severity: "medium",
      title: `${server.name} is down`,
      details: { status: { reason, ...(error ? { error } : {}) } },
    });
    return;
  }
  await resolveAlert(tx, tenantId, open, "recovered", SYSTEM);
  await openAlert(tx, tenantId, {
    serverId,
    kind: "server_recovered",
    severity: "info",
    title: `${server.name} recovered`,
    details: { status: { reason, downSince: open.createdAt.toISOString(), downForMs: Math.max(0, at.getTime() - open.createdAt.getTime()) } },
    resolved: { resolution: "recovered", by: SYSTEM },
  });
}

/**
 * OAuth: entering `auth_required` opens one `auth_required` alert (high: the server is no longer
 * watched until someone authorizes it again); leaving it for `live`/`polling` resolves it. Also
 * called by the authorization callback, which resolves it as soon as the new tokens are stored.
 */
export async function alertOnAuthChange(tx: Tx, tenantId: string, serverId: string, change: { to: "auth_required" | "authorized"; reason: string | null }): Promise<void> {
  const open = await tx.alert.findFirst({
    where: { tenantId, serverId, dedupeKey: dedupeKeyFor("auth_required", null), status: { not: "resolved" } },
    select: { id: true, serverId: true },
  });
  if (change.to === "authorized") {
    if (open) await resolveAlert(tx, tenantId, open, "reauthorized", SYSTEM, { notify: true });
    return;
  }
  if (open) return;
  const server = await tx.mcpServer.findFirst({ where: { id: serverId, tenantId }, select: { name: true } });
  if (!server) return;
  await openAlert(tx, tenantId, {
    serverId,
    kind: "auth_required",
    severity: "high",
    title: `${server.name} needs to be authorized again (OAuth)`,
    details: { status: { reason: change.reason } },
  });
}
