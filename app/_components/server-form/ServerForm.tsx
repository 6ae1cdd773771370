"use client";

import { useQueryClient } from "@tanstack/react-query";
import { useState, type FormEvent } from "react";
import type { ServerDetail, ServerSummary } from "@/lib/servers/server-dto";
import { api, ApiError } from "@/app/_hooks/api";
import { queryKeys } from "@/app/_hooks/queries";
import { Field, FormError, SelectField, TextField } from "@/app/_components/Field";
import { KeyValueEditor } from "./KeyValueEditor";
import { fromApiFields, toPayload, type AuthMode, type FieldErrors, type ServerFormState, type Transport } from "./payload";

const TRANSPORTS: { value: Transport; label: string }[] = [
  { value: "streamable-http", label: "Streamable HTTP" },
  { value: "sse", label: "HTTP+SSE (legacy)" },
  { value: "stdio", label: "stdio (a command on the worker host)" },
];

const AUTH_MODES: { value: AuthMode; label: string }[] = [
  { value: "none", label: "None (or a token in a header)" },
  { value: "authorization_code", label: "OAuth: a person authorizes in the browser" },
  { value: "client_credentials", label: "OAuth: client credentials (a machine client)" },
];

const API_TRANSPORT: Record<ServerSummary["transport"], Transport> = { stdio: "stdio", streamable_http: "streamable-http", sse: "sse" };

function initialState(server: ServerSummary | null): ServerFormState {
  if (!server) {
    return { name: "", transport: "streamable-http", command: "", args: "", env: [], url: "", headers: [], tags: "", pollIntervalSeconds: "300", enabled: true, ...NO_AUTH };
  }
  const transport = API_TRANSPORT[server.transport];
  return {
    name: server.name,
    transport,
    // A stdio command line is only shown as text: it is entered again to be changed.
    command: "",
    args: "",
    env: server.envKeys.map((key) => ({ key, value: "", existing: true })),
    url: transport === "stdio" ? "" : server.target,
    headers: server.headerKeys.map((key) => ({ key, value: "", existing: true })),
    tags: server.tags.join(", "),
    pollIntervalSeconds: String(server.pollIntervalSeconds),
    enabled: server.enabled,
    ...(server.auth ? { authMode: server.auth.grant, clientId: server.auth.clientId ?? "", clientSecret: "", scope: server.auth.scope ?? "", authTouched: false } : NO_AUTH),
  };
}

const NO_AUTH = { authMode: "none" as AuthMode, clientId: "", clientSecret: "", scope: "", authTouched: false };

