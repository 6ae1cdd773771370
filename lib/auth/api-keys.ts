import { withTransaction } from "@/lib/transaction";
import { randomBytes } from "node:crypto";
import { z } from "zod";
import { recordAudit, actorLabel } from "@/lib/audit-log/record-audit";
import { ROLE_NAMES, type ServiceContext } from "@/lib/context";
import type { Tx } from "@/lib/db";
import { AppError } from "@/lib/errors";
import { isUuid } from "@/lib/ids";
import { hashApiKey } from "./hash-api-key";
import { parseKeyMetadata } from "./key-metadata";
import { actorRole, requirePermission, ROLE_RANK } from "./permissions";
import { invalidInput } from "@/lib/validation";

// Team API keys. A key belongs to the team and is held by a person (its creator, or whom an admin
// transferred it to: lib/auth/key-ownership.ts); it is revoked when that person leaves. Rows live in @better-auth/api-key's table and are verified by
// (lib/auth/verify-api-key.ts: hash lookup, enabled, expiry, last-used time); minting and revoking happen here so that the
// role ceiling and the audit log cannot be bypassed. The secret is returned once and never stored.
const KEY_PREFIX = "tw_";

export const CreateKeyInput = z.object({
  name: z.string().trim().min(1, "name is required").max(80),
  role: z.enum(ROLE_NAMES),
  expiresInDays: z.number().int().min(1).max(3650).nullable().optional(),
});

export type ApiKeySummary = {
  id: string;
  name: string;
  start: string;
  role: string;
  createdAt: Date;
  createdBy: string | null;
  lastUsedAt: Date | null;
  expiresAt: Date | null;
  revokedAt: string | null;
  revokedBy: string | null;
  status: "active" | "revoked" | "expired";
};

export async function createApiKey(ctx: ServiceContext, raw: unknown): Promise<ApiKeySummary & { key: string }> {
  requirePermission(ctx, "key:manage");
  // Only a signed-in person (or the operator's CLI, kind system) mints keys: a leaked key must not
  // mint itself a successor that outlives its revocation.
  if (ctx.actor.kind !== "user" && ctx.actor.kind !== "system") throw new AppError("FORBIDDEN", "API keys are created by a signed-in person, not by an API key");
  const parsed = CreateKeyInput.safeParse(raw);
  if (!parsed.success) throw invalidInput(parsed.error);
  const input = parsed.data;
  if (ROLE_RANK[input.role] > ROLE_RANK[actorRole(ctx)]) {
    throw new AppError("FORBIDDEN", `You cannot create a key with role ${input.role}: it is above your own role (${actorRole(ctx)})`);
  }
  const key = KEY_PREFIX + randomBytes(32).toString("base64url");
  const holder = ctx.actor.kind === "user" ? ctx.actor.id : null;
  const metadata = { role: input.role, createdBy: actorLabel(ctx.actor), ...(holder ? { createdByUserId: holder } : {}) };
  const row = await withTransaction(ctx, async (tx) => {
    // Serialised with the creator's removal (which deletes this row): no key minted by someone
    // who has just been removed slips past the revocation of their keys.
    if (holder) await lockMembership(tx, ctx.tenantId, holder);
    const created = await tx.apiKey.create({
      data: {
        name: input.name,
        start: key.slice(0, 8),
        prefix: KEY_PREFIX,
        key: hashApiKey(key),
        referenceId: ctx.tenantId,
        enabled: true,
        rateLimitEnabled: false,
        metadata: JSON.stringify(metadata),
        expiresAt: input.expiresInDays ? new Date(Date.now() + input.expiresInDays * 86_400_000) : null,
      },
    });
    await recordAudit(tx, ctx, "key.created", { type: "apiKey", id: created.id }, { name: input.name, role: input.role, start: created.start });
    return created;
  });
  return { ...toSummary(row), key };
}

export async function listApiKeys(ctx: ServiceContext): Promise<ApiKeySummary[]> {
  requirePermission(ctx, "key:manage");
  const rows = await ctx.db.apiKey.findMany({ where: { referenceId: ctx.tenantId }, orderBy: { createdAt: "desc" } });
  return rows.map(toSummary);
}

/** Revoking disables the key (it keeps its row, so the list still shows who made it and when). */
export async function revokeApiKey(ctx: ServiceContext, keyId: string): Promise<ApiKeySummary> {
  requirePermission(ctx, "key:manage");
  const row = isUuid(keyId) ? await ctx.db.apiKey.findFirst({ where: { id: keyId, referenceId: ctx.tenantId } }) : null;
  if (!row) throw new AppError("NOT_FOUND", "API key not found");
  const meta = parseKeyMetadata(row.metadata);
  if (meta.role && ROLE_RANK[meta.role] > ROLE_RANK[actorRole(ctx)]) {
    throw new AppError("FORBIDDEN", `You cannot revoke a key with role ${meta.role}: it is above your own role`);
  }
  if (row.enabled === false) return toSummary(row);
  const updated = await withTransaction(ctx, async (tx) => {
    const next = await tx.apiKey.update({
      where: { id: row.id },
      data: { enabled: false, metadata: JSON.stringify({ ...meta, revokedAt: new Date().toISOString(), revokedBy: actorLabel(ctx.actor) }) },
    });
    await recordAudit(tx, ctx, "key.revoked", { type: "apiKey", id: row.id }, { name: row.name, role: meta.role, start: row.start });
    return next;
  });
  return toSummary(updated);
}

/** Locks the member row (FOR SHARE) of a key's holder; refuses if they are no member any more. */
export async function lockMembership(tx: Tx, tenantId: string, userId: string): Promise<void> {
  const rows = await tx.$queryRaw<{ id: string }[]>`SELECT id FROM tenant_member WHERE tenant_id = ${tenantId}::uuid AND user_id = ${userId}::uuid FOR SHARE`;
  if (rows.length === 0) throw new AppError("FORBIDDEN", "You are no longer a member of this team");
}

export function toSummary(row: { id: string; name: string | null; start: string | null; metadata: string | null; createdAt: Date; lastRequest: Date | null; expiresAt: Date | null; enabled: boolean | null }): ApiKeySummary {
  const meta = parseKeyMetadata(row.metadata);
  const expired = row.expiresAt !== null && row.expiresAt.getTime() <= Date.now();
  return {
    id: row.id,
    name: row.name ?? "",
    start: row.start ?? "",
    role: meta.role ?? "unknown",
    createdAt: row.createdAt,
    createdBy: meta.createdBy ?? null,
    lastUsedAt: row.lastRequest,
    expiresAt: row.expiresAt,
    revokedAt: meta.revokedAt ?? null,
    revokedBy: meta.revokedBy ?? null,
    status: row.enabled === false ? "revoked" : expired ? "expired" : "active",
  };
}
