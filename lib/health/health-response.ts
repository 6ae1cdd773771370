import { authenticate } from "@/lib/auth/authenticate";
import type { Db } from "@/lib/db";
import { getHealth, type Health } from "./get-health";

// GET /api/health is public (load balancers, uptime checks): anyone learns the status, and only
// a signed-in instance administrator the details (database latency and error, each worker's host
// name, pid and sessions). Worker hosts are instance internals, no team's business, so a team's
// API key, even an owner's, gets the status only.

export type HealthStatus = "ok" | "degraded" | "down";
export type HealthBody = { status: HealthStatus } | ({ status: HealthStatus } & Health);

/** ok: database and at least one live worker; degraded: database but no live worker; down: no database. */
export function healthStatus(health: Health): HealthStatus {
  if (!health.database.ok) return "down";
  return health.workers.ok ? "ok" : "degraded";
}

/** The body and HTTP status for a request's headers: 200 while the database answers, else 503. */
export async function healthResponse(db: Db, heartbeatMs: number, headers: Headers): Promise<{ httpStatus: number; body: HealthBody }> {
  const health = await getHealth(db, heartbeatMs);
  const status = healthStatus(health);
  const httpStatus = health.database.ok ? 200 : 503;
  // Without a database nobody can be recognised; with one, bad credentials are not an error here.
  const admin = health.database.ok && (await isInstanceAdmin(headers));
  return { httpStatus, body: admin ? { status, ...health } : { status } };
}

async function isInstanceAdmin(headers: Headers): Promise<boolean> {
  if (!headers.get("cookie")) return false; // administrators are people (sessions), never API keys
  const principal = await authenticate(new Headers({ cookie: headers.get("cookie")! })).catch(() => null);
  return principal?.kind === "user" && principal.instanceAdmin;
}