/** Add (server = null) or edit a server; field errors come from this form's checks and from the API. */
export function ServerForm({ server, onSaved, onCancel }: { server: ServerSummary | null; onSaved: (id: string) => void; onCancel: () => void }) {
  const queryClient = useQueryClient();
  const [state, setState] = useState<ServerFormState>(() => initialState(server));
  const [errors, setErrors] = useState<FieldErrors>({});
  const [busy, setBusy] = useState(false);
  const set = <K extends keyof ServerFormState>(key: K) => (value: ServerFormState[K]) => setState((s) => ({ ...s, [key]: value }));
  const stdio = state.transport === "stdio";
  const setAuth = <K extends "authMode" | "clientId" | "clientSecret" | "scope">(key: K) => (value: ServerFormState[K]) => setState((s) => ({ ...s, [key]: value, authTouched: true }));

  async function submit(event: FormEvent) {
    event.preventDefault();
    const initial = server ? { url: server.transport === "stdio" ? "" : server.target, envKeys: server.envKeys, headerKeys: server.headerKeys, auth: server.auth } : null;
    const { body, errors: found } = toPayload(state, initial);
    setErrors(found);
    if (!body) return;
    setBusy(true);
    try {
      const saved = server
        ? await api<ServerDetail>(`/api/v1/servers/${server.id}`, { method: "PATCH", body })
        : await api<ServerDetail>("/api/v1/servers", { method: "POST", body });
      // Invalidate rather than seed the cache with `saved`: the worker may already have listed the
      // server, and a seeded copy would count as fresh and hide that snapshot.
      await queryClient.invalidateQueries({ queryKey: queryKeys.servers() });
      await queryClient.invalidateQueries({ queryKey: queryKeys.server(saved.server.id) });
      onSaved(saved.server.id);
    } catch (e) {
      const err = e instanceof ApiError ? e : null;
      const fields = fromApiFields(err?.fields ?? {});
      if (err?.code === "CONFLICT") fields.name = err.message;
      if (!Object.keys(fields).length) fields.form = err?.message ?? "Could not save the server";
      setErrors(fields);
      setBusy(false);
    }
  }

  return (
    <form className="card form server-form" onSubmit={submit} noValidate aria-label={server ? `Edit ${server.name}` : "Add a server"}>
      <TextField label="Name" value={state.name} onChange={set("name")} error={errors.name} required maxLength={100} />
      {server ? (
        <Field label="Transport" hint="The transport of a server cannot change; add a new server instead.">
          {({ id, describedBy }) => <input id={id} value={TRANSPORTS.find((t) => t.value === state.transport)?.label ?? state.transport} readOnly aria-describedby={describedBy} />}
        </Field>
      ) : (
        <SelectField label="Transport" value={state.transport} onChange={(v) => set("transport")(v as Transport)} options={TRANSPORTS} error={errors.transport} />
      )}
      {stdio ? (
        <>
          <TextField
            label="Command"
            value={state.command}
            onChange={set("command")}
            error={errors.command}
            spellCheck={false}
            placeholder={server ? server.target : "npx"}
            hint={server ? <>Now: <code>{server.target}</code>. Leave command and arguments blank to keep them.</> : "Runs on the worker host; usually allowed to instance administrators only."}
          />
          <Field label="Arguments (one per line)" error={errors.args}>
            {({ id, describedBy, invalid }) => (
              <textarea id={id} rows={3} value={state.args} spellCheck={false} onChange={(e) => set("args")(e.target.value)} aria-describedby={describedBy} aria-invalid={invalid || undefined} placeholder={"-y\n@modelcontextprotocol/server-everything"} />
            )}
          </Field>
          <KeyValueEditor legend="Environment variables" keyLabel="Variable" rows={state.env} onChange={set("env")} error={errors.env} hint="Values are stored encrypted and never shown again." />
        </>
      ) : (
        <>
          <TextField label="URL" type="url" value={state.url} onChange={set("url")} error={errors.url} spellCheck={false} placeholder="https://mcp.example.com/mcp" required />
          <KeyValueEditor legend="HTTP headers" keyLabel="Header" rows={state.headers} onChange={set("headers")} error={errors.headers} hint="E.g. Authorization. Values are stored encrypted and never shown again." />
          <fieldset className="auth-fields">
            <legend>Sign-in</legend>
            <SelectField
              label="Sign-in method"
              value={state.authMode}
              onChange={(v) => setAuth("authMode")(v as AuthMode)}
              options={AUTH_MODES}
              error={errors.auth}
              hint={state.authMode === "authorization_code" ? "After saving, an admin clicks Authorize on the server page. Leave the client ID empty to register the client automatically." : undefined}
            />
            {state.authMode !== "none" && (
              <>
                <TextField label="Client ID" value={state.clientId} onChange={setAuth("clientId")} spellCheck={false} required={state.authMode === "client_credentials"} />
                <TextField
                  label="Client secret"
                  type="password"
                  value={state.clientSecret}
                  onChange={setAuth("clientSecret")}
                  autoComplete="new-password"
                  placeholder={server?.auth?.hasSecret ? "(set: leave blank to keep)" : ""}
                  hint="Stored encrypted and never shown again. For a private_key_jwt client use the API (docs/oauth-servers.md)."
                />
                <TextField label="Scope" value={state.scope} onChange={setAuth("scope")} spellCheck={false} hint="Space-separated; empty: what the server asks for." />
              </>
            )}
          </fieldset>
        </>
      )}
      <TextField label="Tags" value={state.tags} onChange={set("tags")} error={errors.tags} hint="Separated by commas or spaces: letters, digits and . _ : / -" spellCheck={false} />
      <TextField
        label="Poll interval (seconds)"
        type="number"
        min={10}
        max={86400}
        value={state.pollIntervalSeconds}
        onChange={set("pollIntervalSeconds")}
        error={errors.pollIntervalSeconds}
        hint="How often to re-list servers that cannot push changes. At least 10."
      />
      <div className="field checkbox">
        <label>
          <input type="checkbox" checked={state.enabled} onChange={(e) => set("enabled")(e.target.checked)} /> Watch this server (uncheck to pause)
        </label>
      </div>
      <FormError message={errors.form} />
      <div className="actions">
        <button type="submit" className="button" disabled={busy}>
          {busy ? "Saving…" : server ? "Save changes" : "Add server"}
        </button>
        <button type="button" className="button secondary" onClick={onCancel} disabled={busy}>
          Cancel
        </button>
      </div>
    </form>
  );
}
