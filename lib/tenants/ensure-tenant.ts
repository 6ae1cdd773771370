import type { Actor, ServiceContext } from "../context";
import type { Db } from "../db";

export const DEMO_TENANT_SLUG = "demo";

/** Idempotent: the seed and the worker both call it. */
export async function ensureTenant(db: Db, slug: string, name: string): Promise<{ id: string; slug: string }> {
  return db.tenant.upsert({ where: { slug }, create: { slug, name }, update: {}, select: { id: true, slug: true } });
}

export async function getTenantContext(db: Db, slug: string, actor: Actor): Promise<ServiceContext | null> {
  const tenant = await db.tenant.findUnique({ where: { slug }, select: { id: true } });
  return tenant ? { tenantId: tenant.id, actor, db } : null;
}
