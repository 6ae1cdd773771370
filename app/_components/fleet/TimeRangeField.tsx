"use client";

import { useId, useState } from "react";
import type { ViewFilters } from "@/lib/views/view-input";
import { RANGE_PRESETS, rangeLabel } from "./filter-labels";

type Range = ViewFilters["timeRange"];

const CUSTOM = "custom";
const pad = (n: number) => String(n).padStart(2, "0");

/** ISO → the value a datetime-local input shows (the browser's time zone). */
function toLocalInput(iso: string | undefined): string {
  if (!iso) return "";
  const d = new Date(iso);
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}T${pad(d.getHours())}:${pad(d.getMinutes())}`;
}

function fromLocalInput(value: string): string | undefined {
  const time = value ? new Date(value).getTime() : NaN;
  return Number.isNaN(time) ? undefined : new Date(time).toISOString();
}

/** Which alerts count: created in the last N hours/days/weeks, or between two moments. */
export function TimeRangeField({ range, onChange }: { range: Range; onChange: (next: Range) => void }) {
  const id = useId();
  const [customPicked, setCustomPicked] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const custom = typeof range === "object" || (customPicked && !range);
  const selectValue = custom ? CUSTOM : (range ?? "");
  const presets = typeof range === "string" && !RANGE_PRESETS.some((p) => p.value === range) ? [...RANGE_PRESETS, { value: range, label: rangeLabel(range)! }] : RANGE_PRESETS;
  const absolute = typeof range === "object" ? range : {};

  function setBound(bound: "from" | "to", value: string) {
    const next = { ...absolute, [bound]: fromLocalInput(value) };
    if (!next.from) delete next.from;
    if (!next.to) delete next.to;
    if (next.from && next.to && Date.parse(next.from) > Date.parse(next.to)) {
      setError("From must be before To.");
      return;
    }
    setError(null);
    onChange(next.from || next.to ? next : undefined);
  }

  return (
    <div className="filter-field time-range">
      <label className="filter-label" htmlFor={`${id}-range`}>
        Alerts created
      </label>
      <select
        id={`${id}-range`}
        value={selectValue}
        onChange={(e) => {
          const v = e.target.value;
          setError(null);
          setCustomPicked(v === CUSTOM);
          if (v !== CUSTOM) onChange(v || undefined);
          else if (typeof range === "string") onChange(undefined);
        }}
      >
        <option value="">Any time</option>
        {presets.map((p) => (
          <option key={p.value} value={p.value}>
            {p.label}
          </option>
        ))}
        <option value={CUSTOM}>Between…</option>
      </select>
      {custom ? (
        <span className="range-bounds">
          <label>
            From <input type="datetime-local" aria-label="Alerts from" value={toLocalInput(absolute.from)} onChange={(e) => setBound("from", e.target.value)} />
          </label>
          <label>
            To <input type="datetime-local" aria-label="Alerts until" value={toLocalInput(absolute.to)} onChange={(e) => setBound("to", e.target.value)} />
          </label>
          {error ? (
            <span role="alert" className="field-error">
              {error}
            </span>
          ) : null}
        </span>
      ) : null}
    </div>
  );
}
