import type { ServiceContext } from "../context";
import { AppError } from "../errors";
import { isUuid } from "../ids";

/** The only way to load a webhook by id: scoped to the tenant, so a foreign one and a missing one are both 404. */
export async function getWebhookOrThrow(ctx: ServiceContext, webhookId: string) {
  if (!isUuid(webhookId)) throw new AppError("NOT_FOUND", "Webhook not found");
  const row = await ctx.db.webhook.findFirst({ where: { id: webhookId, tenantId: ctx.tenantId } });
  if (!row) throw new AppError("NOT_FOUND", "Webhook not found");
  return row;
}
