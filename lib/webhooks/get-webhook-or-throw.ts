import type { ServiceContext } from "@/lib/context";
import { AppError } from "@/lib/errors";
import type { Tx } from "@/lib/db";
import { isUuid } from "@/lib/ids";
import { readerOf } from "@/lib/transaction";

/** The only way to load a webhook by id: scoped to the tenant, so a foreign one and a missing one are both 404. Reads inside `tx` (or the one ctx carries). */
export async function getWebhookOrThrow(ctx: ServiceContext, webhookId: string, tx?: Tx) {
  if (!isUuid(webhookId)) throw new AppError("NOT_FOUND", "Webhook not found");
  const row = await readerOf(ctx, tx).webhook.findFirst({ where: { id: webhookId, tenantId: ctx.tenantId } });
  if (!row) throw new AppError("NOT_FOUND", "Webhook not found");
  return row;
}
