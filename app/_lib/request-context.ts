import { authenticate, contextForPrincipal, requirePrincipal, type Principal } from "@/lib/auth/authenticate";
import type { ServiceContext } from "@/lib/context";
import { getDb } from "@/lib/db";
import { AppError } from "@/lib/errors";
import { enforceApiRateLimit } from "@/lib/rate-limit/api-limit";

/**
 * The caller of an HTTP request (session cookie or `Authorization: Bearer <api key>`) and the
 * team context it acts in. Handlers only ever get a ctx from here: 401 without credentials.
 */
export async function getRequestContext(request: Request): Promise<ServiceContext> {
  return contextForPrincipal(getDb(), await getCaller(request));
}

/**
 * The authenticated caller; cookie-authenticated writes must come from our own origin (CSRF).
 * Every authenticated /api/v1 request passes here once, so this is where it counts against the
 * caller's rate limits (429 with Retry-After beyond them).
 */
export async function getCaller(request: Request): Promise<Principal> {
  const principal = await requirePrincipal(request.headers);
  if (principal.kind === "user" && request.method !== "GET" && request.method !== "HEAD") assertSameOrigin(request);
  await enforceApiRateLimit(getDb(), principal);
  return principal;
}

/** A signed-in person (not an API key): teams, switching, invitations are personal acts. */
export async function getSignedInUser(request: Request): Promise<Extract<Principal, { kind: "user" }>> {
  const principal = await getCaller(request);
  if (principal.kind !== "user") throw new AppError("FORBIDDEN", "This needs a signed-in person; API keys act only on their team's servers and data");
  return principal;
}

export async function getPrincipal(request: Request): Promise<Principal | null> {
  return authenticate(request.headers);
}

/** A browser request from another origin is refused (403); requests without Origin (CLI, curl) pass. */
export function assertSameOrigin(request: Request): void {
  const origin = request.headers.get("origin");
  if (!origin) return; // not a browser cross-site request (browsers always send Origin on those)
  const host = request.headers.get("x-forwarded-host") ?? request.headers.get("host");
  let originHost: string;
  try {
    originHost = new URL(origin).host;
  } catch {
    throw new AppError("FORBIDDEN", "Cross-site request refused");
  }
  if (!host || originHost !== host) throw new AppError("FORBIDDEN", "Cross-site request refused");
}
