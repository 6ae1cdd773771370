import type { Db } from "@/lib/db";
import type { Webhook } from "@/lib/generated/prisma/client";
import { decryptJson, encryptJson } from "@/lib/secrets";

// A receiver URL is a credential: a Slack incoming-webhook URL alone lets anyone post to the
// channel. Stored sealed (AES-256-GCM with the instance key, like server headers); the API, the UI
// and the audit log only ever see the masked form, which keeps what identifies the receiver
// (scheme, host, port) and hides the path and query that carry the token. The plain URL is
// decrypted by the worker for each delivery and by edits that compare it; never returned.

/** Visible tail of a long path (enough to tell two Slack hooks apart, too little to guess one). */
const TAIL = 4;
const LONG_ENOUGH = 16;

/** `https://hooks.slack.com/…/XXXX`: scheme, host and port kept, path and query masked. */
export function maskWebhookUrl(url: string): string {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return "…";
  }
  const rest = `${parsed.pathname}${parsed.search}`;
  if (rest === "/" || rest === "") return `${parsed.protocol}//${parsed.host}/`;
  return rest.length >= LONG_ENOUGH ? `${parsed.protocol}//${parsed.host}/…/${rest.slice(-TAIL)}` : `${parsed.protocol}//${parsed.host}/…`;
}

/** Scheme, host and port of a masked URL (what the audit log records as the target). */
export function maskedOrigin(masked: string): string {
  const match = /^[a-z][a-z0-9+.-]*:\/\/[^/?#]*/i.exec(masked);
  return match ? match[0] : "";
}

/** The columns a receiver URL is stored in. */
export function sealWebhookUrl(key: Buffer, url: string): Pick<Webhook, "urlEncrypted" | "urlMasked" | "legacyUrl"> {
  return { urlEncrypted: encryptJson(key, url), urlMasked: maskWebhookUrl(url), legacyUrl: null };
}

/** The plain receiver URL (worker and edits only). Throws when the instance key cannot open it. */
export function webhookUrlOf(key: Buffer, row: Pick<Webhook, "urlEncrypted" | "legacyUrl">): string {
  if (row.urlEncrypted) return decryptJson<string>(key, row.urlEncrypted);
  if (row.legacyUrl) return row.legacyUrl;
  throw new Error("The webhook has no receiver URL");
}

/** What the API shows for a row: the masked URL (rows not sealed yet are masked on the fly). */
export function displayUrl(row: Pick<Webhook, "urlMasked" | "legacyUrl">): string {
  return row.legacyUrl ? maskWebhookUrl(row.legacyUrl) : row.urlMasked;
}

/**
 * Seals the URLs of rows written before sealing (run by every worker on start; idempotent, and two
 * workers sealing one row both write a valid sealing). Returns how many rows it sealed.
 */
// internal-writer: a one-time upgrade at startup (worker)
export async function sealLegacyWebhookUrls(db: Db, key: Buffer): Promise<number> {
  const rows = await db.webhook.findMany({ where: { legacyUrl: { not: null } }, select: { id: true, legacyUrl: true } });
  let sealed = 0;
  for (const row of rows) {
    const { count } = await db.webhook.updateMany({ where: { id: row.id, legacyUrl: row.legacyUrl }, data: sealWebhookUrl(key, row.legacyUrl!) });
    sealed += count;
  }
  return sealed;
}
