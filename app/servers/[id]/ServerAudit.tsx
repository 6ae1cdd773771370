"use client";

import { useQueryClient } from "@tanstack/react-query";
import Link from "next/link";
import { useId, useState } from "react";
import type { ServerSummary } from "@/lib/servers/server-dto";
import { useOpenAlertCount } from "@/app/_hooks/alert-queries";
import { api, ApiError } from "@/app/_hooks/api";
import { queryKeys, useCan } from "@/app/_hooks/queries";

type Policy = ServerSummary["auditPolicy"];

const POLICIES: Record<Policy, { label: string; help: string }> = {
  trust_first: {
    label: "Trust first",
    help: "Each tool's first version is trusted and pinned as its baseline (unless it looks poisoned); later changes are judged against it.",
  },
  strict: { label: "Strict", help: "New tools need a reviewer's approval too, not only changes to known ones." },
};

/** The server's audit policy (admins change it) and how many of its alerts are open. */
export function ServerAudit({ server }: { server: ServerSummary }) {
  const can = useCan();
  const queryClient = useQueryClient();
  const selectId = useId();
  const open = useOpenAlertCount(server.id);
  const [error, setError] = useState<string | null>(null);
  const [saving, setSaving] = useState(false);
  const policy: Policy = server.auditPolicy ?? "trust_first";
  const inbox = `/alerts?serverId=${encodeURIComponent(server.id)}&status=open`;

  async function change(next: Policy) {
    setSaving(true);
    setError(null);
    try {
      await api(`/api/v1/servers/${encodeURIComponent(server.id)}`, { method: "PATCH", body: { auditPolicy: next } });
      await queryClient.invalidateQueries({ queryKey: queryKeys.server(server.id) });
    } catch (e) {
      setError(e instanceof ApiError ? e.message : "Could not change the policy");
    } finally {
      setSaving(false);
    }
  }

  const count = open.data ? (open.data.capped ? `${open.data.count - 1}+` : String(open.data.count)) : "…";
  return (
    <>
      <dt>Open alerts</dt>
      <dd data-testid="server-open-alerts">
        {open.data?.count === 0 ? (
          <span className="muted">none</span>
        ) : (
          <Link href={inbox} className={open.data?.count ? "alert-count-link" : undefined}>
            {count} open
          </Link>
        )}{" "}
        · <Link href={`/alerts?serverId=${encodeURIComponent(server.id)}&status=all`}>all alerts</Link>
      </dd>
      <dt>{can("server:write") ? <label htmlFor={selectId}>Audit policy</label> : "Audit policy"}</dt>
      <dd data-testid="server-audit-policy" data-policy={policy}>
        {can("server:write") ? (
          <select id={selectId} className="inline-select" value={policy} disabled={saving} onChange={(e) => void change(e.target.value as Policy)}>
            {(Object.keys(POLICIES) as Policy[]).map((p) => (
              <option key={p} value={p}>
                {POLICIES[p].label}
              </option>
            ))}
          </select>
        ) : (
          <strong>{POLICIES[policy].label}</strong>
        )}{" "}
        <span className="muted small">{POLICIES[policy].help}</span>
        {error ? (
          <p role="alert" className="field-error">
            {error}
          </p>
        ) : null}
      </dd>
    </>
  );
}
