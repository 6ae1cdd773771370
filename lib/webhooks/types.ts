// Isomorphic: what the webhook API returns and what receivers get. Never a signing secret, except
// the one-time `secret` of creation and rotation.

export const WEBHOOK_FORMATS = ["json", "slack"] as const;
export type WebhookFormat = (typeof WEBHOOK_FORMATS)[number];

export const ALERT_SEVERITIES = ["critical", "high", "medium", "low", "info"] as const;
export type AlertSeverityName = (typeof ALERT_SEVERITIES)[number];
export const SEVERITY_RANK: Record<AlertSeverityName, number> = { info: 0, low: 1, medium: 2, high: 3, critical: 4 };

/** The severities a webhook with this floor receives (its own and every higher one). */
export function severitiesAtOrAbove(floor: AlertSeverityName): AlertSeverityName[] {
  return ALERT_SEVERITIES.filter((s) => SEVERITY_RANK[s] >= SEVERITY_RANK[floor]);
}
/** The floors that let an alert of this severity through. */
export function floorsAdmitting(severity: AlertSeverityName): AlertSeverityName[] {
  return ALERT_SEVERITIES.filter((s) => SEVERITY_RANK[s] <= SEVERITY_RANK[severity]);
}

export const WEBHOOK_EVENTS = ["alert.opened", "alert.updated", "alert.resolved", "test"] as const;
export type WebhookEvent = (typeof WEBHOOK_EVENTS)[number];

export const DELIVERY_STATUSES = ["pending", "delivered", "failed", "dead"] as const;
/** pending: not tried yet · failed: last attempt failed, a retry is scheduled · delivered · dead: gave up. */
export type DeliveryStatus = (typeof DELIVERY_STATUSES)[number];

export type WebhookFinding = { ruleId: string; severity: string; message: string };

/** The generic JSON body (format "json"); the Slack body is rendered from it. */
export type WebhookPayload = {
  type: WebhookEvent;
  /** The delivery id (same as the X-Toolwatch-Delivery header): the same across retries, so receivers can dedupe. */
  id: string;
  createdAt: string;
  team: { id: string; slug: string };
  alert: {
    id: string;
    kind: string;
    severity: AlertSeverityName;
    status: string;
    title: string;
    toolName: string | null;
    server: { id: string; name: string };
    /** Absolute when TOOLWATCH_BASE_URL is set, else the path of the alert page. */
    url: string;
    findings: WebhookFinding[];
  };
};

export type WebhookDto = {
  id: string;
  name: string;
  url: string;
  format: WebhookFormat;
  minSeverity: AlertSeverityName;
  enabled: boolean;
  createdAt: string;
  updatedAt: string;
  lastDelivery: { id: string; event: string; status: DeliveryStatus; statusCode: number | null; at: string } | null;
};

/** Creation and rotation only: the signing secret, shown this once. */
export type WebhookWithSecret = WebhookDto & { secret: string };

export type WebhookDeliveryDto = {
  id: string;
  webhookId: string;
  alertId: string | null;
  event: string;
  status: DeliveryStatus;
  attempts: number;
  statusCode: number | null;
  lastError: string | null;
  createdAt: string;
  updatedAt: string;
  deliveredAt: string | null;
  payload: unknown;
};

export type Page<T> = { items: T[]; nextCursor: string | null };
