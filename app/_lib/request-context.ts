import type { ServiceContext } from "../../lib/context";
import { getDb } from "../../lib/db";
import { DEMO_TENANT_SLUG, ensureTenant } from "../../lib/tenants/ensure-tenant";

/**
 * The tenant and actor of an HTTP request. Accounts and API keys arrive with issue 4; until then
 * every request acts, read-only, for the seeded demo tenant. Handlers only ever get a ctx from here.
 */
export async function getRequestContext(_request: Request): Promise<ServiceContext> {
  const db = getDb();
  const tenant = await ensureTenant(db, DEMO_TENANT_SLUG, "Demo team");
  return { tenantId: tenant.id, actor: { kind: "anonymous" }, db };
}
