// Isomorphic (no I/O): a view's filters as URL query parameters and back, so any state of the
// fleet page can be bookmarked and a saved view opened by link. Parsing never throws: a value
// that is unknown or malformed (an old bookmark, a hand-edited URL) is dropped on its own and
// everything else still applies.
//
//   ?tag=prod,vendor:github&status=live,degraded&transport=stdio&q=git
//   &kind=tool_changed&severity=critical,high&range=7d   (or &from=<ISO>&to=<ISO>)
//   &cols=name,status,alerts&sort=toolCount&dir=desc
//
// Lists are comma-separated: enum values and server tags (letters, digits and . _ : / -) never
// hold a comma, so a filter tag that does could match no server anyway.
import { z } from "zod";
import { ALERT_KINDS, ALERT_SEVERITIES } from "@/lib/alerts/alert-dto";
import { RELATIVE_RANGE, SERVER_STATUSES, SORT_KEYS, VIEW_COLUMNS, VIEW_TRANSPORTS, ViewFilters } from "./view-input";

export const VIEW_URL_KEYS = ["tag", "status", "transport", "q", "kind", "severity", "range", "from", "to", "cols", "sort", "dir"] as const;
export type ViewUrlKey = (typeof VIEW_URL_KEYS)[number];
/** One string (or nothing) per key: what useQueryStates holds and what a serializer writes. */
export type ViewUrlParams = Record<ViewUrlKey, string | null>;

type ParamSource = URLSearchParams | Partial<Record<string, string | string[] | null | undefined>>;

const MAX_TAGS = 50;
const MAX_TAG_LENGTH = 100;
const MAX_QUERY_LENGTH = 200;
/** As the schema accepts them: an ISO date-time with Z or an offset. */
const ISO_DATETIME = z.iso.datetime({ offset: true });

function read(source: ParamSource, key: ViewUrlKey): string | null {
  const value = source instanceof URLSearchParams ? source.get(key) : source[key];
  const first = Array.isArray(value) ? value[0] : value;
  return typeof first === "string" ? first : null;
}

/** "a,b,,a" → ["a","b"]: trimmed, blanks and repeats dropped, order kept. */
function readList(source: ParamSource, key: ViewUrlKey): string[] {
  const raw = read(source, key);
  if (!raw) return [];
  return [...new Set(raw.split(",").map((v) => v.trim()).filter(Boolean))];
}

function readEnumList<T extends string>(source: ParamSource, key: ViewUrlKey, allowed: readonly T[]): T[] | undefined {
  const values = readList(source, key).filter((v): v is T => (allowed as readonly string[]).includes(v));
  return values.length ? values : undefined;
}

function readTimeRange(source: ParamSource): ViewFilters["timeRange"] {
  const relative = read(source, "range")?.trim();
  if (relative && RELATIVE_RANGE.test(relative)) return relative;
  const iso = (key: ViewUrlKey) => {
    const v = read(source, key)?.trim();
    return v && ISO_DATETIME.safeParse(v).success ? v : undefined;
  };
  const from = iso("from");
  const to = iso("to");
  if (from && to && Date.parse(from) > Date.parse(to)) return undefined;
  if (!from && !to) return undefined;
  return { ...(from ? { from } : {}), ...(to ? { to } : {}) };
}

