import type { BetterAuthPlugin } from "better-auth";
import type { Db } from "@/lib/db";
import { consume } from "@/lib/rate-limit/counter";
import type { Rate } from "@/lib/rate-limit/rate";

// Password guessing against one account from many addresses: better-auth's own limiter counts per
// client address (its rateLimit, stored in Postgres); this plugin adds a count per account (the
// email in the body), in Toolwatch's shared counters. Runs only for HTTP requests (better-auth's
// router), after the per-address limiter, before the endpoint: a refused attempt never reaches
// the password check. The price is that a guesser can lock a person out for one window; the
// window is short and the person still has their existing sessions.
const ACCOUNT_PATHS = ["/sign-in/email", "/sign-up/email", "/request-password-reset", "/forget-password"];
const MAX_BODY_CHARS = 64 * 1024;

export function accountRateLimit(db: Db, rate: Rate | null): BetterAuthPlugin {
  return {
    id: "toolwatch-account-rate-limit",
    async onRequest(request) {
      if (!rate || request.method !== "POST") return;
      const path = new URL(request.url).pathname;
      if (!ACCOUNT_PATHS.some((p) => path.endsWith(p))) return;
      const email = await emailOf(request);
      if (!email) return;
      const decision = await consume(db, [{ key: `auth:account:${email}`, ...rate }]);
      if (!decision || decision.allowed) return;
      const wait = String(decision.retryAfterSeconds);
      return {
        response: Response.json(
          { code: "RATE_LIMITED", message: `Too many attempts for this account. Try again in ${wait} s.` },
          { status: 429, headers: { "Retry-After": wait, "X-Retry-After": wait, "Cache-Control": "no-store" } },
        ),
      };
    },
  };
}

async function emailOf(request: Request): Promise<string | null> {
  try {
    const text = await request.clone().text();
    if (text.length > MAX_BODY_CHARS) return null;
    const body = JSON.parse(text) as unknown;
    const email = body && typeof body === "object" ? (body as { email?: unknown }).email : undefined;
    return typeof email === "string" && email.trim() ? email.trim().toLowerCase() : null;
  } catch {
    return null; // not JSON: better-auth refuses it on its own
  }
}

/** better-auth answers its own 429 with X-Retry-After only; HTTP clients look for Retry-After. */
export function withRetryAfter(response: Response): Response {
  if (response.status !== 429 || response.headers.has("Retry-After")) return response;
  const wait = response.headers.get("X-Retry-After");
  if (!wait) return response;
  const headers = new Headers(response.headers);
  headers.set("Retry-After", wait);
  return new Response(response.body, { status: response.status, statusText: response.statusText, headers });
}
