"use client";

import { useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { ConfirmButton } from "@/app/_components/ConfirmButton";
import { CopyButton } from "@/app/_components/CopyButton";
import { FormError, TextField } from "@/app/_components/Field";
import { RelativeTime } from "@/app/_components/RelativeTime";
import { api, ApiError } from "@/app/_hooks/api";
import { queryKeys } from "@/app/_hooks/queries";
import { useShareLinksQuery, type ShareLinkDto } from "@/app/_hooks/view-queries";

type CreatedLink = { id: string; token: string; url: string; expiresAt: string | null };

/** Create (members and up), list and revoke a view's share links. */
export function ShareLinks({ viewId, viewName, canWrite }: { viewId: string; viewName: string; canWrite: boolean }) {
  const [fresh, setFresh] = useState<CreatedLink | null>(null);
  return (
    <>
      {fresh ? <FreshLink link={fresh} onDone={() => setFresh(null)} /> : canWrite ? <CreateShareForm viewId={viewId} onCreated={setFresh} /> : null}
      <ShareLinksTable viewId={viewId} viewName={viewName} canWrite={canWrite} />
    </>
  );
}

function CreateShareForm({ viewId, onCreated }: { viewId: string; onCreated: (link: CreatedLink) => void }) {
  const queryClient = useQueryClient();
  const [expires, setExpires] = useState("");
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<{ message: string; field?: string | undefined } | null>(null);

  async function create() {
    setBusy(true);
    setError(null);
    try {
      // datetime-local is the browser's local time; the API wants an instant.
      const at = expires ? new Date(expires) : null;
      if (at && Number.isNaN(at.getTime())) throw new ApiError(400, "Not a date and time", null, { expiresAt: "not a date and time" });
      const link = await api<CreatedLink>(`/api/v1/views/${encodeURIComponent(viewId)}/share`, { method: "POST", body: at ? { expiresAt: at.toISOString() } : {} });
      setExpires("");
      onCreated(link);
      await queryClient.invalidateQueries({ queryKey: queryKeys.shareLinks(viewId) });
    } catch (e) {
      setError(e instanceof ApiError ? { message: e.message, field: e.fields.expiresAt } : { message: "Could not create the link" });
    } finally {
      setBusy(false);
    }
  }

  return (
    <form
      className="form inline-form share-form"
      aria-label="Create a share link"
      onSubmit={(e) => {
        e.preventDefault();
        void create();
      }}
    >
      <TextField label="Expires (optional)" type="datetime-local" value={expires} onChange={setExpires} error={error?.field} hint="Empty: the link works until it is revoked." />
      <div className="actions">
        <button type="submit" className="button" disabled={busy}>
          {busy ? "Creating…" : "Create share link"}
        </button>
      </div>
      <FormError message={error && !error.field ? error.message : null} />
    </form>
  );
}

/** The one and only time the full link is on screen: only a hash of its token is stored. */
function FreshLink({ link, onDone }: { link: CreatedLink; onDone: () => void }) {
  return (
    <section className="secret-box" aria-labelledby="fresh-link-heading" data-testid="fresh-share-link">
      <h2 id="fresh-link-heading">New share link{link.expiresAt ? ", expires " : ""}{link.expiresAt ? <RelativeTime iso={link.expiresAt} /> : null}</h2>
      <p className="secret-warning">
        <strong>Copy this link now.</strong> It is shown only once: Toolwatch keeps only a hash and cannot show it again (revoke it and create another
        if it is lost).
      </p>
      <div className="copy-row">
        <code className="secret" data-testid="fresh-share-url">
          {link.url}
        </code>
        <CopyButton text={link.url} label="Copy link" />
      </div>
      <button type="button" className="button secondary" onClick={onDone}>
        I have copied it
      </button>
    </section>
  );
}

function ShareLinksTable({ viewId, viewName, canWrite }: { viewId: string; viewName: string; canWrite: boolean }) {
  const queryClient = useQueryClient();
  const { data, error, isPending } = useShareLinksQuery(viewId);
  const [actionError, setActionError] = useState<string | null>(null);
  if (isPending) return <p aria-busy="true">Loading share links…</p>;
  if (error) return <p role="alert">Could not load the share links: {error.message}</p>;
  if (data.length === 0) return <p className="muted" data-testid="no-share-links">No share links for this view yet.</p>;

  async function revoke(link: ShareLinkDto) {
    setActionError(null);
    try {
      await api(`/api/v1/shares/${encodeURIComponent(link.id)}`, { method: "DELETE" });
    } catch (e) {
      setActionError(e instanceof ApiError ? e.message : "Could not revoke the link");
    }
    await queryClient.invalidateQueries({ queryKey: queryKeys.shareLinks(viewId) });
  }

  return (
    <>
      <h3>Links ({data.length})</h3>
      <FormError message={actionError} />
      <table className="data" aria-label={`Share links of ${viewName}`}>
        <thead>
          <tr>
            <th scope="col">Link</th>
            <th scope="col">Status</th>
            <th scope="col">Created</th>
            <th scope="col">Expires</th>
            <th scope="col">Last opened</th>
            <th scope="col" className="num">
              Opens
            </th>
            <th scope="col" className="actions-col">
              <span className="visually-hidden">Actions</span>
            </th>
          </tr>
        </thead>
        <tbody>
          {data.map((link) => (
            <tr key={link.id} data-testid="share-link-row" className={link.status === "active" ? undefined : "inactive"}>
              <td>
                <code title="The first characters of the token">/share/{link.tokenStart}…</code>
              </td>
              <td>
                <span className={`badge share-status-${link.status}`} data-testid="share-link-status">
                  {link.status}
                </span>
                {link.revokedAt ? (
                  <div className="muted small">
                    <RelativeTime iso={link.revokedAt} />
                  </div>
                ) : null}
              </td>
              <td>
                <RelativeTime iso={link.createdAt} />
                <div className="muted small">by {link.createdBy}</div>
              </td>
              <td>{link.expiresAt ? <RelativeTime iso={link.expiresAt} /> : <span className="muted">never</span>}</td>
              <td data-testid="share-link-last-access">
                <RelativeTime iso={link.lastAccessAt} never="never opened" />
              </td>
              <td className="num" data-testid="share-link-count">
                {link.accessCount}
              </td>
              <td className="actions-col">
                {canWrite && link.status === "active" ? (
                  <ConfirmButton label="Revoke" question="Revoke this link? Whoever holds it loses access at once." confirmLabel="Yes, revoke" onConfirm={() => revoke(link)} />
                ) : null}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </>
  );
}
