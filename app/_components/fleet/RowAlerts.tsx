"use client";

import Link from "next/link";
import { ALERT_SEVERITIES } from "@/lib/alerts/alert-dto";
import type { SeverityCounts } from "@/lib/servers/server-dto";
import { SEVERITY_LABELS } from "@/app/_components/alerts/labels";

/** A server's open alerts as one small pill per severity, each opening the inbox filtered to them. */
export function RowAlerts({ serverId, counts }: { serverId: string; counts: SeverityCounts }) {
  const present = ALERT_SEVERITIES.filter((s) => (counts[s] ?? 0) > 0);
  if (present.length === 0) return null;
  return (
    <div className="row-alerts" data-testid="row-alerts">
      {present.map((s) => {
        const n = counts[s]!;
        // The accessible name starts with the visible text ("2 High"), as WCAG 2.5.3 asks.
        const text = `${n} ${SEVERITY_LABELS[s]} open alert${n === 1 ? "" : "s"}`;
        return (
          <Link key={s} href={`/alerts?${new URLSearchParams({ status: "open", severity: s, serverId }).toString()}`} title={text} aria-label={text}>
            <span className={`sev sev-${s}`} data-severity={s}>
              {n} {SEVERITY_LABELS[s]}
            </span>
          </Link>
        );
      })}
    </div>
  );
}
