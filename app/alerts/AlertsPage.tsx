"use client";

import { useQueryClient } from "@tanstack/react-query";
import Link from "next/link";
import { useRouter, useSearchParams } from "next/navigation";
import { useState } from "react";
import type { BulkAcknowledgeResult } from "@/lib/alerts/alert-dto";
import { useAlertsQuery, type AlertFilters as Filters } from "@/app/_hooks/alert-queries";
import { api, ApiError } from "@/app/_hooks/api";
import { queryKeys, useMeQuery } from "@/app/_hooks/queries";
import { AlertFilters } from "./AlertFilters";
import { AlertsTable } from "./AlertsTable";
import { FlashMessage, type Flash } from "@/app/_components/FlashMessage";

const FILTER_KEYS = ["status", "severity", "kind", "serverId"] as const;

function readFilters(search: URLSearchParams): Filters {
  const filters: Filters = {};
  for (const key of FILTER_KEYS) {
    const value = search.get(key);
    if (value) filters[key] = value;
  }
  return filters;
}

/**
 * The team's alerts, newest first, filtered by what the URL says. New and changed alerts arrive
 * without a reload (alert:changed refetches the list); people who may review can acknowledge many.
 */
export function AlertsPage() {
  const search = useSearchParams();
  const router = useRouter();
  const { data: me } = useMeQuery();
  const filters = readFilters(new URLSearchParams(search.toString()));
  const setFilter = (key: keyof Filters, value: string) => {
    const qs = new URLSearchParams(search.toString());
    if (value) qs.set(key, value);
    else qs.delete(key);
    const query = qs.toString();
    router.push(query ? `/alerts?${query}` : "/alerts");
  };
  if (!me?.team) return null;
  return (
    <section aria-labelledby="alerts-heading">
      <h1 id="alerts-heading">Alerts</h1>
      <p className="summary">
        Changes to tools against their approved baselines, suspicious content, and server outages in team <strong>{me.team.name}</strong>. Toolwatch
        reads tool definitions only: what tools return when called (outputs, error messages) is not scanned.{" "}
        <Link href="/rules">The audit rules</Link>, each with an example.
      </p>
      <AlertFilters filters={filters} onChange={setFilter} />
      <AlertList filters={filters} canReview={me.permissions.includes("alert:review")} />
    </section>
  );
}

function AlertList({ filters, canReview }: { filters: Filters; canReview: boolean }) {
  const queryClient = useQueryClient();
  const query = useAlertsQuery(filters);
  const [picked, setPicked] = useState<Set<string>>(new Set());
  const [comment, setComment] = useState("");
  const [busy, setBusy] = useState(false);
  const [message, setMessage] = useState<Flash | null>(null);

  if (query.isPending) return <p aria-busy="true">Loading alerts…</p>;
  if (query.error) return <p role="alert" className="error-box">Could not load alerts: {query.error.message}</p>;
  const alerts = query.data.pages.flatMap((p) => p.items);
  // What is still open and on screen: an alert acknowledged elsewhere drops out of the selection.
  const selected = new Set(alerts.filter((a) => a.status === "open" && picked.has(a.id)).map((a) => a.id));
  const filtered = Object.keys(filters).length > 0;

  async function acknowledgeSelected() {
    setBusy(true);
    setMessage(null);
    try {
      const result = await api<BulkAcknowledgeResult>("/api/v1/alerts/acknowledge", {
        method: "POST",
        body: { ids: [...selected], ...(comment.trim() ? { comment: comment.trim() } : {}) },
      });
      const skipped = result.skipped.length ? `; ${result.skipped.length} skipped (${[...new Set(result.skipped.map((s) => s.reason))].join(", ")})` : "";
      setMessage({ kind: "ok", text: `Acknowledged ${result.acknowledged.length}${skipped}.` });
      setPicked(new Set());
      setComment("");
      await queryClient.invalidateQueries({ queryKey: queryKeys.alerts() });
    } catch (e) {
      setMessage({ kind: "error", text: e instanceof ApiError ? e.message : "Could not acknowledge the alerts" });
    } finally {
      setBusy(false);
    }
  }

  if (alerts.length === 0) {
    return (
      <div className="empty" data-testid="alerts-empty">
        {filtered ? (
          <p>No alerts match these filters.</p>
        ) : (
          <>
            <p>
              <strong>Nothing needs attention.</strong>
            </p>
            <p className="muted">
              An alert opens when a tool changes against its approved baseline in a way that needs a person (schema, annotations, or a description
              that gains a suspicious cue), when content looks like tool poisoning, or when a server goes down. Wording-only edits are accepted on
              their own and recorded in the audit log.
            </p>
          </>
        )}
      </div>
    );
  }

  return (
    <>
      {canReview ? (
        <div className="bulk-bar" role="group" aria-label="Bulk actions">
          <span className="muted small" data-testid="selected-count">
            {selected.size === 0 ? "Select open alerts to acknowledge them together." : `${selected.size} selected`}
          </span>
          <input
            type="text"
            className="bulk-comment"
            aria-label="Comment for the acknowledgement (optional)"
            placeholder="Comment (optional)"
            maxLength={2000}
            value={comment}
            onChange={(e) => setComment(e.target.value)}
          />
          <button type="button" className="button" disabled={busy || selected.size === 0} onClick={() => void acknowledgeSelected()}>
            {busy ? "Acknowledging…" : "Acknowledge selected"}
          </button>
          <FlashMessage message={message} />
        </div>
      ) : null}
      <AlertsTable
        alerts={alerts}
        selectable={canReview}
        selected={selected}
        onToggle={(id, on) =>
          setPicked((prev) => {
            const next = new Set(prev);
            if (on) next.add(id);
            else next.delete(id);
            return next;
          })
        }
        onToggleAll={(on) => setPicked(on ? new Set(alerts.filter((a) => a.status === "open").map((a) => a.id)) : new Set())}
      />
      {query.hasNextPage ? (
        <p>
          <button type="button" className="button secondary" disabled={query.isFetchingNextPage} onClick={() => void query.fetchNextPage()}>
            {query.isFetchingNextPage ? "Loading…" : "Load more"}
          </button>
        </p>
      ) : (
        <p className="muted small">{alerts.length === 1 ? "1 alert" : `${alerts.length} alerts`}, that is everything.</p>
      )}
    </>
  );
}
