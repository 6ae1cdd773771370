import Link from "next/link";
import { alertItem } from "@/app/_components/alerts/alert-item";
import type { AlertDetail } from "@/lib/alerts/alert-dto";
import { AlertStatusBadge } from "@/app/_components/alerts/AlertStatusBadge";
import { BASELINE_SOURCES, kindLabel, resolutionLabel, shortHash } from "@/app/_components/alerts/labels";
import { SeverityBadge } from "@/app/_components/alerts/SeverityBadge";
import { RelativeTime } from "@/app/_components/RelativeTime";
import { VisibleText } from "@/app/_components/VisibleText";
import { serverHref } from "@/app/_lib/links";

const POLICY: Record<string, string> = {
  trust_first: "trust first (a tool's first version is pinned; changes are judged against it)",
  strict: "strict (new tools need approval too)",
};

const DECISIONS: Record<string, string> = {
  "alert.acknowledged": "acknowledged",
  "alert.approved": "approved",
  "alert.rejected": "rejected",
};

function When({ iso, who }: { iso: string; who: string | null }) {
  return (
    <>
      <RelativeTime iso={iso} />
      {who ? <> by {who}</> : null}
      <span className="muted small"> · {new Date(iso).toLocaleString()}</span>
    </>
  );
}

/** Severity, kind, status, where, when, and who decided what so far (with their comments). */
export function AlertHeader({ detail }: { detail: AlertDetail }) {
  const { alert, server, baseline, decisions, details } = detail;
  return (
    <header className="alert-head" data-testid="alert-head" data-severity={alert.severity} data-status={alert.status}>
      <p className="alert-badges">
        <SeverityBadge severity={alert.severity} />
        <span className="alert-kind" data-testid="alert-kind">
          {kindLabel(alert.kind)}
        </span>
        <AlertStatusBadge status={alert.status} />
      </p>
      <h1 id="alert-heading" className="alert-title">
        <VisibleText text={alert.title} />
      </h1>
      <dl className="facts">
        <dt>Server</dt>
        <dd>
          <Link href={serverHref(server.id)} data-testid="alert-server-link">
            <VisibleText text={server.name} />
          </Link>{" "}
          <span className="muted small">audit policy: {POLICY[server.auditPolicy] ?? server.auditPolicy}</span>
        </dd>
        {alert.toolName ? (
          <>
            <dt data-testid="alert-item-kind">{alertItem(alert.serverId, alert.toolName).noun}</dt>
            <dd>
              <Link href={alertItem(alert.serverId, alert.toolName).href} className="tool-link" data-testid="alert-tool-link">
                <code>
                  <VisibleText text={alertItem(alert.serverId, alert.toolName).name} />
                </code>
              </Link>
              {baseline?.blockedHash ? <span className="badge blocked-badge">blocked</span> : null}
              {baseline ? (
                <div className="muted small">
                  Baseline: {baseline.approvedHash ? (BASELINE_SOURCES[baseline.source] ?? baseline.source) : "none approved yet"}
                  {baseline.approvedBy ? ` by ${baseline.approvedBy}` : ""}
                  {baseline.approvedAt ? (
                    <>
                      , <RelativeTime iso={baseline.approvedAt} />
                    </>
                  ) : null}
                </div>
              ) : null}
            </dd>
          </>
        ) : null}
        <dt>Opened</dt>
        <dd>
          <When iso={alert.createdAt} who={null} />
        </dd>
        {alert.updatedAt !== alert.createdAt ? (
          <>
            <dt>Last updated</dt>
            <dd>
              <RelativeTime iso={alert.updatedAt} />
            </dd>
          </>
        ) : null}
        {alert.acknowledgedAt ? (
          <>
            <dt>Acknowledged</dt>
            <dd data-testid="alert-acknowledged">
              <When iso={alert.acknowledgedAt} who={alert.acknowledgedBy} />
            </dd>
          </>
        ) : null}
        {alert.resolvedAt ? (
          <>
            <dt>Resolved</dt>
            <dd data-testid="alert-resolved">
              <When iso={alert.resolvedAt} who={alert.resolvedBy} /> — {resolutionLabel(alert.resolution)}
            </dd>
          </>
        ) : null}
        {alert.comment ? (
          <>
            <dt>Comment</dt>
            <dd className="comment">
              <VisibleText text={alert.comment} />
            </dd>
          </>
        ) : null}
        {details.classification?.reasons.length ? (
          <>
            <dt>{alert.status === "resolved" ? "Why it was raised" : "Why it needs review"}</dt>
            <dd>
              <ul className="flat-list reasons">
                {details.classification.reasons.map((r, i) => (
                  <li key={i}>
                    <VisibleText text={r} />
                  </li>
                ))}
              </ul>
            </dd>
          </>
        ) : null}
      </dl>
      {decisions.length ? (
        <section aria-labelledby="decisions-heading" className="decisions">
          <h2 id="decisions-heading">Decisions</h2>
          <ol className="flat-list" data-testid="alert-decisions">
            {decisions.map((d, i) => (
              <li key={i}>
                <strong>{d.actor}</strong> {DECISIONS[d.action] ?? d.action} <RelativeTime iso={d.at} />
                {d.hash ? (
                  <>
                    {" "}
                    <span className="muted small">
                      version <code className="hash">{shortHash(d.hash)}</code>
                    </span>
                  </>
                ) : null}
                {d.comment ? (
                  <blockquote className="comment">
                    <VisibleText text={d.comment} />
                  </blockquote>
                ) : null}
              </li>
            ))}
          </ol>
        </section>
      ) : null}
    </header>
  );
}
