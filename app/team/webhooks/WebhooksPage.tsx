"use client";

import { useState } from "react";
import { useMeQuery } from "@/app/_hooks/queries";
import { useWebhooksQuery, type WebhookWithSecret } from "@/app/_hooks/webhook-queries";
import { CreateWebhookForm } from "./CreateWebhookForm";
import { FreshSecret } from "./FreshSecret";
import { VerifyHelp, type SignatureHeaders } from "./VerifyHelp";
import { WebhookCard } from "./WebhookCard";

/** Where alerts are sent: signed JSON or Slack messages, with each webhook's delivery log. */
export function WebhooksPage({ headers }: { headers: SignatureHeaders }) {
  const { data: me } = useMeQuery();
  const allowed = Boolean(me?.permissions.includes("webhook:manage"));
  const [fresh, setFresh] = useState<{ webhook: WebhookWithSecret; rotated: boolean } | null>(null);
  if (!me?.team) return null;
  if (!allowed) {
    return (
      <section aria-labelledby="webhooks-heading">
        <h1 id="webhooks-heading">Webhooks</h1>
        <p role="alert">Only team owners and admins can manage webhooks.</p>
      </section>
    );
  }
  return (
    <section aria-labelledby="webhooks-heading">
      <h1 id="webhooks-heading">Webhooks</h1>
      <p className="summary">
        Toolwatch POSTs each alert of team <strong>{me.team.name}</strong> at or above a webhook&apos;s minimum severity to its URL: when it opens,
        when it changes and when it is resolved. Failed deliveries are retried with backoff; every attempt is in the delivery log below.
      </p>
      {fresh ? <FreshSecret webhook={fresh.webhook} rotated={fresh.rotated} headers={headers} onDone={() => setFresh(null)} /> : null}
      <CreateWebhookForm onCreated={(webhook) => setFresh({ webhook, rotated: false })} />
      <WebhookList onRotated={(webhook) => setFresh({ webhook, rotated: true })} />
      <details className="card">
        <summary>How to verify a delivery&apos;s signature</summary>
        <VerifyHelp headers={headers} />
      </details>
    </section>
  );
}

function WebhookList({ onRotated }: { onRotated: (webhook: WebhookWithSecret) => void }) {
  const { data, error, isPending } = useWebhooksQuery(true);
  if (isPending) return <p aria-busy="true">Loading webhooks…</p>;
  if (error) return <p role="alert" className="error-box">Could not load webhooks: {error.message}</p>;
  if (data.items.length === 0) {
    return (
      <p className="empty" data-testid="webhooks-empty">
        No webhooks yet. Add one above to get alerts in your chat or incident tool.
      </p>
    );
  }
  return (
    <section aria-labelledby="webhook-list-heading">
      <h2 id="webhook-list-heading">Webhooks ({data.items.length})</h2>
      {data.items.map((w) => (
        <WebhookCard key={w.id} webhook={w} onRotated={onRotated} />
      ))}
    </section>
  );
}
