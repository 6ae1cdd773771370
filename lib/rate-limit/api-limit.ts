import type { Principal } from "@/lib/auth/authenticate";
import type { Db } from "@/lib/db";
import { loadEnv, type Env } from "@/lib/env";
import { AppError } from "@/lib/errors";
import { consume, LeaseStore, type Bucket } from "./counter";
import type { Rate } from "./rate";
import { rateLimitHeaders, setResponseHeaders } from "./response-headers";

// /api/v1 request limits, checked once per request where the caller is authenticated
// (app/_lib/request-context.ts getCaller). An API key counts against itself and its team; a
// signed-in person (browser session) against themselves, across their teams: the team budget is
// for automation, so a busy dashboard never starves the team's keys, nor the keys the dashboard.
const SCOPE_NAMES = { key: "this API key", team: "this team's API keys", user: "your account" } as const;
type Scope = keyof typeof SCOPE_NAMES;

export function apiBuckets(principal: Principal, env: Env = loadEnv()): Bucket[] {
  const bucket = (scope: Scope, id: string, rate: Rate | null): Bucket[] => (rate ? [{ key: `api:${scope}:${id}`, ...rate }] : []);
  if (principal.kind === "apiKey") {
    return [...bucket("key", principal.keyId, env.TOOLWATCH_API_RATE_PER_KEY), ...bucket("team", principal.tenantId, env.TOOLWATCH_API_RATE_PER_TEAM)];
  }
  return bucket("user", principal.userId, env.TOOLWATCH_API_RATE_PER_USER);
}

// One per web process (on globalThis: server.ts and the bundled route handlers load separate copies).
const holder = globalThis as unknown as { __toolwatchApiLeases?: LeaseStore };
const leases = (holder.__toolwatchApiLeases ??= new LeaseStore());

/** Counts the request; a 429 (AppError RATE_LIMITED) with Retry-After when a bucket is over its limit. */
export async function enforceApiRateLimit(db: Db, principal: Principal, env: Env = loadEnv()): Promise<void> {
  await enforce(db, apiBuckets(principal, env), (scope) => SCOPE_NAMES[scope as Scope]);
}

/**
 * The public share endpoint has no caller to count: it counts per client address (the web server
 * sets x-forwarded-for to the socket's address unless TOOLWATCH_TRUST_PROXY keeps a proxy's).
 */
export async function enforceShareRateLimit(db: Db, headers: Headers, env: Env = loadEnv()): Promise<void> {
  const rate = env.TOOLWATCH_SHARE_RATE_PER_ADDRESS;
  const address = (headers.get("x-forwarded-for") ?? "").split(",")[0]!.trim() || "unknown";
  await enforce(db, rate ? [{ key: `share:address:${address}`, ...rate }] : [], () => "share links from your address");
}

/** Counts one request against `buckets` (keys `<kind>:<scope>:<id>`), sets the RateLimit headers, and refuses past a limit. */
async function enforce(db: Db, buckets: Bucket[], describe: (scope: string) => string): Promise<void> {
  const decision = await consume(db, buckets, leases);
  if (!decision) return;
  setResponseHeaders(rateLimitHeaders(decision));
  if (decision.allowed) return;
  const { binding } = decision;
  const scope = binding.key.split(":")[1]!;
  throw new AppError("RATE_LIMITED", `Too many requests for ${describe(scope)}: at most ${binding.limit} per ${binding.windowSeconds} s. Retry in ${decision.retryAfterSeconds} s.`, {
    scope,
    limit: binding.limit,
    windowSeconds: binding.windowSeconds,
    retryAfterSeconds: decision.retryAfterSeconds,
  });
}
