import { withTransaction } from "@/lib/transaction";
import { createHash, randomBytes } from "node:crypto";
import { requirePermission } from "@/lib/auth/permissions";
import { actorLabel, recordAudit } from "@/lib/audit-log/record-audit";
import type { ServiceContext } from "@/lib/context";
import { AppError } from "@/lib/errors";
import type { ShareLink } from "@/lib/generated/prisma/client";
import { isUuid } from "@/lib/ids";
import { notifyInTx } from "@/lib/realtime/notify";
import { invalidInput } from "@/lib/validation";
import type { CreatedShareLink, ShareLinkDto, ShareLinkStatus } from "./view-dto";
import { ShareInput } from "./view-input";
import { getViewOrThrow } from "./views";

// Read-only links to one view for people outside the team. The token (32 random bytes,
// base64url) is returned once; only its sha256 is stored, so a database leak opens no views.

/** 32 bytes as unpadded base64url: always 43 characters of [A-Za-z0-9_-]. */
export const SHARE_TOKEN = /^[A-Za-z0-9_-]{43}$/;

export const hashShareToken = (token: string): string => createHash("sha256").update(token, "utf8").digest("hex");

export function shareLinkStatus(link: Pick<ShareLink, "revokedAt" | "expiresAt">, now = new Date()): ShareLinkStatus {
  if (link.revokedAt) return "revoked";
  if (link.expiresAt && link.expiresAt.getTime() <= now.getTime()) return "expired";
  return "active";
}

function toShareLinkDto(row: ShareLink): ShareLinkDto {
  return {
    id: row.id,
    viewId: row.viewId,
    tokenStart: row.tokenStart,
    status: shareLinkStatus(row),
    createdBy: row.createdBy,
    createdAt: row.createdAt.toISOString(),
    expiresAt: row.expiresAt?.toISOString() ?? null,
    revokedAt: row.revokedAt?.toISOString() ?? null,
    lastAccessAt: row.lastAccessAt?.toISOString() ?? null,
    accessCount: row.accessCount,
  };
}

/** Mints a link to the view; the token in the result is never shown again. */
export async function createShareLink(ctx: ServiceContext, viewId: string, raw: unknown): Promise<CreatedShareLink> {
  requirePermission(ctx, "view:write");
  const parsed = ShareInput.safeParse(raw ?? {});
  if (!parsed.success) throw invalidInput(parsed.error);
  const view = await getViewOrThrow(ctx, viewId);
  const token = randomBytes(32).toString("base64url");
  const expiresAt = parsed.data.expiresAt ? new Date(parsed.data.expiresAt) : null;
  const row = await withTransaction(ctx, async (tx) => {
    const link = await tx.shareLink.create({
      data: { tenantId: ctx.tenantId, viewId: view.id, tokenHash: hashShareToken(token), tokenStart: token.slice(0, 6), expiresAt, createdBy: actorLabel(ctx.actor) },
    });
    await recordAudit(tx, ctx, "share.created", { type: "share", id: link.id }, { viewId: view.id, view: view.name, tokenStart: link.tokenStart, expiresAt: expiresAt?.toISOString() ?? null });
    // The team's open views pages list the new link.
    await notifyInTx(tx, { type: "view:changed", tenantId: ctx.tenantId, viewId: view.id });
    return link;
  });
  return { id: row.id, token, path: `/share/${token}`, expiresAt: row.expiresAt?.toISOString() ?? null };
}

/** The view's links, newest first, with creator, last access and status; never a token. */
export async function listShareLinks(ctx: ServiceContext, viewId: string): Promise<ShareLinkDto[]> {
  requirePermission(ctx, "team:read");
  const view = await getViewOrThrow(ctx, viewId);
  const rows = await ctx.db.shareLink.findMany({ where: { tenantId: ctx.tenantId, viewId: view.id }, orderBy: [{ createdAt: "desc" }, { id: "desc" }] });
  return rows.map(toShareLinkDto);
}

/**
 * Revokes a link by its token (DELETE /api/v1/shares/{token}) or by its id (from the listing).
 * Effective at once: the public endpoint checks revokedAt on every request, and the NOTIFY makes
 * every web process drop the link's live sockets (lib/realtime/node/share-sockets.ts). Revoking
 * twice is a no-op.
 */
export async function revokeShareLink(ctx: ServiceContext, tokenOrId: string): Promise<ShareLinkDto> {
  requirePermission(ctx, "view:write");
  const where = isUuid(tokenOrId) ? { id: tokenOrId } : SHARE_TOKEN.test(tokenOrId) ? { tokenHash: hashShareToken(tokenOrId) } : null;
  const link = where ? await ctx.db.shareLink.findFirst({ where: { ...where, tenantId: ctx.tenantId }, include: { view: { select: { name: true } } } }) : null;
  if (!link) throw new AppError("NOT_FOUND", "Share link not found");
  if (link.revokedAt) return toShareLinkDto(link);
  await withTransaction(ctx, async (tx) => {
    const { count } = await tx.shareLink.updateMany({ where: { id: link.id, revokedAt: null }, data: { revokedAt: new Date() } });
    if (count === 0) return;
    await recordAudit(tx, ctx, "share.revoked", { type: "share", id: link.id }, { viewId: link.viewId, view: link.view.name, tokenStart: link.tokenStart });
    await notifyInTx(tx, { type: "share:revoked", tenantId: ctx.tenantId, linkId: link.id });
  });
  return toShareLinkDto(await ctx.db.shareLink.findUniqueOrThrow({ where: { id: link.id } }));
}
