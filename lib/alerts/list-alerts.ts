import { z } from "zod";
import { requirePermission } from "@/lib/auth/permissions";
import type { ServiceContext } from "@/lib/context";
import { AppError } from "@/lib/errors";
import { isUuid } from "@/lib/ids";
import type { Prisma } from "@/lib/generated/prisma/client";
import { decodeCursor, PageParams, toPage } from "@/lib/pagination";
import { cachedServerPage } from "@/lib/servers/server-page-cache";
import { invalidInput } from "@/lib/validation";
import { ALERT_KINDS, ALERT_SEVERITIES, ALERT_STATUSES, type AlertPage } from "./alert-dto";
import { toAlertSummary } from "./alert-store";

// Filters take one value or a comma-separated list (`status=open,acknowledged` is the inbox).
const list = <T extends readonly [string, ...string[]]>(values: T) =>
  z
    .string()
    .transform((raw, ctx) => {
      const parts = raw.split(",").map((v) => v.trim()).filter(Boolean);
      const bad = parts.find((p) => !values.includes(p));
      if (parts.length === 0 || bad !== undefined) {
        ctx.addIssue({ code: "custom", message: `${JSON.stringify(bad ?? raw)} is not one of ${values.join(", ")}` });
        return z.NEVER;
      }
      return parts as T[number][];
    })
    .optional();

export const ListAlertsQuery = z.object({
  status: list(ALERT_STATUSES),
  severity: list(ALERT_SEVERITIES),
  kind: list(ALERT_KINDS),
  serverId: z.string().refine(isUuid, "serverId must be a server id").optional(),
  toolName: z.string().min(1).max(500).optional(),
  /** Created at or after / at or before (ISO date-times): a saved view's time range. */
  from: z.iso.datetime({ offset: true }).optional(),
  to: z.iso.datetime({ offset: true }).optional(),
  ...PageParams,
});

/** Newest first: (createdAt desc, id desc). */
const CURSOR_KIND = "alerts";

/** The team's alerts, newest first, filtered and paged. Viewers may read. */
export async function listAlerts(ctx: ServiceContext, rawQuery: unknown): Promise<AlertPage> {
  requirePermission(ctx, "team:read");
  const parsed = ListAlertsQuery.safeParse(rawQuery);
  if (!parsed.success) throw invalidInput(parsed.error);
  const q = parsed.data;
  if (q.from && q.to && Date.parse(q.from) > Date.parse(q.to)) {
    throw new AppError("INVALID_INPUT", "from must not be after to", { fields: { from: "must not be after to" } });
  }
  const [at, id] = q.cursor ? decodeCursor(q.cursor, CURSOR_KIND, ["date", "uuid"]) : [];
  const cursor = at && id ? { at: new Date(at as string), id: id as string } : null;
  const where: Prisma.AlertWhereInput = {
    tenantId: ctx.tenantId,
    ...(q.status ? { status: { in: q.status } } : {}),
    ...(q.severity ? { severity: { in: q.severity } } : {}),
    ...(q.kind ? { kind: { in: q.kind } } : {}),
    ...(q.serverId ? { serverId: q.serverId } : {}),
    ...(q.toolName ? { toolName: q.toolName } : {}),
    ...(q.from || q.to ? { createdAt: { ...(q.from ? { gte: new Date(q.from) } : {}), ...(q.to ? { lte: new Date(q.to) } : {}) } } : {}),
    ...(cursor ? { OR: [{ createdAt: { lt: cursor.at } }, { createdAt: cursor.at, id: { lt: cursor.id } }] } : {}),
  };
  // The inbox is polled by every open tab: a repeated query is answered from this web process's
  // memory until an alert, server or status event of the team arrives (server-page-cache.ts; every
  // alert write NOTIFYs alert:changed). The key is the parsed query, so equal filters share it.
  return cachedServerPage(ctx.tenantId, `alerts\n${JSON.stringify(q)}`, async () => {
    const rows = await ctx.db.alert.findMany({
      where,
      orderBy: [{ createdAt: "desc" }, { id: "desc" }],
      take: q.limit + 1,
      include: { server: { select: { name: true } } },
    });
    return toPage(rows, q.limit, CURSOR_KIND, (r) => [r.createdAt.toISOString(), r.id], toAlertSummary);
  });
}
