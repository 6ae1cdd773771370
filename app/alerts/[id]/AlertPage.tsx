"use client";

import { useQueryClient } from "@tanstack/react-query";
import Link from "next/link";
import { useState } from "react";
import { useAlertQuery, type AlertDetail } from "@/app/_hooks/alert-queries";
import { ApiError, queryKeys, useCan } from "@/app/_hooks/queries";
import { AlertActions, reviewedHash } from "./AlertActions";
import { AlertChange, ServerLevelDetails } from "./AlertChange";
import { AlertHeader } from "./AlertHeader";
import { EvidenceFindings } from "./EvidenceFindings";
import { IdentityDivergenceDetails } from "./IdentityDivergence";
import { ContextBudgetDetails } from "./ContextBudgetDetails";
import { SinceReviewed } from "./SinceReviewed";

/**
 * One alert as a reviewer reads it. Updates arrive live (alert:changed), but a newer version of the
 * tool never replaces the one on screen by itself: the reviewer is told and chooses to look, and an
 * approval of the old one is refused by the server (409).
 */
export function AlertPage({ id }: { id: string }) {
  const queryClient = useQueryClient();
  const can = useCan();
  const query = useAlertQuery(id);
  const [shown, setShown] = useState<AlertDetail | null>(null);
  // The version the reviewer was reading before the page moved to a newer one (banner or 409).
  const [earlier, setEarlier] = useState<AlertDetail | null>(null);
  const live = query.data;
  // Adopt refetched answers about the same version (status, comments, decisions) as they come.
  if (live && live !== shown && (shown === null || reviewedHash(shown) === reviewedHash(live))) setShown(live);

  if (query.isPending && !shown) return <p aria-busy="true">Loading alert…</p>;
  if (!shown) {
    const notFound = query.error instanceof ApiError && (query.error.status === 404 || query.error.status === 400);
    return (
      <p role="alert" className="error-box">
        {notFound ? "Alert not found in this team." : `Could not load the alert: ${query.error?.message ?? "unknown error"}`} <Link href="/alerts">Back to the alerts</Link>
      </p>
    );
  }
  const newer = live && reviewedHash(live) !== reviewedHash(shown) ? live : null;
  const definition = shown.candidateVersion?.definition ?? shown.baselineVersion?.definition ?? null;

  const moveTo = (next: AlertDetail) => {
    if (reviewedHash(next) !== reviewedHash(shown)) setEarlier(shown);
    setShown(next);
  };
  const refetch = async (): Promise<AlertDetail | null> => {
    const result = await query.refetch();
    if (result.data) moveTo(result.data);
    return result.data ?? null;
  };

  return (
    <article aria-labelledby="alert-heading" className="alert-page">
      <p>
        <Link href="/alerts">← Alerts</Link>
      </p>
      {newer ? (
        <p className="notice warn" role="status" data-testid="newer-version">
          This tool changed again while you were reading: the alert is now about a newer version.{" "}
          <button type="button" className="button small" onClick={() => moveTo(newer)}>
            Show the new version
          </button>
        </p>
      ) : null}
      <div className="alert-layout">
        <div className="alert-main">
          <AlertHeader detail={shown} />
          {earlier ? <SinceReviewed earlier={earlier} now={shown} onDismiss={() => setEarlier(null)} /> : null}
          <EvidenceFindings findings={shown.findings} definition={definition} />
          <AlertChange detail={shown} />
          <ServerLevelDetails detail={shown} />
          <IdentityDivergenceDetails detail={shown} />
          {shown.details.contextBudget ? <ContextBudgetDetails budget={shown.details.contextBudget} /> : null}
          <p className="notice blind-spot" data-testid="blind-spot">
            <strong>Not covered:</strong> Toolwatch reads what a server advertises (names, descriptions, schemas, annotations). What tools return when
            they are called — outputs and error messages — is not scanned, and can carry instructions to an agent too.
          </p>
        </div>
        <aside className="alert-side">
          {can("alert:review") ? (
            <AlertActions
              detail={shown}
              onStale={refetch}
              onDecided={async () => {
                await queryClient.invalidateQueries({ queryKey: queryKeys.alerts() });
                await refetch();
              }}
            />
          ) : (
            <section className="card review-box" aria-label="Review">
              <p className="muted small" data-testid="read-only-note">
                You can read this alert. Members, admins and owners acknowledge, approve or reject.
              </p>
            </section>
          )}
        </aside>
      </div>
    </article>
  );
}
