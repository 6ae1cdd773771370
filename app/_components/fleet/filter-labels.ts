import type { ServerCondition } from "@/lib/views/match-servers";
import type { ViewFilters } from "@/lib/views/view-input";
import { VIEW_COLUMNS } from "@/lib/views/view-input";
import { KIND_LABELS, SEVERITY_LABELS } from "@/app/_components/alerts/labels";

// Words for a view's filters, shared by the filter bar, the empty state and the views list.

export const TRANSPORT_LABELS: Record<string, string> = { stdio: "stdio", streamable_http: "Streamable HTTP", sse: "HTTP+SSE" };

export type ViewColumn = (typeof VIEW_COLUMNS)[number];

export const COLUMN_LABELS: Record<ViewColumn, string> = {
  name: "Server",
  status: "Status",
  transport: "Transport",
  tags: "Tags",
  protocolVersion: "Protocol",
  toolCount: "Tools",
  lastChangeAt: "Last change",
  alerts: "Alerts",
};

/** The preset time ranges; a bookmarked relative range outside them is still shown. */
export const RANGE_PRESETS: { value: string; label: string }[] = [
  { value: "24h", label: "Last 24 hours" },
  { value: "7d", label: "Last 7 days" },
  { value: "30d", label: "Last 30 days" },
  { value: "12w", label: "Last 12 weeks" },
];

const UNITS: Record<string, string> = { h: "hour", d: "day", w: "week" };

export function rangeLabel(range: ViewFilters["timeRange"]): string | null {
  if (!range) return null;
  if (typeof range === "string") {
    const preset = RANGE_PRESETS.find((p) => p.value === range);
    if (preset) return preset.label;
    const n = Number(range.slice(0, -1));
    const unit = UNITS[range.slice(-1)] ?? range.slice(-1);
    return `Last ${n} ${unit}${n === 1 ? "" : "s"}`;
  }
  const when = (iso: string) => new Date(iso).toLocaleString();
  if (range.from && range.to) return `${when(range.from)} – ${when(range.to)}`;
  return range.from ? `since ${when(range.from)}` : `until ${when(range.to!)}`;
}

export function conditionLabel(condition: ServerCondition): string {
  switch (condition.field) {
    case "tags":
      return `tag ${condition.value}`;
    case "statuses":
      return `status ${condition.values.join(" or ")}`;
    case "transports":
      return `transport ${condition.values.map((t) => TRANSPORT_LABELS[t] ?? t).join(" or ")}`;
    case "query":
      return `name contains “${condition.value}”`;
  }
}

/** One short phrase per active filter, e.g. ["tag prod", "status live or degraded", "Last 7 days"]. */
export function describeFilters(filters: ViewFilters): string[] {
  const s = filters.servers ?? {};
  const parts: string[] = [];
  for (const tag of s.tags ?? []) parts.push(conditionLabel({ field: "tags", value: tag }));
  if (s.statuses?.length) parts.push(conditionLabel({ field: "statuses", values: s.statuses }));
  if (s.transports?.length) parts.push(conditionLabel({ field: "transports", values: s.transports }));
  if (s.query) parts.push(conditionLabel({ field: "query", value: s.query }));
  if (filters.alerts?.kinds?.length) parts.push(`alerts: ${filters.alerts.kinds.map((k) => KIND_LABELS[k]).join(" or ")}`);
  if (filters.alerts?.severities?.length) parts.push(`severity ${filters.alerts.severities.map((v) => SEVERITY_LABELS[v]).join(" or ")}`);
  const range = rangeLabel(filters.timeRange);
  if (range) parts.push(range);
  if (filters.sort) parts.push(`sorted by ${COLUMN_LABELS[filters.sort.by]}${filters.sort.dir === "desc" ? " ↓" : " ↑"}`);
  if (filters.columns?.length) parts.push(`${filters.columns.length} columns`);
  return parts;
}

/** What the table shows when a view names no columns: everything but alerts, unless alerts are filtered. */
export function visibleColumns(filters: ViewFilters): ViewColumn[] {
  if (filters.columns?.length) return VIEW_COLUMNS.filter((c) => c === "name" || filters.columns!.includes(c));
  const alertsFiltered = Boolean(filters.alerts?.kinds?.length || filters.alerts?.severities?.length || filters.timeRange);
  return VIEW_COLUMNS.filter((c) => c !== "alerts" || alertsFiltered);
}
