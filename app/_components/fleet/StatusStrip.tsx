"use client";

import type { StatusStrip as Strip } from "@/lib/servers/status-strip";
import { STATUS_LABELS } from "@/app/_components/StatusBadge";

const label = (status: string | null) => (status === null ? "no record" : (STATUS_LABELS[status] ?? status));
const clock = (ms: number) => new Date(ms).toLocaleTimeString(undefined, { hour: "2-digit", minute: "2-digit" });

/** "Last 24 h: 22 h live, 2 h down" — what a screen reader hears instead of the coloured bar. */
export function describeStrip(strip: Strip): string {
  const hours = strip.bucketMinutes / 60;
  const totals = new Map<string, number>();
  for (const s of strip.buckets) totals.set(label(s), (totals.get(label(s)) ?? 0) + hours);
  const parts = [...totals].sort((a, b) => b[1] - a[1]).map(([name, h]) => `${h} h ${name}`);
  return `Last ${strip.buckets.length * hours} h: ${parts.join(", ")}`;
}

/** The last 24 h as one coloured bucket per hour (worst status in it), oldest left; each bucket's hour and status in its tooltip. */
export function StatusStrip({ strip }: { strip: Strip }) {
  if (strip.buckets.length === 0) return null;
  const from = Date.parse(strip.from);
  const ms = strip.bucketMinutes * 60_000;
  return (
    <div className="status-strip" role="img" aria-label={describeStrip(strip)} data-testid="status-strip">
      {strip.buckets.map((s, i) => (
        <span key={i} className={`bucket s-${s ?? "none"}`} title={`${clock(from + i * ms)}–${clock(from + (i + 1) * ms)}: ${label(s)}`} />
      ))}
    </div>
  );
}