/** URL → filters. Unknown keys are not ours (e.g. `view`) and are ignored. */
export function parseViewUrl(source: ParamSource): ViewFilters {
  const tags = readList(source, "tag")
    .filter((t) => t.length <= MAX_TAG_LENGTH)
    .slice(0, MAX_TAGS);
  const statuses = readEnumList(source, "status", SERVER_STATUSES);
  const transports = readEnumList(source, "transport", VIEW_TRANSPORTS);
  const query = read(source, "q")?.trim().slice(0, MAX_QUERY_LENGTH);
  const servers = {
    ...(tags.length ? { tags } : {}),
    ...(statuses ? { statuses } : {}),
    ...(transports ? { transports } : {}),
    ...(query ? { query } : {}),
  };
  const kinds = readEnumList(source, "kind", ALERT_KINDS);
  const severities = readEnumList(source, "severity", ALERT_SEVERITIES);
  const alerts = { ...(kinds ? { kinds } : {}), ...(severities ? { severities } : {}) };
  const timeRange = readTimeRange(source);
  const columns = readEnumList(source, "cols", VIEW_COLUMNS);
  const by = read(source, "sort");
  const sortBy = SORT_KEYS.find((k) => k === by);
  const filters = {
    ...(Object.keys(servers).length ? { servers } : {}),
    ...(Object.keys(alerts).length ? { alerts } : {}),
    ...(timeRange ? { timeRange } : {}),
    ...(columns ? { columns } : {}),
    ...(sortBy ? { sort: { by: sortBy, dir: read(source, "dir") === "desc" ? ("desc" as const) : ("asc" as const) } } : {}),
  };
  // Everything above is valid by construction; the schema is the last word all the same.
  const checked = ViewFilters.safeParse(filters);
  return checked.success ? checked.data : {};
}

const list = (values: readonly string[] | undefined) => (values?.length ? values.join(",") : null);

/** Filters → one value per key (null: absent). `dir` is written only when descending, the default being ascending. */
export function toViewUrlParams(filters: ViewFilters): ViewUrlParams {
  const range = filters.timeRange;
  return {
    tag: list(filters.servers?.tags),
    status: list(filters.servers?.statuses),
    transport: list(filters.servers?.transports),
    q: filters.servers?.query || null,
    kind: list(filters.alerts?.kinds),
    severity: list(filters.alerts?.severities),
    range: typeof range === "string" ? range : null,
    from: typeof range === "object" ? (range.from ?? null) : null,
    to: typeof range === "object" ? (range.to ?? null) : null,
    cols: list(filters.columns),
    sort: filters.sort?.by ?? null,
    dir: filters.sort && filters.sort.dir === "desc" ? "desc" : null,
  };
}

/** "?tag=prod&status=live" (or "" for no filters), plus extra parameters such as `view`. */
export function viewSearchString(filters: ViewFilters, extra: Record<string, string | null | undefined> = {}): string {
  const qs = new URLSearchParams();
  for (const [key, value] of Object.entries({ ...toViewUrlParams(filters), ...extra })) if (value) qs.set(key, value);
  const text = qs.toString().replaceAll("%2C", ",").replaceAll("%3A", ":");
  return text ? `?${text}` : "";
}

/** Whether the URL holds any filter at all (valid or not): then the team's pinned view is not applied. */
export function hasViewUrlParams(source: ParamSource): boolean {
  return VIEW_URL_KEYS.some((key) => read(source, key) !== null);
}

/** The same filters in canonical form: list order does not change what a view shows, so it is sorted. */
export function normalizeViewFilters(filters: ViewFilters): ViewFilters {
  const sorted = <T extends string>(values: T[] | undefined) => (values?.length ? [...values].sort() : undefined);
  return parseViewUrl(
    toViewUrlParams({
      ...filters,
      servers: filters.servers && { ...filters.servers, tags: sorted(filters.servers.tags), statuses: sorted(filters.servers.statuses), transports: sorted(filters.servers.transports) },
      alerts: filters.alerts && { ...filters.alerts, kinds: sorted(filters.alerts.kinds), severities: sorted(filters.alerts.severities) },
      columns: sorted(filters.columns),
    }),
  );
}

/** Whether two filter sets show the same thing (e.g. the URL against a saved view). */
export function sameViewFilters(a: ViewFilters, b: ViewFilters): boolean {
  return viewSearchString(normalizeViewFilters(a)) === viewSearchString(normalizeViewFilters(b));
}

export function isEmptyViewFilters(filters: ViewFilters): boolean {
  return viewSearchString(filters) === "";
}
