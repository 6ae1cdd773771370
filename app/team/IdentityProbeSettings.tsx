"use client";

import { useState } from "react";
import { CLIENT_IDENTITIES } from "@/lib/discovery/client-identities";
import type { TeamProbeSettingsDto } from "@/lib/identity-probes/probe-settings";
import { useSaveTeamProbeSettings, useTeamProbeSettingsQuery } from "@/app/_hooks/identity-probe-queries";
import { useCan } from "@/app/_hooks/queries";

/**
 * The team's identity-probe defaults (docs/identity-probes.md): on or off, under which client
 * identities, how often, and whether stdio servers are probed too. Saved as one PATCH; the change
 * is in the audit log ("changed the identity probe settings").
 */
export function IdentityProbeSettings() {
  const { data, error } = useTeamProbeSettingsQuery();
  // Owned here, not by the form: the form remounts on new saved values, the outcome must stay shown.
  const save = useSaveTeamProbeSettings();
  return (
    <section aria-labelledby="identity-probes-heading" className="card" data-testid="team-identity-probes">
      <h2 id="identity-probes-heading">Identity probes</h2>
      <p className="muted small">
        Besides its own identity, Toolwatch lists each server again as common agents (their <code>clientInfo</code>) and alerts when a server shows them a different tool list.
      </p>
      {error ? <p role="alert">Could not load the settings: {error.message}</p> : null}
      {data ? <SettingsForm key={JSON.stringify(data)} saved={data} save={save} /> : error ? null : <p aria-busy="true">Loading…</p>}
      {save.error ? <p role="alert" className="error-box">{save.error.message}</p> : null}
      {save.isSuccess ? <p role="status" className="small">Saved. Workers use the new settings from each server&apos;s next probe.</p> : null}
    </section>
  );
}

function SettingsForm({ saved, save }: { saved: TeamProbeSettingsDto; save: ReturnType<typeof useSaveTeamProbeSettings> }) {
  const can = useCan();
  const [enabled, setEnabled] = useState(saved.enabled);
  const [all, setAll] = useState(saved.identities.length === 0);
  const [chosen, setChosen] = useState<string[]>(saved.identities);
  const [interval, setIntervalText] = useState(saved.intervalMinutes === null ? "" : String(saved.intervalMinutes));
  const [probeStdio, setProbeStdio] = useState(saved.probeStdio);
  const readOnly = !can("server:write");
  const toggle = (key: string) => setChosen((list) => (list.includes(key) ? list.filter((k) => k !== key) : [...list, key]));
  const submit = (e: React.FormEvent) => {
    e.preventDefault();
    save.mutate({ enabled, identities: all ? [] : chosen, intervalMinutes: interval.trim() === "" ? null : Number(interval), probeStdio });
  };
  return (
    <form onSubmit={submit} aria-label="Identity probe settings">
      <fieldset disabled={readOnly || save.isPending}>
        <label className="check">
          <input type="checkbox" checked={enabled} onChange={(e) => setEnabled(e.target.checked)} /> Probe the team&apos;s servers under other client identities
        </label>
        <fieldset>
          <legend>Identities</legend>
          <label className="check">
            <input type="radio" name="identity-scope" checked={all} onChange={() => setAll(true)} /> Every identity of the catalog ({CLIENT_IDENTITIES.length})
          </label>
          <label className="check">
            <input type="radio" name="identity-scope" checked={!all} onChange={() => setAll(false)} /> Only these:
          </label>
          <ul className="flat-list small identity-choices">
            {CLIENT_IDENTITIES.map((i) => (
              <li key={i.key}>
                <label className="check">
                  <input type="checkbox" disabled={all} checked={all || chosen.includes(i.key)} onChange={() => toggle(i.key)} /> {i.label} <code>{i.clientInfo.name}</code>
                </label>
              </li>
            ))}
          </ul>
        </fieldset>
        <div className="field">
          <label htmlFor="probe-interval">Every (minutes)</label>
          <input id="probe-interval" type="number" min={15} max={10080} step={1} placeholder="instance default (6 h)" value={interval} onChange={(e) => setIntervalText(e.target.value)} />
          <span className="hint-text">15 – 10080; empty: the instance default. A probe also follows every change of a server&apos;s list.</span>
        </div>
        <label className="check">
          <input type="checkbox" checked={probeStdio} onChange={(e) => setProbeStdio(e.target.checked)} /> Probe stdio servers too (each probe starts the server&apos;s process once per identity)
        </label>
        {readOnly ? <p className="muted small">Only members who may edit servers can change these settings.</p> : (
          <button type="submit" className="button">
            {save.isPending ? "Saving…" : "Save identity probe settings"}
          </button>
        )}
      </fieldset>
    </form>
  );
}
