import { requirePermission } from "@/lib/auth/permissions";
import type { ServiceContext } from "@/lib/context";
import { getWebhookOrThrow } from "./get-webhook-or-throw";
import type { WebhookDto } from "./types";
import { toWebhookDto } from "./webhook-dto";

const LAST_DELIVERY = { id: true, webhookId: true, event: true, status: true, statusCode: true, createdAt: true, updatedAt: true } as const;

/** The team's webhooks by name, each with its latest delivery; never a secret. */
export async function listWebhooks(ctx: ServiceContext): Promise<{ items: WebhookDto[] }> {
  requirePermission(ctx, "webhook:manage");
  const rows = await ctx.db.webhook.findMany({ where: { tenantId: ctx.tenantId }, orderBy: { name: "asc" } });
  const latest = rows.length
    ? await ctx.db.webhookDelivery.findMany({
        where: { tenantId: ctx.tenantId, webhookId: { in: rows.map((r) => r.id) } },
        orderBy: [{ createdAt: "desc" }, { id: "desc" }],
        distinct: ["webhookId"],
        select: LAST_DELIVERY,
      })
    : [];
  const byWebhook = new Map(latest.map((d) => [d.webhookId, d]));
  return { items: rows.map((r) => toWebhookDto(r, byWebhook.get(r.id) ?? null)) };
}

export async function getWebhook(ctx: ServiceContext, webhookId: string): Promise<WebhookDto> {
  requirePermission(ctx, "webhook:manage");
  const row = await getWebhookOrThrow(ctx, webhookId);
  const last = await ctx.db.webhookDelivery.findFirst({
    where: { tenantId: ctx.tenantId, webhookId: row.id },
    orderBy: [{ createdAt: "desc" }, { id: "desc" }],
    select: LAST_DELIVERY,
  });
  return toWebhookDto(row, last);
}
