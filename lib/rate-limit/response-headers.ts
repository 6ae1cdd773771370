import { AsyncLocalStorage } from "node:async_hooks";
import type { RateDecision } from "./counter";

// Headers a limiter decided during one HTTP request, for the route wrapper to put on whatever
// response the request ends with (success or error). Outside a request scope: dropped.
const scope = new AsyncLocalStorage<Headers>();

export function withResponseHeaders<T>(fn: () => Promise<T>): Promise<{ value: T; headers: Headers } | { error: unknown; headers: Headers }> {
  const headers = new Headers();
  return scope.run(headers, async () => {
    try {
      return { value: await fn(), headers };
    } catch (error) {
      return { error, headers };
    }
  });
}

export function setResponseHeaders(values: Headers): void {
  const target = scope.getStore();
  if (!target) return;
  for (const [name, value] of values) target.set(name, value);
}

/**
 * RateLimit-* (IETF draft, delta seconds) and the older X-RateLimit-* names, from the bucket
 * closest to refusing; Retry-After when refused.
 */
export function rateLimitHeaders(decision: RateDecision): Headers {
  const { binding } = decision;
  const headers = new Headers({
    "RateLimit-Limit": String(binding.limit),
    "RateLimit-Remaining": String(binding.remaining),
    "RateLimit-Reset": String(binding.resetSeconds),
    "RateLimit-Policy": `${binding.limit};w=${binding.windowSeconds}`,
    "X-RateLimit-Limit": String(binding.limit),
    "X-RateLimit-Remaining": String(binding.remaining),
    "X-RateLimit-Reset": String(binding.resetSeconds),
  });
  if (!decision.allowed) headers.set("Retry-After", String(decision.retryAfterSeconds));
  return headers;
}
