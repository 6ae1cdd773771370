"use client";

import { useId, useState } from "react";
import type { AlertDetail } from "@/lib/alerts/alert-dto";
import { shortHash } from "@/app/_components/alerts/labels";
import { api, ApiError } from "@/app/_hooks/api";

type Verb = "acknowledge" | "approve" | "reject";
export type Outcome = { kind: "ok" | "error" | "stale"; text: string };

const VERSION_KINDS = new Set(["suspicious_content", "tool_added", "breaking_change", "tool_changed"]);

/** The exact version an approval binds to: the candidate, or for a removal the removed baseline. */
export function reviewedHash(detail: AlertDetail): string | null {
  return detail.alert.kind === "tool_removed" ? detail.alert.baselineHash : detail.alert.candidateHash;
}

const DONE: Record<Verb, string> = {
  acknowledge: "Acknowledged: the team sees someone is on it.",
  approve: "Approved: this version is now the tool's baseline, and the alert is resolved.",
  reject: "Rejected: the tool is blocked at this version; the alert stays open until a version is approved.",
};

type Props = {
  detail: AlertDetail;
  /** After a decision: refetch the alert. */
  onDecided: () => Promise<void>;
  /** After a 409: refetch, show what the alert is about now, and return it. */
  onStale: () => Promise<AlertDetail | null>;
};

/**
 * Acknowledge, Approve, Reject with an optional comment, for people with alert:review (the server
 * checks again). Approve and Reject send the hash of the version on screen, so a tool that changed
 * after the page was opened is refused (409) instead of approving something nobody looked at.
 */
export function AlertActions({ detail, onDecided, onStale }: Props) {
  const commentId = useId();
  const [comment, setComment] = useState("");
  const [busy, setBusy] = useState<Verb | null>(null);
  const [outcome, setOutcome] = useState<Outcome | null>(null);
  const { alert } = detail;
  const hash = reviewedHash(detail);
  const versioned = VERSION_KINDS.has(alert.kind) && alert.candidateHash !== null;
  const canApprove = alert.status !== "resolved" && hash !== null && (versioned || alert.kind === "tool_removed");
  const canReject = alert.status !== "resolved" && versioned;
  const canAcknowledge = alert.status === "open";

  async function decide(verb: Verb) {
    setBusy(verb);
    setOutcome(null);
    const text = comment.trim();
    const body = { ...(text ? { comment: text } : {}), ...(verb !== "acknowledge" && hash ? { hash } : {}) };
    try {
      await api(`/api/v1/alerts/${encodeURIComponent(alert.id)}/${verb}`, { method: "POST", body });
      setComment("");
      setOutcome({ kind: "ok", text: DONE[verb] });
      await onDecided();
    } catch (e) {
      // A 409 is either "the tool moved on" or "already decided": the refetched alert tells which.
      const conflict = e instanceof ApiError && e.status === 409 && verb !== "acknowledge";
      const fresh = conflict ? await onStale() : null;
      if (fresh && reviewedHash(fresh) !== hash) {
        setOutcome({
          kind: "stale",
          text: "The tool changed after you opened this page, so nothing was decided. The new version and its diff are shown below: review it, then decide again.",
        });
      } else {
        setOutcome({ kind: "error", text: e instanceof ApiError ? e.message : `Could not ${verb} the alert` });
      }
    } finally {
      setBusy(null);
    }
  }

  const message = outcome ? (
    <p role={outcome.kind === "ok" ? "status" : "alert"} className={outcome.kind === "ok" ? "ok-text" : "notice warn"} data-testid="decision-outcome" data-kind={outcome.kind}>
      {outcome.text}
    </p>
  ) : null;
  if (!canApprove && !canReject && !canAcknowledge) {
    return (
      <section className="card review-box" aria-label="Review">
        {message}
        <p className="muted small">{alert.status === "resolved" ? "This alert is resolved; nothing left to decide." : "Nothing to decide here."}</p>
      </section>
    );
  }
  return (
    <section className="card review-box" aria-labelledby="review-heading">
      <h2 id="review-heading">Review</h2>
      {message}
      <div className="field">
        <label htmlFor={commentId}>Comment (optional, kept in the audit log)</label>
        <textarea id={commentId} rows={2} maxLength={2000} value={comment} onChange={(e) => setComment(e.target.value)} />
      </div>
      <div className="review-actions">
        {canApprove ? (
          <button type="button" className="button approve" disabled={busy !== null} onClick={() => void decide("approve")} data-testid="approve-button">
            {busy === "approve" ? "Approving…" : alert.kind === "tool_removed" ? "Approve removal" : "Approve this version"}
          </button>
        ) : null}
        {canReject ? (
          <button type="button" className="button danger-outline" disabled={busy !== null} onClick={() => void decide("reject")} data-testid="reject-button">
            {busy === "reject" ? "Rejecting…" : "Reject"}
          </button>
        ) : null}
        {canAcknowledge ? (
          <button type="button" className="button secondary" disabled={busy !== null} onClick={() => void decide("acknowledge")} data-testid="acknowledge-button">
            {busy === "acknowledge" ? "Acknowledging…" : "Acknowledge"}
          </button>
        ) : null}
      </div>
      <p className="muted small">
        {canApprove ? (
          <>
            Approve makes version <code className="hash">{shortHash(hash)}</code> the baseline and resolves the alert.{" "}
          </>
        ) : null}
        {canReject ? "Reject keeps the alert open and blocks the tool at this version. " : null}
        {canAcknowledge ? "Acknowledge tells the team someone is on it." : null}
      </p>
    </section>
  );
}
