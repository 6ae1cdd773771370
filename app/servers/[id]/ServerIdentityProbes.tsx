"use client";

import Link from "next/link";
import { RelativeTime } from "@/app/_components/RelativeTime";
import { VisibleText } from "@/app/_components/VisibleText";
import { useIdentityProbesQuery } from "@/app/_hooks/identity-probe-queries";

const OUTCOME_TEXT = { same: "same list", differs: "differs", error: "error" } as const;

/** Facts-list rows: which client identities this server was probed under, when, and what came back. */
export function ServerIdentityProbes({ serverId }: { serverId: string }) {
  const { data } = useIdentityProbesQuery(serverId);
  if (!data) return null;
  const { effective } = data.settings;
  return (
    <>
      <dt>Identity probes</dt>
      <dd data-testid="identity-probes">
        {effective.enabled ? `on, every ${effective.intervalMinutes} min` : "off"} <span className="muted small">({effective.reason})</span>
        {data.alertId ? (
          <>
            {" · "}
            <Link href={`/alerts/${data.alertId}`}>the list differs by client: see the alert</Link>
          </>
        ) : null}
        {data.probes.length ? (
          <ul className="flat-list small">
            {data.probes.map((p) => (
              <li key={p.identity} data-testid="identity-probe" data-identity={p.identity} data-outcome={p.outcome}>
                {p.label} (<code>{p.clientInfo.name}</code>): <strong>{OUTCOME_TEXT[p.outcome]}</strong>
                {p.toolCount !== null && p.outcome !== "error" ? `, ${p.toolCount} tools` : ""} · <RelativeTime iso={p.probedAt} />
                {p.error ? (
                  <span className="muted">
                    {" "}
                    · <code>{p.error.code}</code> <VisibleText text={p.error.message} />
                  </span>
                ) : null}
              </li>
            ))}
          </ul>
        ) : effective.enabled ? (
          <div className="muted small">Not probed yet (the first probe follows the first snapshot within a minute).</div>
        ) : null}
      </dd>
    </>
  );
}
