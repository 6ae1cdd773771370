import { isIP } from "node:net";
import { z } from "zod";
import { PageParams } from "../pagination";
import { checkAddress, checkUrl } from "../discovery/node/network-guard";
import { loadEnv } from "../env";
import { ALERT_SEVERITIES, WEBHOOK_FORMATS } from "./types";

/**
 * Whether a webhook URL may be saved: http(s), no credentials in it, and a literal IP that is not
 * refused by the network guard (metadata and link-local always; private and loopback under
 * TOOLWATCH_BLOCK_PRIVATE_NETWORKS=1). Host names are judged again at send time, after DNS, on
 * the address actually connected to (guarded fetch), so rebinding gains nothing.
 */
export function webhookUrlProblem(url: string, blockPrivate = loadEnv().TOOLWATCH_BLOCK_PRIVATE_NETWORKS): string | null {
  const checked = checkUrl(url);
  if (!checked.ok) {
    if (checked.code === "INVALID_URL") return "The webhook URL is not a valid absolute URL (expected something like https://hooks.example.com/toolwatch).";
    if (checked.code === "CREDENTIALS_IN_URL") return "The webhook URL contains a user name or password; remove them (deliveries are signed with X-Toolwatch-Signature instead).";
    return checked.message.replace("The server URL", "The webhook URL");
  }
  const host = checked.url.hostname.replace(/^\[(.*)\]$/, "$1");
  if (!isIP(host)) return null;
  const verdict = checkAddress(host, { blockPrivate });
  if (verdict.ok) return null;
  const why: Record<typeof verdict.code, string> = {
    TARGET_METADATA: "it is a cloud metadata endpoint (it can hand out the credentials of the machine Toolwatch runs on); this is never allowed",
    TARGET_LINK_LOCAL: "it is a link-local address, where cloud and container platforms expose internal services; this is never allowed",
    TARGET_RESERVED: "it is in a reserved or special-purpose range that no receiver can be reached at; this is never allowed",
    TARGET_PRIVATE: "private network addresses are blocked on this instance (TOOLWATCH_BLOCK_PRIVATE_NETWORKS=1)",
    TARGET_LOOPBACK: "loopback addresses are blocked on this instance (TOOLWATCH_BLOCK_PRIVATE_NETWORKS=1)",
  };
  return `Webhooks cannot be sent to ${host}: ${why[verdict.code]}.`;
}

const name = z.string().trim().min(1, "name is required").max(100, "name is at most 100 characters");
const url = z
  .string({ error: "url is required" })
  .trim()
  .min(1, "url is required")
  .max(2_000, "url is at most 2000 characters")
  .superRefine((value, ctx) => {
    const problem = webhookUrlProblem(value);
    if (problem) ctx.addIssue({ code: "custom", message: problem });
  });
const format = z.enum(WEBHOOK_FORMATS, { error: 'format is "json" or "slack"' });
const minSeverity = z.enum(ALERT_SEVERITIES, { error: `minSeverity is one of ${ALERT_SEVERITIES.join(", ")}` });

export const CreateWebhookInput = z.object({
  name,
  url,
  format: format.default("json"),
  minSeverity: minSeverity.default("low"),
  enabled: z.boolean().default(true),
});
export type CreateWebhookInput = z.infer<typeof CreateWebhookInput>;

export const UpdateWebhookInput = z.object({
  name: name.optional(),
  url: url.optional(),
  format: format.optional(),
  minSeverity: minSeverity.optional(),
  enabled: z.boolean().optional(),
  /** true: a new signing secret replaces the old one at once and is returned this once. */
  rotateSecret: z.boolean().optional(),
});
export type UpdateWebhookInput = z.infer<typeof UpdateWebhookInput>;

export const ListDeliveriesInput = z.object({
  ...PageParams,
  status: z.enum(["pending", "delivered", "failed", "dead"]).optional(),
});
