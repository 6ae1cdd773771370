import { requirePermission } from "../auth/permissions";
import type { ServiceContext } from "../context";
import { AppError } from "../errors";
import { isUuid } from "../ids";
import { invalidInput } from "../validation";
import { getWebhookOrThrow } from "./get-webhook-or-throw";
import type { Page, WebhookDeliveryDto } from "./types";
import { toDeliveryDto } from "./webhook-dto";
import { ListDeliveriesInput } from "./webhook-input";

// Cursor: "<createdAt ISO>~<id>" of the previous page's last item. Deliveries queued in one
// transaction share a createdAt, so the id breaks ties and no row is skipped or repeated.
const encodeCursor = (row: { createdAt: Date; id: string }) => Buffer.from(`${row.createdAt.toISOString()}~${row.id}`).toString("base64url");

function decodeCursor(cursor: string): { createdAt: Date; id: string } {
  const [iso, id] = Buffer.from(cursor, "base64url").toString("utf8").split("~");
  const createdAt = new Date(iso ?? "");
  if (!id || !isUuid(id) || Number.isNaN(createdAt.getTime())) {
    throw new AppError("INVALID_INPUT", "cursor: not a cursor from a previous page", { fields: { cursor: "not a cursor from a previous page" } });
  }
  return { createdAt, id };
}

/** One webhook's delivery log, newest first: status, attempts, last status code and error, times, body. */
export async function listWebhookDeliveries(ctx: ServiceContext, webhookId: string, raw: unknown): Promise<Page<WebhookDeliveryDto>> {
  requirePermission(ctx, "webhook:manage");
  const webhook = await getWebhookOrThrow(ctx, webhookId);
  const parsed = ListDeliveriesInput.safeParse(raw);
  if (!parsed.success) throw invalidInput(parsed.error);
  const { limit, cursor, status } = parsed.data;
  const after = cursor ? decodeCursor(cursor) : undefined;
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
  const page = rows.slice(0, limit);
  return { items: page.map(toDeliveryDto), nextCursor: rows.length > limit ? encodeCursor(page.at(-1)!) : null };
}
