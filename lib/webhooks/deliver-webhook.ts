import { STATUS_CODES } from "node:http";
import type { Db } from "@/lib/db";
import type { TargetFetches } from "@/lib/discovery/node/guarded-fetch";
import type { PrivateTargetsPolicy } from "@/lib/env";
import { teamsWithPrivateTargets } from "@/lib/network/private-targets";
import { decryptJson } from "@/lib/secrets";
import { webhookUrlOf } from "./webhook-url";
import { renderWebhookBody } from "./payload";
import { SIGNATURE_HEADER, signWebhookBody, TIMESTAMP_HEADER } from "./sign";
import type { WebhookFormat, WebhookPayload } from "./types";

// One HTTP attempt of one delivery, and its record on the delivery row. Retry timing belongs to
// the queue (worker/webhook-dispatcher.ts); this only says whether another attempt makes sense.
//
// What the delivery log keeps of an attempt: the status code, the standard reason phrase for it,
// and our own words for a failure to connect. Never the receiver's body, headers or reason phrase:
// the log is read by the team, and a receiver is whatever address the team typed, so echoing its
// answer would turn webhooks into a way to read services the team cannot otherwise reach (the
// worker's network position, IP allowlists). A receiver's own logs are where its details belong.
// A refused destination (private targets without the right, metadata…) is refused before any
// packet is sent, so there is no answer to keep in the first place.

export const USER_AGENT = "Toolwatch-Webhook/1";

export type DeliveryDeps = {
  db: Db;
  key: Buffer;
  /** The worker's guarded fetches; the team's right to private targets picks one per delivery. */
  targets: Pick<TargetFetches, "for">;
  /** TOOLWATCH_PRIVATE_TARGETS (privateTargetsPolicy()). */
  policy: PrivateTargetsPolicy;
  timeoutMs: number;
  /** Aborts an attempt in flight (worker shutdown); the attempt then counts as failed and is retried. */
  signal?: AbortSignal;
};

export type AttemptOutcome =
  /** 2xx */
  | { outcome: "delivered"; statusCode: number }
  /** failed; another attempt is worthwhile */
  | { outcome: "retry"; statusCode: number | null; error: string }
  /** gave up: last attempt, a refused destination, or a disabled webhook */
  | { outcome: "dead"; statusCode: number | null; error: string }
  /** nothing to do: already delivered or dead, or the webhook was deleted */
  | { outcome: "skipped"; reason: string };

/** The headers of an attempt; the timestamp is signed, so each attempt is signed afresh. */
export function webhookHeaders(input: { deliveryId: string; event: string; body: string; secret: string; timestamp: number }): Record<string, string> {
  return {
    "Content-Type": "application/json",
    "User-Agent": USER_AGENT,
    "X-Toolwatch-Event": input.event,
    "X-Toolwatch-Delivery": input.deliveryId,
    [TIMESTAMP_HEADER]: String(input.timestamp),
    [SIGNATURE_HEADER]: signWebhookBody(input.secret, input.timestamp, input.body),
  };
}

function describeError(error: unknown, timeoutMs: number): { message: string; permanent: boolean } {
  if (!(error instanceof Error)) return { message: String(error), permanent: false };
  if (error.name === "TimeoutError") return { message: `No response within ${timeoutMs / 1000} s`, permanent: false };
  if (error.name === "AbortError") return { message: "Attempt interrupted (worker stopping)", permanent: false };
  // The network guard refused the destination (metadata, link-local, or private without the team's
  // right): retrying cannot help, and the guard's message (which names the rule) is the useful one.
  if (error.name === "NetworkGuardError") {
    return { message: `${error.message} (${(error as Error & { code?: string }).code ?? "REFUSED"})`, permanent: true };
  }
  const cause = error.cause as { code?: string; message?: string } | undefined;
  const detail = cause?.code ?? cause?.message;
  return { message: detail ? `${error.message} (${detail})` : error.message, permanent: false };
}

