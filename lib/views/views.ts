import { requirePermission } from "@/lib/auth/permissions";
import { actorLabel, recordAudit } from "@/lib/audit-log/record-audit";
import type { ServiceContext } from "@/lib/context";
import type { Tx } from "@/lib/db";
import { AppError } from "@/lib/errors";
import { Prisma, type SavedView } from "@/lib/generated/prisma/client";
import { isUuid } from "@/lib/ids";
import { notifyInTx } from "@/lib/realtime/notify";
import { readerOf, withTransaction } from "@/lib/transaction";
import { invalidInput } from "@/lib/validation";
import type { ViewDto } from "./view-dto";
import { storedViewFilters, ViewInput, ViewPatch } from "./view-input";

// The team's saved views: everyone in the team reads them, members and up write them.

export function toViewDto(row: SavedView): ViewDto {
  return {
    id: row.id,
    name: row.name,
    filters: storedViewFilters(row.filters),
    pinned: row.pinned,
    createdBy: row.createdBy,
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
  };
}

/** Scoped to the tenant: a foreign view and a missing one are both 404. */
export async function getViewOrThrow(ctx: ServiceContext, viewId: string, tx?: Tx): Promise<SavedView> {
  if (!isUuid(viewId)) throw new AppError("NOT_FOUND", "View not found");
  const row = await readerOf(ctx, tx).savedView.findFirst({ where: { id: viewId, tenantId: ctx.tenantId } });
  if (!row) throw new AppError("NOT_FOUND", "View not found");
  return row;
}

/** Pinned first (the team's home), then by name. */
export async function listViews(ctx: ServiceContext): Promise<ViewDto[]> {
  requirePermission(ctx, "team:read");
  const rows = await ctx.db.savedView.findMany({ where: { tenantId: ctx.tenantId }, orderBy: [{ pinned: "desc" }, { name: "asc" }] });
  return rows.map(toViewDto);
}

export async function getView(ctx: ServiceContext, viewId: string): Promise<ViewDto> {
  requirePermission(ctx, "team:read");
  return toViewDto(await getViewOrThrow(ctx, viewId));
}

export async function createView(ctx: ServiceContext, raw: unknown): Promise<ViewDto> {
  requirePermission(ctx, "view:write");
  const parsed = ViewInput.safeParse(raw);
  if (!parsed.success) throw invalidInput(parsed.error);
  const input = parsed.data;
  return withNameConflict(input.name, () =>
    withTransaction(ctx, async (tx) => {
      if (input.pinned) await unpinOthers(tx, ctx.tenantId, null);
      const row = await tx.savedView.create({
        data: { tenantId: ctx.tenantId, name: input.name, filters: input.filters as Prisma.InputJsonValue, pinned: input.pinned ?? false, createdBy: actorLabel(ctx.actor) },
      });
      await recordAudit(tx, ctx, "view.created", { type: "view", id: row.id }, { name: row.name, pinned: row.pinned });
      if (row.pinned) await recordAudit(tx, ctx, "view.pinned", { type: "view", id: row.id }, { name: row.name });
      await notifyInTx(tx, { type: "view:changed", tenantId: ctx.tenantId, viewId: row.id });
      return toViewDto(row);
    }),
  );
}

/** Renames, refilters, pins or unpins; pinning one view unpins the team's others in the same transaction. */
export async function updateView(ctx: ServiceContext, viewId: string, raw: unknown): Promise<ViewDto> {
  requirePermission(ctx, "view:write");
  const parsed = ViewPatch.safeParse(raw);
  if (!parsed.success) throw invalidInput(parsed.error);
  const patch = parsed.data;
  const current = await getViewOrThrow(ctx, viewId);
  return withNameConflict(patch.name ?? current.name, () =>
    withTransaction(ctx, async (tx) => {
      if (patch.pinned) await unpinOthers(tx, ctx.tenantId, current.id);
      const row = await tx.savedView.update({
        where: { id: current.id },
        data: {
          ...(patch.name !== undefined ? { name: patch.name } : {}),
          ...(patch.filters !== undefined ? { filters: patch.filters as Prisma.InputJsonValue } : {}),
          ...(patch.pinned !== undefined ? { pinned: patch.pinned } : {}),
        },
      });
      const fields = Object.keys(patch).filter((k) => k !== "pinned").sort();
      if (fields.length > 0) await recordAudit(tx, ctx, "view.updated", { type: "view", id: row.id }, { name: row.name, fields });
      // The team's open pages refetch their views; open share pages of this view re-read it.
      await notifyInTx(tx, { type: "view:changed", tenantId: ctx.tenantId, viewId: row.id });
      if (patch.pinned !== undefined && patch.pinned !== current.pinned) {
        await recordAudit(tx, ctx, patch.pinned ? "view.pinned" : "view.unpinned", { type: "view", id: row.id }, { name: row.name });
      }
      return toViewDto(row);
    }),
  );
}

/** Deletes a view; its share links stop working with it (cascade), open share pages at once (NOTIFY). */
export async function deleteView(ctx: ServiceContext, viewId: string): Promise<void> {
  requirePermission(ctx, "view:write");
  const row = await getViewOrThrow(ctx, viewId);
  await withTransaction(ctx, async (tx) => {
    await tx.savedView.delete({ where: { id: row.id } });
    await recordAudit(tx, ctx, "view.deleted", { type: "view", id: row.id }, { name: row.name });
    await notifyInTx(tx, { type: "view:changed", tenantId: ctx.tenantId, viewId: row.id });
  });
}

/** Locks the tenant row so two concurrent pins cannot both win, then unpins every other view. */
async function unpinOthers(tx: Tx, tenantId: string, keepId: string | null): Promise<void> {
  await tx.$queryRaw`SELECT id FROM tenant WHERE id = ${tenantId}::uuid FOR UPDATE`;
  await tx.savedView.updateMany({ where: { tenantId, pinned: true, ...(keepId ? { id: { not: keepId } } : {}) }, data: { pinned: false } });
}

async function withNameConflict<T>(name: string, write: () => Promise<T>): Promise<T> {
  try {
    return await write();
  } catch (error) {
    if (error instanceof Prisma.PrismaClientKnownRequestError && error.code === "P2002") {
      throw new AppError("CONFLICT", `A view named "${name}" already exists in this team`, { fields: { name: "already used by another view" } });
    }
    throw error;
  }
}
