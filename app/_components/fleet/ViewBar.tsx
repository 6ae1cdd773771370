"use client";

import { useQueryClient } from "@tanstack/react-query";
import Link from "next/link";
import { useState } from "react";
import type { ViewFilters } from "@/lib/views/view-input";
import { api, ApiError } from "@/app/_hooks/api";
import { queryKeys } from "@/app/_hooks/queries";
import type { ViewDto } from "@/app/_hooks/view-queries";
import { ALL_SERVERS } from "@/app/_hooks/use-view-url";
import { VisibleText } from "@/app/_components/VisibleText";
import { SaveViewForm } from "./SaveViewForm";
import { FlashMessage, type Flash } from "@/app/_components/FlashMessage";
import { fleetHref } from "@/app/_lib/links";

type Props = {
  views: ViewDto[];
  /** The view the URL names, if it still exists. */
  active: ViewDto | null;
  /** The URL's filters differ from the active view's saved ones. */
  modified: boolean;
  /** The URL names a view that is gone (deleted, or another team's). */
  missing: boolean;
  filters: ViewFilters;
  canWrite: boolean;
  onOpen: (view: ViewDto) => void;
  onSaved: (view: ViewDto) => void;
};

/** Which saved view is on screen, whether the filters still match it, and saving them as a view. */
export function ViewBar({ views, active, modified, missing, filters, canWrite, onOpen, onSaved }: Props) {
  const queryClient = useQueryClient();
  const [saving, setSaving] = useState(false);
  const [updating, setUpdating] = useState(false);
  const [message, setMessage] = useState<Flash | null>(null);
  const pinned = views.find((v) => v.pinned) ?? null;

  async function updateActive() {
    if (!active) return;
    setUpdating(true);
    setMessage(null);
    try {
      await api<ViewDto>(`/api/v1/views/${encodeURIComponent(active.id)}`, { method: "PATCH", body: { filters } });
      await queryClient.invalidateQueries({ queryKey: queryKeys.views() });
      setMessage({ kind: "ok", text: `View “${active.name}” now holds these filters.` });
    } catch (e) {
      setMessage({ kind: "error", text: e instanceof ApiError ? e.message : "Could not update the view" });
    } finally {
      setUpdating(false);
    }
  }

  return (
    <>
      <div className="view-bar" data-testid="view-bar">
        <span className="view-name" data-testid="active-view">
          {active ? (
            <>
              View <strong><VisibleText text={active.name} /></strong>
              {active.pinned ? <span className="badge pinned-badge">team home</span> : null}
              {modified ? <span className="badge modified-badge">modified</span> : null}
            </>
          ) : (
            <span className="muted">{missing ? "That view no longer exists; showing its filters." : "All servers"}</span>
          )}
        </span>
        <span className="view-actions">
          {active && modified ? (
            <>
              {canWrite ? (
                <button type="button" className="button small" disabled={updating} onClick={() => void updateActive()}>
                  {updating ? "Updating…" : "Update view with current filters"}
                </button>
              ) : null}
              <button type="button" className="button small secondary" onClick={() => onOpen(active)}>
                Revert
              </button>
            </>
          ) : null}
          {canWrite && !saving ? (
            <button type="button" className="button small secondary" onClick={() => setSaving(true)}>
              Save as view
            </button>
          ) : null}
          {views.length ? (
            <select
              aria-label="Open a view"
              className="view-picker"
              value=""
              onChange={(e) => {
                const view = views.find((v) => v.id === e.target.value);
                if (view) onOpen(view);
              }}
            >
              <option value="">Open a view…</option>
              {views.map((v) => (
                <option key={v.id} value={v.id}>
                  {v.name}
                  {v.pinned ? " (team home)" : ""}
                </option>
              ))}
            </select>
          ) : null}
          {active || pinned ? <Link href={fleetHref(`?view=${ALL_SERVERS}`)}>All servers</Link> : null}
          <Link href="/views">Manage views</Link>
        </span>
        <FlashMessage message={message} />
      </div>
      {saving ? (
        <SaveViewForm
          filters={filters}
          onCancel={() => setSaving(false)}
          onSaved={(view) => {
            setSaving(false);
            setMessage({ kind: "ok", text: `Saved as “${view.name}”${view.pinned ? ", the team's home" : ""}.` });
            onSaved(view);
          }}
        />
      ) : null}
    </>
  );
}
