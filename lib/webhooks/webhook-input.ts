import { z } from "zod";
import { PageParams } from "@/lib/pagination";
import { checkUrl } from "@/lib/discovery/node/network-guard";
import { ALERT_SEVERITIES, WEBHOOK_FORMATS } from "./types";

/**
 * Whether a webhook URL is well-formed: http(s) and no credentials in it. Where it points (private,
 * loopback, metadata addresses…) is judged with the team's right when it is saved
 * (lib/network/check-target.ts) and again at send time, after DNS, by the worker's guarded fetch.
 */
export function webhookUrlProblem(url: string): string | null {
  const checked = checkUrl(url);
  if (checked.ok) return null;
  if (checked.code === "INVALID_URL") return "The webhook URL is not a valid absolute URL (expected something like https://hooks.example.com/toolwatch).";
  if (checked.code === "CREDENTIALS_IN_URL") return "The webhook URL contains a user name or password; remove them (deliveries are signed with X-Toolwatch-Signature instead).";
  return checked.message.replace("The server URL", "The webhook URL");
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
