"use client";

import Link from "next/link";
import type { AlertSummary } from "@/lib/alerts/alert-dto";
import { AlertsTable } from "@/app/alerts/AlertsTable";
import { MATCHING_ALERTS_LIMIT } from "@/app/_hooks/view-queries";

const NO_SELECTION: ReadonlySet<string> = new Set();

/** The alerts of the servers on screen that match the view's kinds, severities and time range. */
export function MatchingAlerts({ alerts, capped, loading, error, description }: { alerts: AlertSummary[]; capped: boolean; loading: boolean; error: string | null; description: string }) {
  return (
    <section id="matching-alerts" aria-labelledby="matching-alerts-heading" className="matching-alerts">
      <h2 id="matching-alerts-heading">
        Matching alerts {loading ? null : <span className="muted heading-sub">({capped ? `newest ${alerts.length}` : alerts.length})</span>}
      </h2>
      <p className="muted small">
        {description}. Any status; <Link href="/alerts">the inbox</Link> has the open ones.
      </p>
      {error ? (
        <p role="alert" className="error-box">
          Could not load the alerts: {error}
        </p>
      ) : loading ? (
        <p aria-busy="true">Loading alerts…</p>
      ) : alerts.length === 0 ? (
        <p className="muted" data-testid="no-matching-alerts">
          No alert of these servers matches.
        </p>
      ) : (
        <>
          <AlertsTable alerts={alerts} selectable={false} selected={NO_SELECTION} onToggle={() => undefined} onToggleAll={() => undefined} />
          {capped ? <p className="muted small">Only the newest {MATCHING_ALERTS_LIMIT} matching alerts of the team are considered; narrow the time range to see older ones.</p> : null}
        </>
      )}
    </section>
  );
}
