import type { Webhook, WebhookDelivery } from "@/lib/generated/prisma/client";
import { displayUrl } from "./webhook-url";
import type { AlertSeverityName, DeliveryStatus, WebhookDeliveryDto, WebhookDto, WebhookFormat } from "./types";

type LastDelivery = Pick<WebhookDelivery, "id" | "event" | "status" | "statusCode" | "createdAt" | "updatedAt">;

/** A webhook as the API shows it: no signing secret, and the receiver URL masked (it is a credential). */
export function toWebhookDto(row: Webhook, last: LastDelivery | null = null): WebhookDto {
  return {
    id: row.id,
    name: row.name,
    url: displayUrl(row),
    format: row.format as WebhookFormat,
    minSeverity: row.minSeverity as AlertSeverityName,
    enabled: row.enabled,
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
    lastDelivery: last
      ? { id: last.id, event: last.event, status: last.status as DeliveryStatus, statusCode: last.statusCode, at: last.updatedAt.toISOString() }
      : null,
  };
}

export function toDeliveryDto(row: WebhookDelivery): WebhookDeliveryDto {
  return {
    id: row.id,
    webhookId: row.webhookId,
    alertId: row.alertId,
    event: row.event,
    status: row.status as DeliveryStatus,
    attempts: row.attempts,
    statusCode: row.statusCode,
    lastError: row.lastError,
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
    deliveredAt: row.deliveredAt?.toISOString() ?? null,
    payload: row.payload,
  };
}
