import { webhookHeaders } from "@/lib/webhooks/deliver-webhook";
import { DEFAULT_TOLERANCE_SECONDS, SIGNATURE_HEADER, TIMESTAMP_HEADER } from "@/lib/webhooks/sign";
import { WebhooksPage } from "./WebhooksPage";

export const metadata = { title: "Webhooks · Toolwatch" };

export default function Page() {
  // The header names come from the code that sends them (server-side only: it uses node:crypto).
  const sent = Object.keys(webhookHeaders({ deliveryId: "", event: "", body: "", secret: "", timestamp: 0 }));
  const headers = {
    signature: SIGNATURE_HEADER,
    timestamp: TIMESTAMP_HEADER,
    delivery: sent.find((h) => /delivery/i.test(h)) ?? "X-Toolwatch-Delivery",
    event: sent.find((h) => /event/i.test(h)) ?? "X-Toolwatch-Event",
    toleranceSeconds: DEFAULT_TOLERANCE_SECONDS,
  };
  return <WebhooksPage headers={headers} />;
}
