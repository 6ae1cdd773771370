// The fleet list's query string: the fleet page's filters (lib/views/view-url.ts names) plus sort
// and paging, in the query-string names the fleet page already writes to its own URL.
import { z } from "zod";
import { DEFAULT_PAGE_LIMIT, MAX_PAGE_LIMIT } from "@/lib/pagination";
import { SERVER_STATUSES, SORT_KEYS, VIEW_TRANSPORTS } from "@/lib/views/view-input";

/** "a,b" → ["a","b"] (trimmed, blanks and repeats dropped); every value must be allowed, else a 400 naming the parameter. */
const csv = <T extends string>(allowed: readonly T[] | null, max: number, maxLength = 100) =>
  z
    .string()
    .max(5_000)
    .transform((raw, ctx) => {
      const parts = [...new Set(raw.split(",").map((v) => v.trim()).filter(Boolean))];
      const bad = parts.find((p) => (allowed ? !(allowed as readonly string[]).includes(p) : p.length > maxLength));
      if (bad !== undefined) {
        ctx.addIssue({ code: "custom", message: allowed ? `${JSON.stringify(bad)} is not one of ${allowed.join(", ")}` : `a value is longer than ${maxLength} characters` });
        return z.NEVER;
      }
      if (parts.length > max) {
        ctx.addIssue({ code: "custom", message: `at most ${max} values` });
        return z.NEVER;
      }
      return parts as T[];
    })
    .optional();

export const ListServersQuery = z
  .object({
    /** Every listed tag must be on the server. */
    tag: csv<string>(null, 50),
    status: csv(SERVER_STATUSES, SERVER_STATUSES.length),
    transport: csv(VIEW_TRANSPORTS, VIEW_TRANSPORTS.length),
    /** Case-insensitive substring of the name. */
    q: z.string().trim().max(200).optional(),
    sort: z.enum(SORT_KEYS).default("name"),
    dir: z.enum(["asc", "desc"]).default("asc"),
    limit: z.coerce.number().int().min(1, "limit is at least 1").max(MAX_PAGE_LIMIT, `limit is at most ${MAX_PAGE_LIMIT}`).default(DEFAULT_PAGE_LIMIT),
    cursor: z.string().min(1).max(2_000).optional(),
  })
  .strip();
export type ListServersQuery = z.infer<typeof ListServersQuery>;

export type ServerPageCounts = {
  /** Servers matching the filters (all pages). */
  total: number;
  /** Of those, how many per status. */
  byStatus: Partial<Record<(typeof SERVER_STATUSES)[number], number>>;
  /** Servers in the team, whatever the filters. */
  teamTotal: number;
  /** Every tag used in the team, sorted (for the tag filter's suggestions). */
  tags: string[];
};
