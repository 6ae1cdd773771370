"use client";

import { useEffect, useId, useState } from "react";
import { ALERT_KINDS, ALERT_SEVERITIES } from "@/lib/alerts/alert-dto";
import { SERVER_STATUSES, VIEW_COLUMNS, VIEW_TRANSPORTS, type ViewFilters } from "@/lib/views/view-input";
import { KIND_LABELS, SEVERITY_LABELS } from "@/app/_components/alerts/labels";
import { ChipChoices, DropdownChoices } from "./Choices";
import { serverConditions } from "@/lib/views/match-servers";
import { VisibleText } from "@/app/_components/VisibleText";
import { COLUMN_LABELS, conditionLabel, rangeLabel, TRANSPORT_LABELS, visibleColumns } from "./filter-labels";
import { TagFilter } from "./TagFilter";
import { TimeRangeField } from "./TimeRangeField";

type Servers = NonNullable<ViewFilters["servers"]>;
type Alerts = NonNullable<ViewFilters["alerts"]>;
export type FiltersChange = (next: ViewFilters, options?: { debounced?: boolean }) => void;

/** Sets or clears one part of the filters, dropping what becomes empty (the URL stays short). */
function withPart<K extends keyof ViewFilters>(filters: ViewFilters, key: K, value: ViewFilters[K] | undefined): ViewFilters {
  const next = { ...filters };
  const empty = value === undefined || (Array.isArray(value) && value.length === 0) || (typeof value === "object" && !Array.isArray(value) && Object.keys(value).length === 0);
  if (empty) delete next[key];
  else next[key] = value;
  return next;
}

function withServers(filters: ViewFilters, patch: Partial<Servers>): ViewFilters {
  const servers: Servers = { ...filters.servers, ...patch };
  for (const k of Object.keys(servers) as (keyof Servers)[]) {
    const v = servers[k];
    if (v === undefined || v === "" || (Array.isArray(v) && v.length === 0)) delete servers[k];
  }
  return withPart(filters, "servers", servers);
}

function withAlerts(filters: ViewFilters, patch: Partial<Alerts>): ViewFilters {
  const alerts: Alerts = { ...filters.alerts, ...patch };
  for (const k of Object.keys(alerts) as (keyof Alerts)[]) if (!alerts[k]?.length) delete alerts[k];
  return withPart(filters, "alerts", alerts);
}

/** The filters that narrow what is shown (not the columns or the sort). */
export function clearFilters(filters: ViewFilters): ViewFilters {
  return { ...(filters.columns ? { columns: filters.columns } : {}), ...(filters.sort ? { sort: filters.sort } : {}) };
}

export const hasNarrowingFilters = (filters: ViewFilters) => Boolean(filters.servers || filters.alerts || filters.timeRange);

/** One removable chip per active filter (the name query has its own box): its words and the filters without it. */
export function activeFilterChips(filters: ViewFilters): { label: string; without: ViewFilters }[] {
  const chips = serverConditions(filters)
    .filter(({ condition }) => condition.field !== "query")
    .map(({ condition, without }) => ({ label: conditionLabel(condition), without }));
  const a = filters.alerts;
  if (a?.kinds?.length) chips.push({ label: `alerts: ${a.kinds.map((k) => KIND_LABELS[k]).join(" or ")}`, without: withAlerts(filters, { kinds: undefined }) });
  if (a?.severities?.length) chips.push({ label: `severity ${a.severities.map((v) => SEVERITY_LABELS[v]).join(" or ")}`, without: withAlerts(filters, { severities: undefined }) });
  const range = rangeLabel(filters.timeRange);
  if (range) chips.push({ label: `alerts created: ${range}`, without: withPart(filters, "timeRange", undefined) });
  return chips;
}

/**
 * A compact bar: the name box, the active filters as removable chips, and a button that opens
 * every control. Each control writes the URL at once (text after a short pause), so each state can
 * be bookmarked.
 */
