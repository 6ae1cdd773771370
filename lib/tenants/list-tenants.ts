import type { Db } from "@/lib/db";

export type TenantOverview = { id: string; slug: string; name: string; createdAt: Date; members: number; servers: number; activeKeys: number };

/**
 * Every team on the instance, for the instance's operator (the admin CLI), never for a team
 * member: it deliberately crosses tenants, so it takes a Db rather than a team's ctx.
 */
export async function listTenants(db: Db): Promise<TenantOverview[]> {
  const [tenants, keys] = await Promise.all([
    db.tenant.findMany({
      orderBy: { slug: "asc" },
      select: { id: true, slug: true, name: true, createdAt: true, _count: { select: { accountMembers: true, servers: true } } },
    }),
    db.apiKey.groupBy({
      by: ["referenceId"],
      where: { enabled: true, OR: [{ expiresAt: null }, { expiresAt: { gt: new Date() } }] },
      _count: { _all: true },
    }),
  ]);
  const activeKeys = new Map(keys.map((k) => [k.referenceId, k._count._all]));
  return tenants.map((t) => ({
    id: t.id,
    slug: t.slug,
    name: t.name,
    createdAt: t.createdAt,
    members: t._count.accountMembers,
    servers: t._count.servers,
    activeKeys: activeKeys.get(t.id) ?? 0,
  }));
}
