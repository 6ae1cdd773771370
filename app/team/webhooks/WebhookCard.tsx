"use client";

import { useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import type { AlertSeverityName } from "@/lib/webhooks/types";
import { ConfirmButton } from "@/app/_components/ConfirmButton";
import { VisibleText } from "@/app/_components/VisibleText";
import { api, ApiError } from "@/app/_hooks/api";
import { queryKeys } from "@/app/_hooks/queries";
import type { WebhookDto, WebhookWithSecret } from "@/app/_hooks/webhook-queries";
import { SEVERITY_OPTIONS } from "./CreateWebhookForm";
import { DeliveryLog } from "./DeliveryLog";
import { FlashMessage, type Flash } from "@/app/_components/FlashMessage";

type Message = Flash | null;

/** One webhook: where it sends, what, whether it is on; its actions and its delivery log. */
export function WebhookCard({ webhook, onRotated }: { webhook: WebhookDto; onRotated: (webhook: WebhookWithSecret) => void }) {
  const queryClient = useQueryClient();
  const [message, setMessage] = useState<Message>(null);
  const [busy, setBusy] = useState(false);
  const path = `/api/v1/webhooks/${encodeURIComponent(webhook.id)}`;
  const refresh = () =>
    Promise.all([
      queryClient.invalidateQueries({ queryKey: queryKeys.webhooks() }),
      queryClient.invalidateQueries({ queryKey: queryKeys.deliveries(webhook.id) }),
    ]);

  async function act(work: () => Promise<unknown>, ok: string, failed: string) {
    setBusy(true);
    setMessage(null);
    try {
      await work();
      setMessage({ kind: "ok", text: ok });
      await refresh();
    } catch (e) {
      setMessage({ kind: "error", text: e instanceof ApiError ? e.message : failed });
    } finally {
      setBusy(false);
    }
  }

  const patch = (body: Record<string, unknown>) => api<WebhookDto>(path, { method: "PATCH", body });

  return (
    <article className={`card webhook${webhook.enabled ? "" : " inactive"}`} data-testid="webhook" data-webhook-id={webhook.id} aria-label={`Webhook ${webhook.name}`}>
      <header className="webhook-head">
        <h3>
          <VisibleText text={webhook.name} />{" "}
          <span className={`badge ${webhook.enabled ? "status-live" : "status-stopped"}`} data-testid="webhook-enabled">
            {webhook.enabled ? "enabled" : "disabled"}
          </span>
        </h3>
        <div className="row-actions">
          <button type="button" className="button small secondary" disabled={busy} onClick={() => void act(() => api(`${path}/test`, { method: "POST", body: {} }), "Test delivery queued: watch the log below.", "Could not queue a test")}>
            Send test
          </button>
          <button
            type="button"
            className="button small secondary"
            disabled={busy}
            onClick={() => void act(() => patch({ enabled: !webhook.enabled }), webhook.enabled ? "Disabled: no alerts are sent." : "Enabled.", "Could not change it")}
          >
            {webhook.enabled ? "Disable" : "Enable"}
          </button>
          <ConfirmButton
            label="Rotate secret"
            question="Replace the signing secret? The old one stops working at once."
            confirmLabel="Yes, rotate"
            danger={false}
            onConfirm={() =>
              act(
                async () => onRotated((await patch({ rotateSecret: true })) as WebhookWithSecret),
                "New secret issued: it is shown above, once.",
                "Could not rotate the secret",
              )
            }
          />
          <ConfirmButton
            label="Delete"
            question={`Delete webhook ${webhook.name} and its delivery log?`}
            confirmLabel="Yes, delete"
            onConfirm={() => act(() => api(path, { method: "DELETE" }), "Deleted.", "Could not delete it")}
          />
        </div>
      </header>
      <dl className="facts compact">
        <dt>URL</dt>
        <dd>
          <code className="webhook-url" data-testid="webhook-url">
            {webhook.url}
          </code>
        </dd>
        <dt>Format</dt>
        <dd>{webhook.format === "slack" ? "Slack incoming webhook" : "JSON, signed"}</dd>
        <dt>Sends</dt>
        <dd>
          <label className="visually-hidden" htmlFor={`min-${webhook.id}`}>
            Minimum severity
          </label>
          <select
            id={`min-${webhook.id}`}
            className="inline-select"
            value={webhook.minSeverity}
            disabled={busy}
            onChange={(e) => void act(() => patch({ minSeverity: e.target.value as AlertSeverityName }), "Minimum severity saved.", "Could not save it")}
          >
            {SEVERITY_OPTIONS.map((o) => (
              <option key={o.value} value={o.value}>
                {o.label}
              </option>
            ))}
          </select>
        </dd>
      </dl>
      <FlashMessage message={message} as="p" />
      <DeliveryLog webhookId={webhook.id} />
    </article>
  );
}
