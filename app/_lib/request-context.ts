import type { ServiceContext } from "../../lib/context";
import { getDb } from "../../lib/db";
import { DEMO_TENANT_SLUG, ensureTenant } from "../../lib/tenants/ensure-tenant";

/**
 * The tenant and actor of an HTTP request. Accounts and API keys arrive with issue 4; until then
 * every request acts, read-only, for the seeded demo tenant. Handlers only ever get a ctx from here.
 */
export async function getRequestContext(_request: Request): Promise<ServiceContext> {
  const db = getDb();
  // A tenant's id never changes: look it up once per process, not on every request.
  demoTenantId ??= ensureTenant(db, DEMO_TENANT_SLUG, "Demo team").then((t) => t.id);
  demoTenantId.catch(() => (demoTenantId = undefined)); // retry after a failed lookup
  return { tenantId: await demoTenantId, actor: { kind: "anonymous" }, db };
}

let demoTenantId: Promise<string> | undefined;
