"use client";

import Link from "next/link";
import type { DeliveryStatus } from "@/lib/webhooks/types";
import { RelativeTime } from "@/app/_components/RelativeTime";
import { VisibleText } from "@/app/_components/VisibleText";
import { useDeliveriesQuery } from "@/app/_hooks/webhook-queries";

const STATUS: Record<DeliveryStatus, { label: string; className: string; title: string }> = {
  pending: { label: "pending", className: "status-pending", title: "Queued, not tried yet" },
  delivered: { label: "delivered", className: "status-live", title: "The receiver answered 2xx" },
  failed: { label: "retrying", className: "status-degraded", title: "The last attempt failed; another is scheduled" },
  dead: { label: "failed", className: "status-down", title: "Gave up: out of attempts, or the destination is refused" },
};

const EVENTS: Record<string, string> = { "alert.opened": "alert opened", "alert.updated": "alert updated", "alert.resolved": "alert resolved", test: "test" };

/** The alert a delivery was about, from the body it carries (built when it was queued). */
function payloadAlert(payload: unknown): { title: string; severity: string } | null {
  const alert = (payload as { alert?: { title?: unknown; severity?: unknown } } | null)?.alert;
  return alert && typeof alert.title === "string" ? { title: alert.title, severity: String(alert.severity ?? "") } : null;
}

/** The last 20 deliveries of one webhook, newest first; polled every few seconds while on screen. */
export function DeliveryLog({ webhookId }: { webhookId: string }) {
  const { data, error, isPending } = useDeliveriesQuery(webhookId, true);
  if (isPending) return <p className="muted small">Loading deliveries…</p>;
  if (error) return <p role="alert" className="field-error">Could not load deliveries: {error.message}</p>;
  if (data.items.length === 0) return <p className="muted small" data-testid="no-deliveries">No deliveries yet. “Send test” sends one now.</p>;
  return (
    <table className="data deliveries" aria-label="Deliveries" data-testid="delivery-log">
      <thead>
        <tr>
          <th scope="col">Status</th>
          <th scope="col">Event</th>
          <th scope="col" className="num">HTTP</th>
          <th scope="col" className="num">Attempts</th>
          <th scope="col">Last error</th>
          <th scope="col">When</th>
        </tr>
      </thead>
      <tbody>
        {data.items.map((d) => {
          const s = STATUS[d.status] ?? { label: d.status, className: "status-unknown", title: d.status };
          return (
            <tr key={d.id} data-testid="delivery" data-status={d.status} data-event={d.event}>
              <td>
                <span className={`badge ${s.className}`} title={s.title} data-testid="delivery-status">
                  {s.label}
                </span>
              </td>
              <td>
                {EVENTS[d.event] ?? d.event}
                {d.alertId ? (
                  <div className="small">
                    <Link href={`/alerts/${d.alertId}`}>
                      <VisibleText text={payloadAlert(d.payload)?.title ?? "the alert"} />
                    </Link>
                    {payloadAlert(d.payload)?.severity ? <span className="muted"> · {payloadAlert(d.payload)?.severity}</span> : null}
                  </div>
                ) : null}
              </td>
              <td className="num" data-testid="delivery-code">
                {d.statusCode ?? "—"}
              </td>
              <td className="num">{d.attempts}</td>
              <td className="error-cell">{d.lastError ? <VisibleText text={d.lastError} /> : <span className="muted">—</span>}</td>
              <td className="nowrap">
                <RelativeTime iso={d.createdAt} />
                {d.deliveredAt ? (
                  <div className="muted small">
                    delivered <RelativeTime iso={d.deliveredAt} />
                  </div>
                ) : d.updatedAt !== d.createdAt ? (
                  <div className="muted small">
                    last try <RelativeTime iso={d.updatedAt} />
                  </div>
                ) : null}
              </td>
            </tr>
          );
        })}
      </tbody>
    </table>
  );
}
