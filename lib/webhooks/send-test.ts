import { withTransaction } from "@/lib/transaction";
import { randomUUID } from "node:crypto";
import { recordAudit } from "@/lib/audit-log/record-audit";
import { requirePermission } from "@/lib/auth/permissions";
import type { ServiceContext } from "@/lib/context";
import { insertDeliveries } from "./enqueue";
import { getWebhookOrThrow } from "./get-webhook-or-throw";
import { buildTestPayload } from "./payload";
import type { WebhookDeliveryDto } from "./types";
import { toDeliveryDto } from "./webhook-dto";

/**
 * "Send test": queues a delivery with event "test" and a sample alert; the worker sends it like
 * any other (signed, retried, logged). Works on a disabled webhook too, to check it before enabling.
 */
export async function sendTestWebhook(ctx: ServiceContext, webhookId: string): Promise<WebhookDeliveryDto> {
  requirePermission(ctx, "webhook:manage");
  const webhook = await getWebhookOrThrow(ctx, webhookId);
  const id = randomUUID();
  const row = await withTransaction(ctx, async (tx) => {
    const team = await tx.tenant.findUniqueOrThrow({ where: { id: ctx.tenantId }, select: { id: true, slug: true } });
    const payload = buildTestPayload({ deliveryId: id, createdAt: new Date(), team });
    await insertDeliveries(tx, ctx.tenantId, [{ id, tenantId: ctx.tenantId, webhookId: webhook.id, alertId: null, event: "test", payload }]);
    await recordAudit(tx, ctx, "webhook.tested", { type: "webhook", id: webhook.id }, { name: webhook.name, deliveryId: id });
    return tx.webhookDelivery.findUniqueOrThrow({ where: { id } });
  });
  return toDeliveryDto(row);
}
