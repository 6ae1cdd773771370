import type { AlertStatusName } from "@/lib/alerts/alert-dto";
import type { Severity } from "@/lib/detection/types";
import type { SharedViewDto } from "@/lib/views/view-dto";
import { RelativeTime } from "@/app/_components/RelativeTime";
import { VisibleText } from "@/app/_components/VisibleText";
import { AlertStatusBadge } from "@/app/_components/alerts/AlertStatusBadge";
import { kindLabel } from "@/app/_components/alerts/labels";
import { SeverityBadge } from "@/app/_components/alerts/SeverityBadge";

/** The view's alerts (its kinds, severities and time range), newest first; no review actions. */
export function SharedAlerts({ alerts, servers }: { alerts: SharedViewDto["alerts"]; servers: SharedViewDto["servers"] }) {
  if (alerts.length === 0) return <p className="muted" data-testid="shared-no-alerts">No alerts in this view.</p>;
  const serverName = new Map(servers.map((s) => [s.id, s.name]));
  return (
    <table className="data shared-alerts">
      <thead>
        <tr>
          <th scope="col">Severity</th>
          <th scope="col">Kind</th>
          <th scope="col">Alert</th>
          <th scope="col">Server</th>
          <th scope="col">Tool</th>
          <th scope="col">Status</th>
          <th scope="col">Created</th>
        </tr>
      </thead>
      <tbody>
        {alerts.map((a) => (
          <tr key={a.id} data-testid="shared-alert">
            <td>
              <SeverityBadge severity={a.severity as Severity} />
            </td>
            <td>{kindLabel(a.kind)}</td>
            <td className="details-cell">
              <VisibleText text={a.title} />
            </td>
            <td>{serverName.has(a.serverId) ? <VisibleText text={serverName.get(a.serverId)!} /> : <span className="muted">—</span>}</td>
            <td>
              {a.toolName ? (
                <code>
                  <VisibleText text={a.toolName} />
                </code>
              ) : (
                <span className="muted">—</span>
              )}
            </td>
            <td>
              <AlertStatusBadge status={a.status as AlertStatusName} />
            </td>
            <td className="nowrap">
              <RelativeTime iso={a.createdAt} />
            </td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}
