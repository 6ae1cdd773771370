"use client";

import Link from "next/link";
import { RelativeTime } from "@/app/_components/RelativeTime";
import { VisibleText } from "@/app/_components/VisibleText";
import { useAuditQuery, useMeQuery } from "@/app/_hooks/queries";
import type { AuditEvent } from "@/app/_hooks/types";

const ACTIONS: Record<string, string> = {
  "team.created": "created the team",
  "team.identity_probes_updated": "changed the identity probe settings",
  "team.context_budget_updated": "changed the context budget",
  "server.created": "added a server",
  "server.updated": "edited a server",
  "server.deleted": "removed a server",
  "server.refresh_requested": "asked for a refresh",
  "server.oauth_authorize_started": "started an OAuth authorization",
  "server.oauth_authorized": "authorized the server (OAuth)",
  "member.joined": "joined",
  "member.role_changed": "changed a role",
  "member.removed": "removed a member",
  "invitation.created": "invited someone",
  "invitation.canceled": "canceled an invitation",
  "key.created": "created an API key",
  "key.revoked": "revoked an API key",
  "key.transferred": "transferred an API key",
  "alert.acknowledged": "acknowledged an alert",
  "alert.approved": "approved a change",
  "alert.rejected": "rejected a change",
  "baseline.auto_accepted": "accepted a wording-only change as the new baseline",
  "baseline.renamed": "carried a renamed tool's baseline and open alert to its new name",
  "webhook.created": "added a webhook",
  "webhook.updated": "changed a webhook",
  "webhook.deleted": "deleted a webhook",
  "webhook.tested": "sent a test delivery",
  "view.created": "saved a view",
  "view.updated": "changed a view",
  "view.deleted": "deleted a view",
  "view.pinned": "pinned a view as the team's home",
  "view.unpinned": "unpinned the team's home view",
  "share.created": "created a share link",
  "share.revoked": "revoked a share link",
};

const text = (v: unknown) => (typeof v === "string" ? v : null);

/** What the event acted on; views (and a share link's view) link to their page unless deleted. */
function Target({ event: e }: { event: AuditEvent }) {
  const details = (e.details && typeof e.details === "object" ? e.details : {}) as Record<string, unknown>;
  if (e.targetType === "view" && e.targetId) {
    const name = text(details.name) ?? e.targetId.slice(0, 8);
    if (e.action === "view.deleted") return <>view <VisibleText text={name} /></>;
    return (
      <>
        view <Link href={`/views/${encodeURIComponent(e.targetId)}`}><VisibleText text={name} /></Link>
      </>
    );
  }
  const viewId = text(details.viewId);
  if (e.targetType === "share" && viewId) {
    return (
      <>
        link {text(details.tokenStart) ?? ""}… of view{" "}
        <Link href={`/views/${encodeURIComponent(viewId)}`}>
          <VisibleText text={text(details.view) ?? viewId.slice(0, 8)} />
        </Link>
      </>
    );
  }
  return <>{e.targetType ? `${e.targetType} ${e.targetId?.slice(0, 8) ?? ""}` : "—"}</>;
}

/** The event's details as one line of text (values are user- or server-supplied: never HTML). */
function summarize(details: unknown): string {
  if (!details || typeof details !== "object") return details == null ? "" : String(details);
  return Object.entries(details as Record<string, unknown>)
    .filter(([, v]) => v !== null && v !== undefined && !(Array.isArray(v) && v.length === 0))
    .map(([k, v]) => `${k}: ${Array.isArray(v) ? v.join(", ") : typeof v === "object" ? JSON.stringify(v) : String(v)}`)
    .join(" · ");
}

export function AuditPage() {
  const { data: me } = useMeQuery();
  const can = Boolean(me?.permissions.includes("audit:read"));
  if (!me?.team) return null;
  return (
    <section aria-labelledby="audit-heading">
      <h1 id="audit-heading">Audit log</h1>
      {can ? (
        <>
          <p className="summary">Who did what in team {me.team.name}, newest first.</p>
          <AuditTable />
        </>
      ) : (
        <p role="alert">Only team owners and admins can read the audit log.</p>
      )}
    </section>
  );
}

function AuditTable() {
  const { data, error, isPending, fetchNextPage, hasNextPage, isFetchingNextPage } = useAuditQuery();
  if (isPending) return <p aria-busy="true">Loading events…</p>;
  if (error) return <p role="alert">Could not load the audit log: {error.message}</p>;
  const events: AuditEvent[] = data.pages.flatMap((p) => p.items);
  if (events.length === 0) return <p className="muted">Nothing has happened yet.</p>;
  return (
    <>
      <table className="data" aria-label="Audit events">
        <thead>
          <tr>
            <th scope="col">When</th>
            <th scope="col">Who</th>
            <th scope="col">Action</th>
            <th scope="col">Target</th>
            <th scope="col">Details</th>
          </tr>
        </thead>
        <tbody>
          {events.map((e) => (
            <tr key={e.id} data-testid="audit-row">
              <td className="nowrap">
                <RelativeTime iso={e.at} />
                <div className="muted small">{new Date(e.at).toLocaleString()}</div>
              </td>
              <td>
                {e.actor}
                {e.actorKind !== "user" ? <div className="muted small">{e.actorKind}</div> : null}
              </td>
              <td>
                <code data-testid="audit-action">{e.action}</code>
                {ACTIONS[e.action] ? <div className="muted small">{ACTIONS[e.action]}</div> : null}
              </td>
              <td className="muted small" data-testid="audit-target">
                <Target event={e} />
              </td>
              <td className="details-cell">{summarize(e.details)}</td>
            </tr>
          ))}
        </tbody>
      </table>
      {hasNextPage ? (
        <p>
          <button type="button" className="button secondary" disabled={isFetchingNextPage} onClick={() => void fetchNextPage()}>
            {isFetchingNextPage ? "Loading…" : "Load more"}
          </button>
        </p>
      ) : (
        <p className="muted small">That is everything.</p>
      )}
    </>
  );
}
