import { recordAudit } from "../audit-log/record-audit";
import { requirePermission } from "../auth/permissions";
import type { ServiceContext } from "../context";
import { AppError } from "../errors";
import { Prisma } from "../generated/prisma/client";
import { encryptJson, getSecretKey } from "../secrets";
import { invalidInput } from "../validation";
import { getWebhookOrThrow } from "./get-webhook-or-throw";
import { generateWebhookSecret } from "./sign";
import type { WebhookDto, WebhookWithSecret } from "./types";
import { toWebhookDto } from "./webhook-dto";
import { CreateWebhookInput, UpdateWebhookInput } from "./webhook-input";

// The signing secret is generated here, sealed with the instance key, and returned only by
// creation and rotation. The audit log gets the receiver's origin, never its full URL (a Slack
// incoming-webhook URL is itself a credential) and never the secret.

/** Where deliveries go, without path or query (those may carry a token). */
const origin = (url: string) => new URL(url).origin;

export async function createWebhook(ctx: ServiceContext, raw: unknown): Promise<WebhookWithSecret> {
  requirePermission(ctx, "webhook:manage");
  const parsed = CreateWebhookInput.safeParse(raw);
  if (!parsed.success) throw invalidInput(parsed.error);
  const input = parsed.data;
  const secret = generateWebhookSecret();
  const row = await withNameConflict(input.name, () =>
    ctx.db.$transaction(async (tx) => {
      const created = await tx.webhook.create({
        data: {
          tenantId: ctx.tenantId,
          name: input.name,
          url: input.url,
          format: input.format,
          minSeverity: input.minSeverity,
          enabled: input.enabled,
          secretEncrypted: encryptJson(getSecretKey(), secret),
        },
      });
      await recordAudit(tx, ctx, "webhook.created", { type: "webhook", id: created.id }, {
        name: input.name,
        target: origin(input.url),
        format: input.format,
        minSeverity: input.minSeverity,
        enabled: input.enabled,
      });
      return created;
    }),
  );
  return { ...toWebhookDto(row), secret };
}

/** PATCH: any field; `rotateSecret: true` replaces the secret and returns the new one this once. */
export async function updateWebhook(ctx: ServiceContext, webhookId: string, raw: unknown): Promise<WebhookDto | WebhookWithSecret> {
  requirePermission(ctx, "webhook:manage");
  const row = await getWebhookOrThrow(ctx, webhookId);
  const parsed = UpdateWebhookInput.safeParse(raw);
  if (!parsed.success) throw invalidInput(parsed.error);
  const { rotateSecret, ...patch } = parsed.data;
  const secret = rotateSecret ? generateWebhookSecret() : undefined;
  const changed = (Object.keys(patch) as (keyof typeof patch)[]).filter((k) => patch[k] !== undefined && patch[k] !== row[k]).sort();
  const updated = await withNameConflict(patch.name ?? row.name, () =>
    ctx.db.$transaction(async (tx) => {
      const next = await tx.webhook.update({
        where: { id: row.id },
        data: { ...patch, ...(secret ? { secretEncrypted: encryptJson(getSecretKey(), secret) } : {}) },
      });
      await recordAudit(tx, ctx, "webhook.updated", { type: "webhook", id: row.id }, {
        name: next.name,
        fields: changed,
        ...(patch.url && changed.includes("url") ? { target: origin(patch.url) } : {}),
        ...(secret ? { secretRotated: true } : {}),
      });
      return next;
    }),
  );
  const dto = toWebhookDto(updated);
  return secret ? { ...dto, secret } : dto;
}

/** Deletes the webhook and its delivery log; queued deliveries go with it (and are then skipped). */
export async function deleteWebhook(ctx: ServiceContext, webhookId: string): Promise<void> {
  requirePermission(ctx, "webhook:manage");
  const row = await getWebhookOrThrow(ctx, webhookId);
  await ctx.db.$transaction(async (tx) => {
    await tx.webhook.delete({ where: { id: row.id } });
    await recordAudit(tx, ctx, "webhook.deleted", { type: "webhook", id: row.id }, { name: row.name, target: origin(row.url) });
  });
}

async function withNameConflict<T>(name: string, write: () => Promise<T>): Promise<T> {
  try {
    return await write();
  } catch (error) {
    if (error instanceof Prisma.PrismaClientKnownRequestError && error.code === "P2002") {
      throw new AppError("CONFLICT", `A webhook named "${name}" already exists in this team`);
    }
    throw error;
  }
}
