"use client";

import Link from "next/link";
import type { Overview } from "@/lib/overview/overview-dto";
import { alertHref, diffHref, serverHref } from "@/app/_lib/links";
import { kindLabel } from "@/app/_components/alerts/labels";
import { SeverityBadge } from "@/app/_components/alerts/SeverityBadge";
import { ChangeCounts } from "@/app/_components/ChangeCounts";
import { LevelBadge } from "@/app/_components/LevelBadge";
import { RelativeTime } from "@/app/_components/RelativeTime";
import { VisibleText } from "@/app/_components/VisibleText";

// Server names, tool names and alert titles come from MCP servers: shown as text (VisibleText), never HTML.

/** The newest changes and alerts, refetched on every realtime event of the team. */
export function LatestFeed({ changes, alerts }: { changes: Overview["latestChanges"]; alerts: Overview["latestAlerts"] }) {
  return (
    <div className="overview-feed">
      <section className="card" aria-labelledby="latest-changes">
        <h2 id="latest-changes">Latest changes</h2>
        {changes.length === 0 ? (
          <p className="muted">No tool list has changed yet. Changes appear here the moment the worker records them.</p>
        ) : (
          <ul className="plain-list feed-list" data-testid="latest-changes">
            {changes.map((c) => (
              <li key={c.snapshotId} data-testid="feed-change">
                <Link href={diffHref(c.serverId, { to: c.snapshotId })}>
                  <VisibleText text={c.serverName} />
                </Link>{" "}
                <ChangeCounts added={c.added} removed={c.removed} changed={c.changed} renamed={0} /> <LevelBadge level={c.highest} />
                <span className="feed-meta muted small">
                  {c.toolCount} tools · <RelativeTime iso={c.takenAt} />
                </span>
              </li>
            ))}
          </ul>
        )}
      </section>
      <section className="card" aria-labelledby="latest-alerts">
        <h2 id="latest-alerts">Latest alerts</h2>
        {alerts.length === 0 ? (
          <p className="muted">No alerts yet. Toolwatch opens one when a tool changes in a way that needs a look.</p>
        ) : (
          <ul className="plain-list feed-list" data-testid="latest-alerts">
            {alerts.map((a) => (
              <li key={a.id} data-testid="feed-alert">
                <SeverityBadge severity={a.severity} />{" "}
                <Link href={alertHref(a.id)}>
                  <VisibleText text={a.title} />
                </Link>
                <span className="feed-meta muted small">
                  {kindLabel(a.kind)} on <Link href={serverHref(a.serverId)}><VisibleText text={a.serverName} /></Link> · {a.status} ·{" "}
                  <RelativeTime iso={a.createdAt} />
                </span>
              </li>
            ))}
          </ul>
        )}
      </section>
    </div>
  );
}
