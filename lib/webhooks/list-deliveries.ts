import { requirePermission } from "@/lib/auth/permissions";
import type { ServiceContext } from "@/lib/context";
import { decodeCursor, toPage } from "@/lib/pagination";
import { invalidInput } from "@/lib/validation";
import { getWebhookOrThrow } from "./get-webhook-or-throw";
import type { Page, WebhookDeliveryDto } from "./types";
import { toDeliveryDto } from "./webhook-dto";
import { ListDeliveriesInput } from "./webhook-input";

// Newest first by (createdAt, id): deliveries queued in one transaction share a createdAt.
const CURSOR_KIND = "deliveries";

/** One webhook's delivery log, newest first: status, attempts, last status code and error, times, body. */
export async function listWebhookDeliveries(ctx: ServiceContext, webhookId: string, raw: unknown): Promise<Page<WebhookDeliveryDto>> {
  requirePermission(ctx, "webhook:manage");
  const webhook = await getWebhookOrThrow(ctx, webhookId);
  const parsed = ListDeliveriesInput.safeParse(raw);
  if (!parsed.success) throw invalidInput(parsed.error);
  const { limit, cursor, status } = parsed.data;
  const [at, id] = cursor ? decodeCursor(cursor, CURSOR_KIND, ["date", "uuid"]) : [];
  const after = at && id ? { createdAt: new Date(at as string), id: id as string } : undefined;
  const rows = await ctx.db.webhookDelivery.findMany({
    where: {
      tenantId: ctx.tenantId,
      webhookId: webhook.id,
      ...(status ? { status } : {}),
      ...(after ? { OR: [{ createdAt: { lt: after.createdAt } }, { createdAt: after.createdAt, id: { lt: after.id } }] } : {}),
    },
    orderBy: [{ createdAt: "desc" }, { id: "desc" }],
    take: limit + 1,
  });
  return toPage(rows, limit, CURSOR_KIND, (r) => [r.createdAt.toISOString(), r.id], toDeliveryDto);
}