/** "HTTP 500 Internal Server Error": the code and its standard phrase, nothing the receiver chose. */
function statusLine(status: number): string {
  const phrase = STATUS_CODES[status];
  return phrase ? `HTTP ${status} ${phrase}` : `HTTP ${status}`;
}

/**
 * Sends a delivery once and records the attempt (attempts +1, status code, last error, status).
 * `finalAttempt`: a failure marks it dead instead of failed.
 */
// internal-writer: the worker's delivery log
export async function attemptWebhookDelivery(deps: DeliveryDeps, deliveryId: string, opts: { finalAttempt: boolean }): Promise<AttemptOutcome> {
  const delivery = await deps.db.webhookDelivery.findUnique({ where: { id: deliveryId }, include: { webhook: true } });
  if (!delivery) return { outcome: "skipped", reason: "delivery no longer exists (webhook deleted)" };
  if (delivery.status === "delivered" || delivery.status === "dead") return { outcome: "skipped", reason: `already ${delivery.status}` };
  const { webhook } = delivery;

  const record = async (result: Exclude<AttemptOutcome, { outcome: "skipped" }>, sent = true) => {
    const ok = result.outcome === "delivered";
    await deps.db.webhookDelivery.updateMany({
      where: { id: deliveryId, status: { in: ["pending", "failed"] } },
      data: {
        ...(sent ? { attempts: { increment: 1 } } : {}),
        status: ok ? "delivered" : result.outcome === "dead" ? "dead" : "failed",
        statusCode: result.statusCode,
        lastError: ok ? null : result.error,
        ...(ok ? { deliveredAt: new Date() } : {}),
      },
    });
    return result;
  };

  if (!webhook.enabled && delivery.event !== "test") {
    return record({ outcome: "dead", statusCode: null, error: "The webhook is disabled; this delivery was not sent" }, false);
  }

  let secret: string;
  try {
    secret = decryptJson<string>(deps.key, webhook.secretEncrypted);
  } catch {
    return record({ outcome: "dead", statusCode: null, error: "The signing secret cannot be decrypted with this instance's TOOLWATCH_SECRET_KEY; rotate the secret" }, false);
  }

  let url: string;
  try {
    url = webhookUrlOf(deps.key, webhook);
  } catch {
    return record({ outcome: "dead", statusCode: null, error: "The receiver URL cannot be decrypted with this instance's TOOLWATCH_SECRET_KEY; set the URL again" }, false);
  }
  const privateAllowed = (await teamsWithPrivateTargets(deps.db, [delivery.tenantId], deps.policy)).has(delivery.tenantId);
  const fetch = deps.targets.for(privateAllowed);

  const { body } = renderWebhookBody(webhook.format as WebhookFormat, delivery.payload as unknown as WebhookPayload);
  const headers = webhookHeaders({ deliveryId, event: delivery.event, body, secret, timestamp: Math.floor(Date.now() / 1000) });
  const signals = [AbortSignal.timeout(deps.timeoutMs), ...(deps.signal ? [deps.signal] : [])];
  const failed = (statusCode: number | null, error: string, permanent = false) =>
    record({ outcome: permanent || opts.finalAttempt ? "dead" : "retry", statusCode, error });

  let res: Response;
  try {
    // Redirects are not followed: a receiver that moved must be edited, not chased.
    res = await fetch(url, { method: "POST", headers, body, redirect: "manual", signal: AbortSignal.any(signals) });
  } catch (error) {
    const { message, permanent } = describeError(error, deps.timeoutMs);
    return failed(null, message, permanent);
  }
  // The body is never read (see the top of this file): let the connection go.
  void res.body?.cancel().catch(() => undefined);
  if (res.status >= 200 && res.status < 300) return record({ outcome: "delivered", statusCode: res.status });
  const location = res.status >= 300 && res.status < 400 ? " (redirects are not followed; point the webhook at the final URL)" : "";
  return failed(res.status, `${statusLine(res.status)}${location}`);
}
