import { z } from "zod";
import { ALERT_KINDS, ALERT_SEVERITIES } from "@/lib/alerts/alert-dto";

// What a saved view stores: a slice of the fleet. Within one list any value matches (statuses
// live OR degraded); across fields every condition must hold; `tags` needs every listed tag.
export const SERVER_STATUSES = ["pending", "connecting", "live", "polling", "degraded", "down", "auth_required", "stopped"] as const;
export const VIEW_TRANSPORTS = ["stdio", "streamable_http", "sse"] as const;
export const VIEW_COLUMNS = ["name", "status", "transport", "tags", "protocolVersion", "toolCount", "lastChangeAt", "alerts"] as const;
export const SORT_KEYS = ["name", "status", "transport", "protocolVersion", "toolCount", "lastChangeAt"] as const;

const distinct = <T extends z.ZodTypeAny>(item: T, max: number) =>
  z.array(item).max(max).refine((a) => new Set(a).size === a.length, "values must not repeat");

/** "7d": the last 7 days (h hours, d days, w weeks), counted back from when the view is read. */
export const RELATIVE_RANGE = /^([1-9]\d{0,3})([hdw])$/;

const AbsoluteRange = z
  .object({ from: z.iso.datetime({ offset: true }).optional(), to: z.iso.datetime({ offset: true }).optional() })
  .strict()
  .refine((r) => !r.from || !r.to || Date.parse(r.from) <= Date.parse(r.to), { message: "from must not be after to", path: ["from"] });

export const ViewFilters = z
  .object({
    servers: z
      .object({
        tags: distinct(z.string().trim().min(1).max(100), 50).optional(),
        statuses: distinct(z.enum(SERVER_STATUSES), SERVER_STATUSES.length).optional(),
        transports: distinct(z.enum(VIEW_TRANSPORTS), VIEW_TRANSPORTS.length).optional(),
        /** Case-insensitive substring of the server name. */
        query: z.string().trim().min(1).max(200).optional(),
      })
      .strict()
      .optional(),
    alerts: z
      .object({
        kinds: distinct(z.enum(ALERT_KINDS), ALERT_KINDS.length).optional(),
        severities: distinct(z.enum(ALERT_SEVERITIES), ALERT_SEVERITIES.length).optional(),
      })
      .strict()
      .optional(),
    timeRange: z.union([AbsoluteRange, z.string().regex(RELATIVE_RANGE, 'a relative range looks like "24h", "7d" or "2w"')]).optional(),
    columns: distinct(z.enum(VIEW_COLUMNS), VIEW_COLUMNS.length).optional(),
    sort: z.object({ by: z.enum(SORT_KEYS), dir: z.enum(["asc", "desc"]).default("asc") }).strict().optional(),
  })
  .strict();
export type ViewFilters = z.infer<typeof ViewFilters>;

const Name = z.string().trim().min(1, "name is required").max(100);

export const ViewInput = z.object({ name: Name, filters: ViewFilters.default({}), pinned: z.boolean().optional() }).strict();

export const ViewPatch = z
  .object({ name: Name.optional(), filters: ViewFilters.optional(), pinned: z.boolean().optional() })
  .strict()
  .refine((p) => Object.keys(p).length > 0, "send at least one of name, filters, pinned");

export const ShareInput = z
  .object({ expiresAt: z.iso.datetime({ offset: true }).nullable().optional() })
  .strict()
  .refine((s) => !s.expiresAt || Date.parse(s.expiresAt) > Date.now(), { message: "expiresAt must be in the future", path: ["expiresAt"] });

/** The time window a range means now: alerts created inside it are shown. */
export function resolveRange(range: ViewFilters["timeRange"], now = new Date()): { from?: Date; to?: Date } {
  if (!range) return {};
  if (typeof range === "string") {
    const [, n, unit] = RELATIVE_RANGE.exec(range)!;
    const hours = Number(n) * ({ h: 1, d: 24, w: 168 } as const)[unit as "h" | "d" | "w"];
    return { from: new Date(now.getTime() - hours * 3_600_000) };
  }
  return { ...(range.from ? { from: new Date(range.from) } : {}), ...(range.to ? { to: new Date(range.to) } : {}) };
}

/** A view's stored filters, read as the views API reads them (a value that no longer parses filters nothing). */
export function storedViewFilters(stored: unknown): ViewFilters {
  const parsed = ViewFilters.safeParse(stored);
  return parsed.success ? parsed.data : {};
}
