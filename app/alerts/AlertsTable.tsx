"use client";

import Link from "next/link";
import { alertItem } from "@/app/_components/alerts/alert-item";
import type { AlertSummary } from "@/lib/alerts/alert-dto";
import { AlertStatusBadge } from "@/app/_components/alerts/AlertStatusBadge";
import { kindLabel } from "@/app/_components/alerts/labels";
import { SeverityBadge } from "@/app/_components/alerts/SeverityBadge";
import { RelativeTime } from "@/app/_components/RelativeTime";
import { VisibleText } from "@/app/_components/VisibleText";
import { alertHref, serverHref } from "@/app/_lib/links";

type Props = {
  alerts: AlertSummary[];
  /** Checkboxes only for people who may acknowledge; only open alerts can be picked. */
  selectable: boolean;
  selected: ReadonlySet<string>;
  onToggle: (id: string, on: boolean) => void;
  onToggleAll: (on: boolean) => void;
};


export function AlertsTable({ alerts, selectable, selected, onToggle, onToggleAll }: Props) {
  const open = alerts.filter((a) => a.status === "open");
  const allPicked = open.length > 0 && open.every((a) => selected.has(a.id));
  return (
    <table className="data alerts-table" aria-label="Alerts">
      <thead>
        <tr>
          {selectable ? (
            <th scope="col" className="check-col">
              <input
                type="checkbox"
                aria-label="Select every open alert shown"
                checked={allPicked}
                disabled={open.length === 0}
                onChange={(e) => onToggleAll(e.target.checked)}
              />
            </th>
          ) : null}
          <th scope="col">Severity</th>
          <th scope="col">Kind</th>
          <th scope="col">Alert</th>
          <th scope="col">Server</th>
          <th scope="col">Tool</th>
          <th scope="col">Status</th>
          <th scope="col">Age</th>
        </tr>
      </thead>
      <tbody>
        {alerts.map((a) => (
          <tr key={a.id} data-testid="alert-row" data-alert-id={a.id} data-severity={a.severity} data-status={a.status} className={`sev-row-${a.severity}`}>
            {selectable ? (
              <td className="check-col">
                <input
                  type="checkbox"
                  aria-label={`Select alert: ${a.title}`}
                  checked={selected.has(a.id)}
                  disabled={a.status !== "open"}
                  title={a.status === "open" ? undefined : `Already ${a.status}`}
                  onChange={(e) => onToggle(a.id, e.target.checked)}
                />
              </td>
            ) : null}
            <td>
              <SeverityBadge severity={a.severity} />
            </td>
            <td className="nowrap" data-testid="alert-kind">
              {kindLabel(a.kind)}
            </td>
            <td className="alert-title-cell">
              <Link href={alertHref(a.id)} data-testid="alert-link">
                <VisibleText text={a.title} />
              </Link>
              {a.findingCount > 0 ? <div className="muted small">{a.findingCount === 1 ? "1 finding" : `${a.findingCount} findings`}</div> : null}
            </td>
            <td>
              <Link href={serverHref(a.serverId)}>
                <VisibleText text={a.serverName} />
              </Link>
            </td>
            <td>
              {a.toolName ? (
                <ItemCell serverId={a.serverId} toolName={a.toolName} />
              ) : (
                <span className="muted">—</span>
              )}
            </td>
            <td>
              <AlertStatusBadge status={a.status} />
            </td>
            <td className="nowrap">
              <RelativeTime iso={a.createdAt} />
              {a.updatedAt !== a.createdAt ? (
                <div className="muted small">
                  updated <RelativeTime iso={a.updatedAt} />
                </div>
              ) : null}
            </td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

/** The alert's item: a tool, or a prompt, resource, template or the instructions (named as such). */
function ItemCell({ serverId, toolName }: { serverId: string; toolName: string }) {
  const item = alertItem(serverId, toolName);
  return (
    <Link href={item.href} className="tool-link">
      {item.noun !== "Tool" ? <span className="tag" data-testid="alert-item-kind">{item.noun.toLowerCase()}</span> : null}{" "}
      <code>
        <VisibleText text={item.name} />
      </code>
    </Link>
  );
}
