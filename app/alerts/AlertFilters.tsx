"use client";

import Link from "next/link";
import { ALERT_KINDS, ALERT_SEVERITIES, ALERT_STATUSES } from "@/lib/alerts/alert-dto";
import { SelectField } from "@/app/_components/Field";
import { KIND_LABELS, SEVERITY_LABELS, STATUS_LABELS } from "@/app/_components/alerts/labels";
import { ACTIVE_STATUSES, ALL_STATUSES, type AlertFilters as Filters } from "@/app/_hooks/alert-queries";
import { useServersQuery } from "@/app/_hooks/queries";

type Option = { value: string; label: string };

/** A bookmarked URL may hold a value the pickers do not offer (e.g. "critical,high"): keep it selectable. */
function withCurrent(options: Option[], current: string): Option[] {
  return current && !options.some((o) => o.value === current) ? [...options, { value: current, label: current.split(",").join(" or ") }] : options;
}

const STATUS_OPTIONS: Option[] = [
  { value: ACTIVE_STATUSES, label: "Open and acknowledged" },
  ...ALERT_STATUSES.map((s) => ({ value: s, label: STATUS_LABELS[s] })),
  { value: ALL_STATUSES, label: "All" },
];
const SEVERITY_OPTIONS: Option[] = [{ value: "", label: "Any severity" }, ...ALERT_SEVERITIES.map((s) => ({ value: s, label: SEVERITY_LABELS[s] }))];
const KIND_OPTIONS: Option[] = [{ value: "", label: "Any kind" }, ...ALERT_KINDS.map((k) => ({ value: k, label: KIND_LABELS[k] }))];

/** Status, severity, kind and server; every choice rewrites the URL, so a filtered inbox can be bookmarked. */
export function AlertFilters({ filters, onChange }: { filters: Filters; onChange: (key: keyof Filters, value: string) => void }) {
  const servers = useServersQuery();
  const serverOptions: Option[] = [{ value: "", label: "Any server" }, ...(servers.data?.items ?? []).map((s) => ({ value: s.id, label: s.name }))];
  const status = filters.status ?? ACTIVE_STATUSES;
  const filtered = Boolean(filters.status || filters.severity || filters.kind || filters.serverId);
  return (
    <form className="form inline-form alert-filters" role="search" aria-label="Filter alerts" onSubmit={(e) => e.preventDefault()}>
      <SelectField label="Status" value={status} onChange={(v) => onChange("status", v === ACTIVE_STATUSES ? "" : v)} options={withCurrent(STATUS_OPTIONS, status)} />
      <SelectField label="Severity" value={filters.severity ?? ""} onChange={(v) => onChange("severity", v)} options={withCurrent(SEVERITY_OPTIONS, filters.severity ?? "")} />
      <SelectField label="Kind" value={filters.kind ?? ""} onChange={(v) => onChange("kind", v)} options={withCurrent(KIND_OPTIONS, filters.kind ?? "")} />
      <SelectField
        label="Server"
        value={filters.serverId ?? ""}
        onChange={(v) => onChange("serverId", v)}
        options={withCurrent(serverOptions, filters.serverId ?? "")}
      />
      {filtered ? (
        <div className="actions">
          <Link href="/alerts" className="button secondary">
            Clear filters
          </Link>
        </div>
      ) : null}
    </form>
  );
}
