import type { ServiceContext } from "@/lib/context";
import type { Tx } from "@/lib/db";
import { AppError } from "@/lib/errors";
import { isUuid } from "@/lib/ids";
import { readerOf } from "@/lib/transaction";
import type { AlertRowWithServer } from "./alert-store";

/**
 * The only way to load an alert by id: scoped to the tenant, so another team's alert and a missing
 * one are indistinguishable (both 404). Reads inside `tx` (or the one ctx carries).
 */
export async function getAlertOrThrow(ctx: ServiceContext, alertId: string, tx?: Tx): Promise<AlertRowWithServer> {
  if (!isUuid(alertId)) throw new AppError("NOT_FOUND", "Alert not found");
  const row = await readerOf(ctx, tx).alert.findFirst({
    where: { id: alertId, tenantId: ctx.tenantId },
    include: { server: { select: { name: true } } },
  });
  if (!row) throw new AppError("NOT_FOUND", "Alert not found");
  return row;
}
