// Isomorphic: the NOTIFY channel that wakes the worker's webhook dispatcher. Sent inside the
// transaction that queues deliveries, so the dispatcher only hears of rows it can read.
export const WEBHOOK_CHANNEL = "toolwatch_webhooks";

/** Ids only; a long list is left out (the dispatcher then sweeps every pending delivery). */
export type WebhookQueuedNotice = { type: "webhook:queued"; tenantId: string; deliveryIds?: string[] };

export const MAX_NOTICE_IDS = 50;

export function parseWebhookNotice(payload: string | undefined): WebhookQueuedNotice | null {
  if (!payload) return null;
  try {
    const value = JSON.parse(payload) as Record<string, unknown>;
    if (value.type !== "webhook:queued" || typeof value.tenantId !== "string") return null;
    const ids = Array.isArray(value.deliveryIds) ? value.deliveryIds.filter((id): id is string => typeof id === "string") : undefined;
    return { type: "webhook:queued", tenantId: value.tenantId, ...(ids ? { deliveryIds: ids } : {}) };
  } catch {
    return null;
  }
}
