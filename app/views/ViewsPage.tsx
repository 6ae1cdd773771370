"use client";

import Link from "next/link";
import { useState } from "react";
import { describeFilters } from "@/app/_components/fleet/filter-labels";
import { ConfirmButton } from "@/app/_components/ConfirmButton";
import { RelativeTime } from "@/app/_components/RelativeTime";
import { VisibleText } from "@/app/_components/VisibleText";
import { ApiError } from "@/app/_hooks/api";
import { useCan } from "@/app/_hooks/queries";
import { useViewsQuery, type ViewDto } from "@/app/_hooks/view-queries";
import { openViewHref, useViewMutations, viewHref } from "./view-actions";
import { FLEET_PATH, fleetHref } from "@/app/_lib/links";

/** The team's saved views: open, rename, pin as the team's home, share, delete. */
export function ViewsPage() {
  const { data, error, isPending } = useViewsQuery();
  const canWrite = useCan()("view:write");
  const [actionError, setActionError] = useState<string | null>(null);
  return (
    <section aria-labelledby="views-heading">
      <div className="page-head">
        <h1 id="views-heading">Views</h1>
        <Link className="button secondary" href={fleetHref("?view=all")}>
          Filter the fleet
        </Link>
      </div>
      <p className="summary">
        Saved slices of the fleet, shared by the whole team. The pinned view is what everyone sees first on the fleet page.
        {canWrite ? " To add one, filter the fleet and choose “Save as view”." : " Members and above can save, change and share views."}
      </p>
      {actionError ? (
        <p className="form-error" role="alert">
          {actionError}
        </p>
      ) : null}
      {isPending ? (
        <p aria-busy="true">Loading views…</p>
      ) : error ? (
        <p role="alert">Could not load the views: {error.message}</p>
      ) : data.length === 0 ? (
        <p className="empty" data-testid="no-views">
          No saved views yet. {canWrite ? <Link href={FLEET_PATH}>Filter the fleet and save it as a view.</Link> : null}
        </p>
      ) : (
        <table className="data" aria-label="Saved views">
          <thead>
            <tr>
              <th scope="col">Name</th>
              <th scope="col">Filters</th>
              <th scope="col">Created by</th>
              <th scope="col">Updated</th>
              <th scope="col" className="actions-col">
                <span className="visually-hidden">Actions</span>
              </th>
            </tr>
          </thead>
          <tbody>
            {data.map((view) => (
              <ViewRow key={view.id} view={view} canWrite={canWrite} onError={setActionError} />
            ))}
          </tbody>
        </table>
      )}
    </section>
  );
}

function ViewRow({ view, canWrite, onError }: { view: ViewDto; canWrite: boolean; onError: (message: string | null) => void }) {
  const { update, remove } = useViewMutations();
  const [renaming, setRenaming] = useState(false);
  const [pinning, setPinning] = useState(false);
  const fail = (e: unknown, what: string) => onError(e instanceof ApiError ? e.message : `Could not ${what}`);
  const summary = describeFilters(view.filters);

  async function togglePin() {
    setPinning(true);
    onError(null);
    try {
      await update(view.id, { pinned: !view.pinned });
    } catch (e) {
      fail(e, "change the team's home");
    } finally {
      setPinning(false);
    }
  }

  return (
    <tr data-testid={`view-row-${view.name}`}>
      <th scope="row">
        {renaming ? (
          <RenameForm view={view} onDone={() => setRenaming(false)} />
        ) : (
          <>
            <Link href={openViewHref(view)}>
              <VisibleText text={view.name} />
            </Link>
            {view.pinned ? (
              <span className="badge pinned-badge" data-testid="pinned-marker" title="The team's home: shown first on the fleet page">
                team home
              </span>
            ) : null}
          </>
        )}
      </th>
      <td className="small">{summary.length ? summary.join(" · ") : <span className="muted">all servers</span>}</td>
      <td className="small">{view.createdBy}</td>
      <td>
        <RelativeTime iso={view.updatedAt} />
      </td>
      <td className="actions-col">
        <span className="row-actions">
          <Link className="button small secondary" href={openViewHref(view)}>
            Open
          </Link>
          <Link className="button small secondary" href={viewHref(view.id)}>
            {canWrite ? "Share" : "Share links"}
          </Link>
          {canWrite ? (
            <>
              <button type="button" className="button small secondary" onClick={() => setRenaming(true)} disabled={renaming}>
                Rename
              </button>
              <button type="button" className="button small secondary" onClick={() => void togglePin()} disabled={pinning}>
                {view.pinned ? "Unpin" : "Pin as home"}
              </button>
              <ConfirmButton
                label="Delete"
                question={`Delete view “${view.name}”? Its share links stop working.`}
                confirmLabel="Yes, delete"
                onConfirm={() => remove(view.id).then(() => onError(null), (e: unknown) => fail(e, "delete the view"))}
              />
            </>
          ) : null}
        </span>
      </td>
    </tr>
  );
}

function RenameForm({ view, onDone }: { view: ViewDto; onDone: () => void }) {
  const { update } = useViewMutations();
  const [name, setName] = useState(view.name);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  return (
    <form
      className="rename-form"
      onSubmit={async (e) => {
        e.preventDefault();
        setBusy(true);
        setError(null);
        try {
          await update(view.id, { name });
          onDone();
        } catch (err) {
          setError(err instanceof ApiError ? (err.fields.name ?? err.message) : "Could not rename the view");
        } finally {
          setBusy(false);
        }
      }}
    >
      <input aria-label={`New name for ${view.name}`} value={name} onChange={(e) => setName(e.target.value)} maxLength={100} autoFocus aria-invalid={Boolean(error) || undefined} />
      <button type="submit" className="button small" disabled={busy}>
        Save
      </button>
      <button type="button" className="button small secondary" onClick={onDone} disabled={busy}>
        Cancel
      </button>
      {error ? (
        <p role="alert" className="field-error">
          {error}
        </p>
      ) : null}
    </form>
  );
}
