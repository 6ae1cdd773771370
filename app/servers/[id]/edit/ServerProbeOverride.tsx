"use client";

import { useState } from "react";
import { CLIENT_IDENTITIES } from "@/lib/discovery/client-identities";
import type { IdentityProbeState } from "@/lib/identity-probes/types";
import { useIdentityProbesQuery, useSaveServerProbeSettings } from "@/app/_hooks/identity-probe-queries";

type Mode = "team" | "on" | "off";

/**
 * One server's identity-probe override: follow the team (the default; stdio servers are then off
 * unless the team includes them), always on, or off; and its own choice of identities. Saved through
 * PATCH /servers/{id} {identityProbes}, so it is audited as an edit of the server.
 */
export function ServerProbeOverride({ serverId, transport }: { serverId: string; transport: string }) {
  const { data, error } = useIdentityProbesQuery(serverId);
  // Owned here, not by the form: the form remounts on new saved values, the outcome must stay shown.
  const save = useSaveServerProbeSettings(serverId);
  return (
    <section aria-labelledby="probe-override-heading" className="card" data-testid="server-identity-probes">
      <h2 id="probe-override-heading">Identity probes</h2>
      {error ? <p role="alert">Could not load the probe settings: {error.message}</p> : null}
      {data ? <OverrideForm key={JSON.stringify(data.settings.server)} transport={transport} state={data} save={save} /> : error ? null : <p aria-busy="true">Loading…</p>}
      {save.error ? <p role="alert" className="error-box">{save.error.message}</p> : null}
      {save.isSuccess ? <p role="status" className="small">Saved.</p> : null}
    </section>
  );
}

function OverrideForm({ transport, state, save }: { transport: string; state: IdentityProbeState; save: ReturnType<typeof useSaveServerProbeSettings> }) {
  const { server, effective } = state.settings;
  const [mode, setMode] = useState<Mode>(server.enabled === null ? "team" : server.enabled ? "on" : "off");
  const [own, setOwn] = useState(server.identities !== null);
  const [chosen, setChosen] = useState<string[]>(server.identities ?? []);
  const toggle = (key: string) => setChosen((list) => (list.includes(key) ? list.filter((k) => k !== key) : [...list, key]));
  const submit = (e: React.FormEvent) => {
    e.preventDefault();
    save.mutate({ enabled: mode === "team" ? null : mode === "on", identities: own ? chosen : null });
  };
  return (
    <form onSubmit={submit} aria-label="Identity probes for this server">
      <p className="small" data-testid="probe-effective">
        Now: <strong>{effective.enabled ? "on" : "off"}</strong> <span className="muted">({effective.reason})</span>
      </p>
      <fieldset disabled={save.isPending}>
        <legend>Probe this server</legend>
        {(["team", "on", "off"] as const).map((m) => (
          <label key={m} className="check">
            <input type="radio" name="probe-mode" value={m} checked={mode === m} onChange={() => setMode(m)} />{" "}
            {m === "team" ? `As the team says${transport === "stdio" ? " (stdio: off unless the team includes stdio servers)" : ""}` : m === "on" ? `Always${transport === "stdio" ? " (starts the process once per identity and probe)" : ""}` : "Never"}
          </label>
        ))}
      </fieldset>
      <fieldset disabled={save.isPending}>
        <legend>Identities</legend>
        <label className="check">
          <input type="checkbox" checked={own} onChange={(e) => setOwn(e.target.checked)} /> Choose this server&apos;s own identities (else the team&apos;s)
        </label>
        {own ? (
          <ul className="flat-list small identity-choices">
            {CLIENT_IDENTITIES.map((i) => (
              <li key={i.key}>
                <label className="check">
                  <input type="checkbox" checked={chosen.includes(i.key)} onChange={() => toggle(i.key)} /> {i.label} <code>{i.clientInfo.name}</code>
                </label>
              </li>
            ))}
          </ul>
        ) : null}
      </fieldset>
      <button type="submit" className="button" disabled={save.isPending}>
        {save.isPending ? "Saving…" : "Save identity probes"}
      </button>
    </form>
  );
}
