import type { WebhookPayload } from "./types";

// Slack incoming-webhook body: {text, blocks}. Tool names, titles and finding messages come from
// the MCP server (untrusted): in mrkdwn, "<…>" makes links and mentions (<!channel>, <@U…>,
// <https://evil|click here>), so &, < and > are escaped as Slack documents, everywhere.

/** Slack's escaping for mrkdwn text; cut to `max` characters without splitting an entity. */
export function escapeMrkdwn(text: string, max = 3_000): string {
  const escaped = text.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;");
  if (escaped.length <= max) return escaped;
  return escaped.slice(0, max - 1).replace(/&[a-z]{0,3}$/, "") + "…";
}

const EMOJI: Record<string, string> = { critical: ":red_circle:", high: ":large_orange_circle:", medium: ":large_yellow_circle:", low: ":large_blue_circle:", info: ":white_circle:" };
const HEADLINE: Record<WebhookPayload["type"], string> = {
  "alert.opened": "New alert",
  "alert.updated": "Alert updated",
  "alert.resolved": "Alert resolved",
  test: "Test notification",
};

const kindLabel = (kind: string) => kind.replace(/_/g, " ");

export type SlackBody = { text: string; blocks: Record<string, unknown>[] };

export function renderSlackBody(payload: WebhookPayload): SlackBody {
  const { alert } = payload;
  const severity = alert.severity.toUpperCase();
  const emoji = payload.type === "alert.resolved" ? ":white_check_mark:" : (EMOJI[alert.severity] ?? ":white_circle:");
  const title = escapeMrkdwn(alert.title, 1_500);
  const server = escapeMrkdwn(alert.server.name, 500);
  const blocks: Record<string, unknown>[] = [
    {
      type: "section",
      text: { type: "mrkdwn", text: `${emoji} *${HEADLINE[payload.type]}* · *${severity}* · ${escapeMrkdwn(kindLabel(alert.kind), 100)}\n*${title}*` },
    },
    {
      type: "section",
      fields: [
        { type: "mrkdwn", text: `*Server*\n${server}` },
        { type: "mrkdwn", text: `*Tool*\n${alert.toolName ? escapeMrkdwn(alert.toolName, 500) : "—"}` },
        { type: "mrkdwn", text: `*Status*\n${escapeMrkdwn(alert.status, 50)}` },
        { type: "mrkdwn", text: `*Team*\n${escapeMrkdwn(payload.team.slug, 200)}` },
      ],
    },
  ];
  if (alert.findings.length > 0) {
    blocks.push({
      type: "context",
      elements: alert.findings.slice(0, 5).map((f) => ({
        type: "mrkdwn",
        text: `*${escapeMrkdwn(f.ruleId, 20)}* ${escapeMrkdwn(f.severity, 20)}: ${escapeMrkdwn(f.message, 500)}`,
      })),
    });
  }
  // A button's url is plain text (never parsed as mrkdwn); Slack only accepts absolute URLs.
  if (/^https?:\/\//.test(alert.url)) {
    blocks.push({ type: "actions", elements: [{ type: "button", text: { type: "plain_text", text: "Open in Toolwatch" }, url: alert.url }] });
  }
  const prefix = payload.type === "test" ? "[test] " : "";
  const text = `${prefix}${emoji} [${severity}] ${title} (server: ${server})`;
  return { text, blocks };
}