export function FilterBar({ filters, knownTags, onChange }: { filters: ViewFilters; knownTags: string[]; onChange: FiltersChange }) {
  const s = filters.servers ?? {};
  const columns = visibleColumns(filters);
  const [open, setOpen] = useState(false);
  const panelId = useId();
  const chips = activeFilterChips(filters);
  return (
    <form className="filter-bar compact" role="search" aria-label="Filter the fleet" onSubmit={(e) => e.preventDefault()}>
      <div className="filter-summary">
        <NameQuery query={s.query ?? ""} onChange={(query) => onChange(withServers(filters, { query: query.trim() || undefined }), { debounced: true })} />
        <ul className="active-chips" aria-label="Active filters">
          {chips.map((chip) => (
            <li key={chip.label} className="chip on" data-testid="active-filter-chip">
              <VisibleText text={chip.label} />
              <button type="button" className="chip-remove" aria-label={`Remove filter: ${chip.label}`} title="Remove this filter" onClick={() => onChange(chip.without)}>
                ×
              </button>
            </li>
          ))}
        </ul>
        <button type="button" className="button secondary filter-toggle" aria-expanded={open} aria-controls={panelId} onClick={() => setOpen((v) => !v)}>
          {open ? "Hide filters" : "Filters"}
          {chips.length ? (
            <span className="count" aria-label={`${chips.length} active`}>
              {chips.length}
            </span>
          ) : null}
        </button>
        {hasNarrowingFilters(filters) ? (
          <button type="button" className="button secondary clear-filters" onClick={() => onChange(clearFilters(filters))}>
            Clear filters
          </button>
        ) : null}
      </div>
      {open ? (
        <div className="filter-panel" id={panelId} data-testid="filter-panel">
          <div className="filter-row">
            <TagFilter tags={s.tags ?? []} knownTags={knownTags} onChange={(tags) => onChange(withServers(filters, { tags }))} />
            <ChipChoices
              legend="Status"
              options={SERVER_STATUSES.filter((v) => v !== "pending" || s.statuses?.includes(v)).map((v) => ({ value: v, label: v }))}
              selected={s.statuses ?? []}
              onChange={(statuses) => onChange(withServers(filters, { statuses }))}
            />
            <ChipChoices
              legend="Transport"
              options={VIEW_TRANSPORTS.map((v) => ({ value: v, label: TRANSPORT_LABELS[v] }))}
              selected={s.transports ?? []}
              onChange={(transports) => onChange(withServers(filters, { transports }))}
            />
          </div>
          <div className="filter-row">
            <DropdownChoices
              label="Alert kinds"
              summary={filters.alerts?.kinds?.length ? filters.alerts.kinds.map((k) => KIND_LABELS[k]).join(", ") : "Any kind"}
              options={ALERT_KINDS.map((k) => ({ value: k, label: KIND_LABELS[k] }))}
              selected={filters.alerts?.kinds ?? []}
              onChange={(kinds) => onChange(withAlerts(filters, { kinds }))}
            />
            <ChipChoices
              legend="Alert severity"
              options={ALERT_SEVERITIES.map((v) => ({ value: v, label: SEVERITY_LABELS[v] }))}
              selected={filters.alerts?.severities ?? []}
              onChange={(severities) => onChange(withAlerts(filters, { severities }))}
            />
            <TimeRangeField range={filters.timeRange} onChange={(range) => onChange(withPart(filters, "timeRange", range))} />
            <DropdownChoices
              label="Columns"
              summary={filters.columns ? `${columns.length} of ${VIEW_COLUMNS.length}` : "Default"}
              options={VIEW_COLUMNS.map((c) => ({ value: c, label: COLUMN_LABELS[c], disabled: c === "name" }))}
              selected={columns}
              onChange={(next) => onChange(withPart(filters, "columns", next))}
              footer={
                filters.columns ? (
                  <button type="button" className="button small secondary" onClick={() => onChange(withPart(filters, "columns", undefined))}>
                    Default columns
                  </button>
                ) : null
              }
            />
          </div>
        </div>
      ) : null}
    </form>
  );
}

/** Typed text stays as typed (spaces included) while the URL holds the trimmed query. */
function NameQuery({ query, onChange }: { query: string; onChange: (query: string) => void }) {
  const id = useId();
  const [text, setText] = useState(query);
  useEffect(() => {
    // Changed from outside (clear filters, back button, a view opened): show it.
    setText((current) => (current.trim() === query ? current : query));
  }, [query]);
  return (
    <div className="filter-field">
      <label className="filter-label" htmlFor={`${id}-q`}>
        Name
      </label>
      <input
        id={`${id}-q`}
        type="search"
        value={text}
        placeholder="contains…"
        maxLength={200}
        onChange={(e) => {
          setText(e.target.value);
          onChange(e.target.value);
        }}
      />
    </div>
  );
}
