import { createHmac, randomBytes, timingSafeEqual } from "node:crypto";

/**
 * Webhook signatures.
 *
 * Every delivery attempt carries
 *   X-Toolwatch-Timestamp: <unix seconds when this attempt was sent>
 *   X-Toolwatch-Signature: sha256=<lowercase hex HMAC-SHA256(secret, "<timestamp>.<raw body>")>
 * where `secret` is the webhook's signing secret exactly as shown once at creation or rotation
 * (the whole string, "whsec_…", as UTF-8 bytes) and the raw body is the exact bytes received.
 *
 * To verify, a receiver:
 *   1. reads the raw body before any JSON parsing (re-serialising changes the bytes);
 *   2. rejects the request when |now − timestamp| > 300 s (replay window: a captured request
 *      cannot be replayed later, because the timestamp is inside the signed string);
 *   3. computes the HMAC above and compares it with the header in constant time;
 *   4. dedupes on X-Toolwatch-Delivery (the same for every retry of one delivery): delivery is
 *      at-least-once.
 * `verifyWebhookSignature` below is that check.
 */
export const SIGNATURE_HEADER = "X-Toolwatch-Signature";
export const TIMESTAMP_HEADER = "X-Toolwatch-Timestamp";
export const DEFAULT_TOLERANCE_SECONDS = 300;

const SECRET_PREFIX = "whsec_";

/** 32 random bytes, base64url, with a prefix that makes a leaked secret recognisable. */
export function generateWebhookSecret(): string {
  return SECRET_PREFIX + randomBytes(32).toString("base64url");
}

export function signWebhookBody(secret: string, timestamp: number, body: string): string {
  return "sha256=" + createHmac("sha256", secret).update(`${timestamp}.${body}`).digest("hex");
}

export function verifyWebhookSignature(input: {
  secret: string;
  body: string;
  timestamp: string | null | undefined;
  signature: string | null | undefined;
  toleranceSeconds?: number;
  nowSeconds?: number;
}): boolean {
  const { secret, body, timestamp, signature } = input;
  if (!timestamp || !signature || !/^\d{1,12}$/.test(timestamp)) return false;
  const now = input.nowSeconds ?? Math.floor(Date.now() / 1000);
  if (Math.abs(now - Number(timestamp)) > (input.toleranceSeconds ?? DEFAULT_TOLERANCE_SECONDS)) return false;
  const expected = Buffer.from(signWebhookBody(secret, Number(timestamp), body));
  const given = Buffer.from(signature);
  return given.length === expected.length && timingSafeEqual(given, expected);
}
