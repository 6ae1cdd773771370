import type { ServiceContext } from "../context";
import type { Tx } from "../db";
import { AppError } from "../errors";
import { isUuid } from "../ids";
import type { AlertRowWithServer } from "./alert-store";

/**
 * The only way to load an alert by id: scoped to the tenant, so another team's alert and a missing
 * one are indistinguishable (both 404). Pass `tx` to read inside a transaction.
 */
export async function getAlertOrThrow(ctx: ServiceContext, alertId: string, tx?: Tx): Promise<AlertRowWithServer> {
  if (!isUuid(alertId)) throw new AppError("NOT_FOUND", "Alert not found");
  const row = await (tx ?? ctx.db).alert.findFirst({
    where: { id: alertId, tenantId: ctx.tenantId },
    include: { server: { select: { name: true } } },
  });
  if (!row) throw new AppError("NOT_FOUND", "Alert not found");
  return row;
}
