import { withTransaction } from "@/lib/transaction";
import { recordAudit } from "@/lib/audit-log/record-audit";
import { requirePermission } from "@/lib/auth/permissions";
import type { ServiceContext } from "@/lib/context";
import { AppError } from "@/lib/errors";
import { Prisma } from "@/lib/generated/prisma/client";
import { encryptJson, getSecretKey } from "@/lib/secrets";
import { invalidInput } from "@/lib/validation";
import { getWebhookOrThrow } from "./get-webhook-or-throw";
import { generateWebhookSecret } from "./sign";
import type { WebhookDto, WebhookWithSecret } from "./types";
import { toWebhookDto } from "./webhook-dto";
import { CreateWebhookInput, UpdateWebhookInput } from "./webhook-input";
import { maskedOrigin, sealWebhookUrl, webhookUrlOf } from "./webhook-url";
import { assertTargetAllowed } from "@/lib/network/check-target";

// The signing secret is generated here, sealed with the instance key, and returned only by
// creation and rotation. The receiver URL is sealed too (a Slack incoming-webhook URL is itself a
// credential) and only ever shown masked, creation included. The audit log gets the receiver's
// origin, never its full URL and never the secret.

/** Where deliveries go, without path or query (those may carry a token). */
const origin = (url: string) => new URL(url).origin;

export async function createWebhook(ctx: ServiceContext, raw: unknown): Promise<WebhookWithSecret> {
  requirePermission(ctx, "webhook:manage");
  const parsed = CreateWebhookInput.safeParse(raw);
  if (!parsed.success) throw invalidInput(parsed.error);
  const input = parsed.data;
  // Private and loopback receivers are the team's right (TOOLWATCH_PRIVATE_TARGETS); host names are resolved now too.
  await assertTargetAllowed(ctx, input.url);
  const key = getSecretKey();
  const secret = generateWebhookSecret();
  const row = await withNameConflict(input.name, () =>
    withTransaction(ctx, async (tx) => {
      const created = await tx.webhook.create({
        data: {
          tenantId: ctx.tenantId,
          name: input.name,
          ...sealWebhookUrl(key, input.url),
          format: input.format,
          minSeverity: input.minSeverity,
          enabled: input.enabled,
          secretEncrypted: encryptJson(key, secret),
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
  const { rotateSecret, url, ...patch } = parsed.data;
  const key = getSecretKey();
  const current = { ...row, url: currentUrl(key, row) };
  const urlChanged = url !== undefined && url !== current.url;
  // Only a new address is judged: an unchanged one was judged when saved, and the worker judges every send.
  if (urlChanged) await assertTargetAllowed(ctx, url);
  const secret = rotateSecret ? generateWebhookSecret() : undefined;
  const changed = [...(Object.keys(patch) as (keyof typeof patch)[]).filter((k) => patch[k] !== undefined && patch[k] !== current[k]), ...(urlChanged ? ["url" as const] : [])].sort();
  const updated = await withNameConflict(patch.name ?? row.name, () =>
    withTransaction(ctx, async (tx) => {
      const next = await tx.webhook.update({
        where: { id: row.id },
        data: { ...patch, ...(urlChanged ? sealWebhookUrl(key, url) : {}), ...(secret ? { secretEncrypted: encryptJson(key, secret) } : {}) },
      });
      await recordAudit(tx, ctx, "webhook.updated", { type: "webhook", id: row.id }, {
        name: next.name,
        fields: changed,
        ...(urlChanged ? { target: origin(url) } : {}),
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
  await withTransaction(ctx, async (tx) => {
    await tx.webhook.delete({ where: { id: row.id } });
    await recordAudit(tx, ctx, "webhook.deleted", { type: "webhook", id: row.id }, { name: row.name, target: maskedOrigin(toWebhookDto(row).url) });
  });
}

/** The stored receiver URL, or null when this instance's key cannot open it (any new URL then counts as a change). */
function currentUrl(key: Buffer, row: Parameters<typeof webhookUrlOf>[1]): string | null {
  try {
    return webhookUrlOf(key, row);
  } catch {
    return null;
  }
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
