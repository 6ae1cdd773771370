import { randomUUID } from "node:crypto";
import type { Tx } from "@/lib/db";
import type { Prisma } from "@/lib/generated/prisma/client";
import { buildAlertPayload } from "./payload";
import { MAX_NOTICE_IDS, WEBHOOK_CHANNEL, type WebhookQueuedNotice } from "./queue-channel";
import { floorsAdmitting, type AlertSeverityName, type WebhookEvent, type WebhookPayload } from "./types";

export type AlertNotificationOptions = {
  /** What happened; by default derived from the alert: resolved → alert.resolved, acknowledged →
   * alert.updated, open → alert.opened for a webhook that has not been told of it yet, else alert.updated. */
  event?: Exclude<WebhookEvent, "test">;
};

/**
 * Queues one pending delivery of this alert for every enabled webhook of the tenant whose
 * minSeverity admits the alert's severity, inside the caller's transaction (the alert and its
 * notifications commit together, or neither does), and wakes the dispatcher with a NOTIFY that
 * Postgres sends only on commit. Nothing is sent over the network here.
 */
export async function enqueueAlertNotifications(tx: Tx, tenantId: string, alertId: string, options: AlertNotificationOptions = {}): Promise<void> {
  const alert = await tx.alert.findFirst({
    where: { id: alertId, tenantId },
    select: { id: true, kind: true, severity: true, status: true, title: true, toolName: true, findings: true, server: { select: { id: true, name: true } } },
  });
  if (!alert) throw new Error(`enqueueAlertNotifications: alert ${alertId} not found in tenant ${tenantId}`);
  const severity = alert.severity as AlertSeverityName;
  const webhooks = await tx.webhook.findMany({
    where: { tenantId, enabled: true, minSeverity: { in: floorsAdmitting(severity) } },
    select: { id: true },
  });
  if (webhooks.length === 0) return;

  const team = await tx.tenant.findUniqueOrThrow({ where: { id: tenantId }, select: { id: true, slug: true } });
  let told = new Set<string>();
  if (!options.event && alert.status === "open") {
    const earlier = await tx.webhookDelivery.findMany({
      where: { tenantId, alertId, webhookId: { in: webhooks.map((w) => w.id) } },
      select: { webhookId: true },
      distinct: ["webhookId"],
    });
    told = new Set(earlier.map((d) => d.webhookId));
  }
  const eventFor = (webhookId: string): WebhookEvent => {
    if (options.event) return options.event;
    if (alert.status === "resolved") return "alert.resolved";
    if (alert.status === "acknowledged" || told.has(webhookId)) return "alert.updated";
    return "alert.opened";
  };

  const createdAt = new Date();
  const rows = webhooks.map((w) => {
    const id = randomUUID();
    const event = eventFor(w.id);
    const payload = buildAlertPayload({ deliveryId: id, event, createdAt, team, alert: { ...alert, severity } });
    return { id, tenantId, webhookId: w.id, alertId, event, payload };
  });
  await insertDeliveries(tx, tenantId, rows);
}

export type NewDelivery = { id: string; tenantId: string; webhookId: string; alertId: string | null; event: WebhookEvent; payload: WebhookPayload };

/** Inserts pending deliveries and NOTIFYs the dispatcher, in the caller's transaction. */
// internal-writer: the worker queues deliveries for alerts it opened
export async function insertDeliveries(tx: Tx, tenantId: string, rows: NewDelivery[]): Promise<void> {
  if (rows.length === 0) return;
  await tx.webhookDelivery.createMany({
    data: rows.map((r) => ({ ...r, status: "pending", payload: r.payload as unknown as Prisma.InputJsonValue })),
  });
  const notice: WebhookQueuedNotice = {
    type: "webhook:queued",
    tenantId,
    ...(rows.length <= MAX_NOTICE_IDS ? { deliveryIds: rows.map((r) => r.id) } : {}),
  };
  await tx.$executeRaw`SELECT pg_notify(${WEBHOOK_CHANNEL}, ${JSON.stringify(notice)})`;
}
