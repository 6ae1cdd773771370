"use client";

import { useQueryClient } from "@tanstack/react-query";
import { useState, type FormEvent } from "react";
import { ALERT_SEVERITIES, type AlertSeverityName, type WebhookFormat } from "@/lib/webhooks/types";
import { FormError, SelectField, TextField } from "@/app/_components/Field";
import { SEVERITY_LABELS } from "@/app/_components/alerts/labels";
import { api, ApiError } from "@/app/_hooks/api";
import { queryKeys } from "@/app/_hooks/queries";
import type { WebhookWithSecret } from "@/app/_hooks/webhook-queries";

export const FORMAT_OPTIONS = [
  { value: "json", label: "JSON (signed)" },
  { value: "slack", label: "Slack incoming webhook" },
] as const;
export const SEVERITY_OPTIONS = ALERT_SEVERITIES.map((s) => ({ value: s, label: s === "info" ? "Info (everything)" : `${SEVERITY_LABELS[s]} and above` }));

export function CreateWebhookForm({ onCreated }: { onCreated: (webhook: WebhookWithSecret) => void }) {
  const queryClient = useQueryClient();
  const [name, setName] = useState("");
  const [url, setUrl] = useState("");
  const [format, setFormat] = useState<WebhookFormat>("json");
  const [minSeverity, setMinSeverity] = useState<AlertSeverityName>("low");
  const [fields, setFields] = useState<Record<string, string>>({});
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  async function submit(event: FormEvent) {
    event.preventDefault();
    setError(null);
    const problems: Record<string, string> = {};
    if (!name.trim()) problems.name = "Name it after where alerts go, e.g. “#security channel”.";
    if (!/^https?:\/\/\S+$/i.test(url.trim())) problems.url = "An http:// or https:// URL, e.g. https://hooks.example.com/toolwatch.";
    setFields(problems);
    if (Object.keys(problems).length) return;
    setBusy(true);
    try {
      const created = await api<WebhookWithSecret>("/api/v1/webhooks", { method: "POST", body: { name: name.trim(), url: url.trim(), format, minSeverity } });
      onCreated(created);
      setName("");
      setUrl("");
      await queryClient.invalidateQueries({ queryKey: queryKeys.webhooks() });
    } catch (e) {
      const err = e instanceof ApiError ? e : null;
      setFields(err?.fields ?? {});
      setError(err && Object.keys(err.fields).length ? null : (err?.message ?? "Could not create the webhook"));
    } finally {
      setBusy(false);
    }
  }

  return (
    <section className="card" aria-labelledby="create-webhook-heading">
      <h2 id="create-webhook-heading">Add a webhook</h2>
      <form className="form inline-form webhook-form" onSubmit={submit} noValidate>
        <TextField label="Name" value={name} onChange={setName} error={fields.name} required maxLength={100} />
        <TextField
          label="URL"
          type="url"
          value={url}
          onChange={setUrl}
          error={fields.url}
          required
          maxLength={2000}
          placeholder="https://hooks.example.com/toolwatch"
          className="url-input"
        />
        <SelectField label="Format" value={format} onChange={(v) => setFormat(v as WebhookFormat)} options={FORMAT_OPTIONS} error={fields.format} />
        <SelectField label="Minimum severity" value={minSeverity} onChange={(v) => setMinSeverity(v as AlertSeverityName)} options={SEVERITY_OPTIONS} error={fields.minSeverity} />
        <div className="actions">
          <button type="submit" className="button" disabled={busy}>
            {busy ? "Adding…" : "Add webhook"}
          </button>
        </div>
      </form>
      <FormError message={error} />
    </section>
  );
}
