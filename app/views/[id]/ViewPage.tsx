"use client";

import Link from "next/link";
import { describeFilters } from "@/app/_components/fleet/filter-labels";
import { VisibleText } from "@/app/_components/VisibleText";
import { ApiError, useCan } from "@/app/_hooks/queries";
import { useViewQuery } from "@/app/_hooks/view-queries";
import { openViewHref } from "@/app/views/view-actions";
import { ShareLinks } from "./ShareLinks";

/** One view: what it shows, and its read-only share links for people outside the team. */
export function ViewPage({ id }: { id: string }) {
  const { data: view, error, isPending } = useViewQuery(id);
  const canWrite = useCan()("view:write");
  if (isPending) return <p aria-busy="true">Loading view…</p>;
  if (error) {
    return (
      <p role="alert">
        {error instanceof ApiError && error.status === 404 ? "This view does not exist in this team (it may have been deleted)." : `Could not load the view: ${error.message}`}{" "}
        <Link href="/views">All views</Link>
      </p>
    );
  }
  const summary = describeFilters(view.filters);
  return (
    <article aria-labelledby="view-heading">
      <p>
        <Link href="/views">← Views</Link>
      </p>
      <div className="page-head">
        <h1 id="view-heading">
          <VisibleText text={view.name} />
          {view.pinned ? <span className="badge pinned-badge">team home</span> : null}
        </h1>
        <Link className="button secondary" href={openViewHref(view)}>
          Open in the fleet
        </Link>
      </div>
      <p className="summary">
        {summary.length ? `${summary.join(" · ")}.` : "Every server of the team."} Created by {view.createdBy}.
      </p>
      <section aria-labelledby="share-heading" className="card">
        <h2 id="share-heading">Share outside the team</h2>
        <p className="muted small">
          A share link opens this view read-only, without signing in: the view&apos;s servers with their status, tools and matching alerts — never
          connection targets, secrets or anything else of the team. Anyone holding the link can open it until it expires or is revoked.
        </p>
        <ShareLinks viewId={view.id} viewName={view.name} canWrite={canWrite} />
      </section>
    </article>
  );
}
