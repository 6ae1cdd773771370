"use client";

import Link from "next/link";
import { ALERT_SEVERITIES } from "@/lib/alerts/alert-dto";
import type { Overview } from "@/lib/overview/overview-dto";
import { SERVER_STATUSES } from "@/lib/views/view-input";
import { fleetHref } from "@/app/_lib/links";
import { SeverityBadge } from "@/app/_components/alerts/SeverityBadge";
import { StatusBadge } from "@/app/_components/StatusBadge";
import { formatTokens } from "@/lib/context-tokens/encoding";

const number = (n: number) => n.toLocaleString();

/** The five numbers a team checks first; each links to the page that explains it. */
export function OverviewCards({ overview: o }: { overview: Overview }) {
  const statuses = SERVER_STATUSES.filter((s) => (o.servers.byStatus[s] ?? 0) > 0);
  const severities = ALERT_SEVERITIES.filter((s) => (o.openAlerts.bySeverity[s] ?? 0) > 0);
  return (
    <div className="overview-cards">
      <section className="card stat-card" aria-labelledby="card-servers">
        <h2 id="card-servers">Servers</h2>
        <p className="stat">
          <Link href={fleetHref("?view=all")} data-testid="overview-servers-total">
            {number(o.servers.total)}
          </Link>
        </p>
        <ul className="plain-list stat-breakdown" aria-label="Servers by status">
          {statuses.map((s) => (
            <li key={s}>
              <Link href={fleetHref(`?status=${s}`)} data-testid={`overview-status-${s}`}>
                <StatusBadge status={s} /> {number(o.servers.byStatus[s]!)}
              </Link>
            </li>
          ))}
        </ul>
      </section>
      <section className="card stat-card" aria-labelledby="card-alerts">
        <h2 id="card-alerts">Open alerts</h2>
        <p className="stat">
          <Link href="/alerts?status=open" data-testid="overview-alerts-open">
            {number(o.openAlerts.total)}
          </Link>
        </p>
        {severities.length ? (
          <ul className="plain-list stat-breakdown" aria-label="Open alerts by severity">
            {severities.map((s) => (
              <li key={s}>
                <Link href={`/alerts?status=open&severity=${s}`} data-testid={`overview-severity-${s}`}>
                  <SeverityBadge severity={s} /> {number(o.openAlerts.bySeverity[s]!)}
                </Link>
              </li>
            ))}
          </ul>
        ) : (
          <p className="muted small">Nothing waits for a review.</p>
        )}
      </section>
      <section className="card stat-card" aria-labelledby="card-changes">
        <h2 id="card-changes">Changes</h2>
        <p className="stat" data-testid="overview-changes-24h">
          {number(o.changes.last24h)}
        </p>
        <p className="muted small">
          in the last 24 h · <span data-testid="overview-changes-7d">{number(o.changes.last7d)}</span> in 7 days
        </p>
      </section>
      <section className="card stat-card" aria-labelledby="card-tools">
        <h2 id="card-tools">Tools</h2>
        <p className="stat" data-testid="overview-tools-total">
          {number(o.tools.total)}
        </p>
        <p className="muted small">in every server’s latest list</p>
      </section>
      <section className="card stat-card" aria-labelledby="card-tokens">
        <h2 id="card-tokens">Context tokens</h2>
        <p className="stat" data-testid="overview-context-tokens">
          <span title={o.contextTokens === null ? "Not measured yet" : undefined}>{formatTokens(o.contextTokens)}</span>
        </p>
        <p className="muted small">what the team’s tool lists cost a model’s context</p>
      </section>
    </div>
  );
}
