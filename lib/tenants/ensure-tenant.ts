import type { Actor, ServiceContext } from "@/lib/context";
import type { Db } from "@/lib/db";

export const DEMO_TENANT_SLUG = "demo";

/**
 * Idempotent and race-free: the seed, every worker and every web process call it, often at the
 * same moment. Prisma's upsert reads then inserts, so two callers can both insert and one fails;
 * INSERT … ON CONFLICT DO NOTHING (createMany skipDuplicates) cannot.
 */
// internal-writer: setup (CLI, seed, tests): makes the default team exist, acts for no one
export async function ensureTenant(db: Db, slug: string, name: string): Promise<{ id: string; slug: string }> {
  await db.tenant.createMany({ data: [{ slug, name }], skipDuplicates: true });
  return db.tenant.findUniqueOrThrow({ where: { slug }, select: { id: true, slug: true } });
}

export async function getTenantContext(db: Db, slug: string, actor: Actor): Promise<ServiceContext | null> {
  const tenant = await db.tenant.findUnique({ where: { slug }, select: { id: true } });
  return tenant ? { tenantId: tenant.id, actor, db } : null;
}
