import { loadEnv } from "@/lib/env";
import { renderSlackBody } from "./slack";
import type { AlertSeverityName, WebhookEvent, WebhookFinding, WebhookFormat, WebhookPayload } from "./types";

// The body is built once, when the delivery is queued (what the alert was at that moment), and
// stored on the delivery row; the wire format is chosen when it is sent.
const MAX_FINDINGS = 5;
const MAX_TEXT = 500;

export type AlertForPayload = {
  id: string;
  kind: string;
  severity: AlertSeverityName;
  status: string;
  title: string;
  toolName: string | null;
  findings: unknown;
  server: { id: string; name: string };
};

/** Link to the alert page: absolute under TOOLWATCH_BASE_URL, else the path alone. */
export function alertUrl(alertId: string, baseUrl = loadEnv().TOOLWATCH_BASE_URL): string {
  const path = `/alerts/${alertId}`;
  return baseUrl ? baseUrl.replace(/\/+$/, "") + path : path;
}

const clip = (text: string, max = MAX_TEXT) => (text.length > max ? `${text.slice(0, max - 1)}…` : text);

/** The first few findings as {ruleId, severity, message}; anything malformed is skipped. */
export function summarizeFindings(findings: unknown): WebhookFinding[] {
  if (!Array.isArray(findings)) return [];
  const out: WebhookFinding[] = [];
  for (const f of findings) {
    if (out.length >= MAX_FINDINGS) break;
    if (typeof f !== "object" || f === null) continue;
    const { ruleId, severity, message } = f as Record<string, unknown>;
    if (typeof ruleId !== "string") continue;
    out.push({ ruleId, severity: typeof severity === "string" ? severity : "info", message: typeof message === "string" ? clip(message) : "" });
  }
  return out;
}

export function buildAlertPayload(input: {
  deliveryId: string;
  event: WebhookEvent;
  createdAt: Date;
  team: { id: string; slug: string };
  alert: AlertForPayload;
  baseUrl?: string;
}): WebhookPayload {
  const { alert } = input;
  return {
    type: input.event,
    id: input.deliveryId,
    createdAt: input.createdAt.toISOString(),
    team: input.team,
    alert: {
      id: alert.id,
      kind: alert.kind,
      severity: alert.severity,
      status: alert.status,
      title: clip(alert.title, 1_000),
      toolName: alert.toolName,
      server: { id: alert.server.id, name: alert.server.name },
      url: alertUrl(alert.id, input.baseUrl ?? loadEnv().TOOLWATCH_BASE_URL),
      findings: summarizeFindings(alert.findings),
    },
  };
}

const SAMPLE_ID = "00000000-0000-4000-8000-000000000000";

/** "Send test": a realistic alert that exists nowhere, so receivers can check parsing and signatures. */
export function buildTestPayload(input: { deliveryId: string; createdAt: Date; team: { id: string; slug: string }; baseUrl?: string }): WebhookPayload {
  return buildAlertPayload({
    deliveryId: input.deliveryId,
    event: "test",
    createdAt: input.createdAt,
    team: input.team,
    baseUrl: input.baseUrl,
    alert: {
      id: SAMPLE_ID,
      kind: "suspicious_content",
      severity: "critical",
      status: "open",
      title: "Test notification from Toolwatch: a tool description now asks the agent to read ~/.ssh/id_rsa",
      toolName: "example_tool",
      server: { id: SAMPLE_ID, name: "Example server" },
      findings: [{ ruleId: "R9", severity: "critical", message: "This is a test delivery; no alert was raised." }],
    },
  });
}

export type RenderedBody = { body: string; contentType: string };

/** The exact bytes sent (and signed) for a webhook's format. */
export function renderWebhookBody(format: WebhookFormat, payload: WebhookPayload): RenderedBody {
  const value = format === "slack" ? renderSlackBody(payload) : payload;
  return { body: JSON.stringify(value), contentType: "application/json" };
}
