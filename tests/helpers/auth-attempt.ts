import { toNextJsHandler } from "better-auth/next-js";
import { withRetryAfter } from "@/lib/auth/account-rate-limit";
import { createAuth } from "@/lib/auth/auth";
import type { Db } from "@/lib/db";
import { loadEnv } from "@/lib/env";

// One sign-in (or sign-up, reset) attempt through better-auth's real handler, as one web process
// would take it: an auth instance per settings, kept for the process's life. Shared by the test
// process and the second web process of the sign-in limit tests (tests/fixtures/auth-web-process.ts).
export type AuthAttempt = { env: Record<string, string>; path: string; body: unknown; ip: string };
export type AuthOutcome = { status: number; retryAfter: string | null };

export function authAttempter(db: Db): (a: AuthAttempt) => Promise<AuthOutcome> {
  const handlers = new Map<string, ReturnType<typeof toNextJsHandler>>();
  return async (a) => {
    const key = JSON.stringify(a.env);
    let handler = handlers.get(key);
    if (!handler) {
      handler = toNextJsHandler(createAuth(db, loadEnv({ ...process.env, ...a.env })));
      handlers.set(key, handler);
    }
    const request = new Request(`http://localhost:3000/api/auth${a.path}`, {
      method: "POST",
      headers: { host: "localhost:3000", origin: "http://localhost:3000", "content-type": "application/json", "x-forwarded-for": a.ip },
      body: JSON.stringify(a.body),
    });
    const response = withRetryAfter(await handler.POST(request));
    return { status: response.status, retryAfter: response.headers.get("retry-after") };
  };
}
