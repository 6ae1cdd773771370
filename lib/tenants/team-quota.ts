import { z } from "zod";
import type { ServiceContext } from "@/lib/context";
import type { Db, Tx } from "@/lib/db";
import { loadEnv } from "@/lib/env";
import { AppError } from "@/lib/errors";

// Per-team quotas (issue 12): one instance serves many teams, and a stranger's team must not be
// able to take the worker for itself. Limits are refused with a 4xx naming the rule (servers,
// poll interval) or deferred (listings per minute: the worker's fair queue makes them wait).

export type Quota = { maxServers: number; minPollSeconds: number; listingsPerMinute: number };
export type QuotaSource = { [K in keyof Quota]: "team" | "instance" };

export const QuotaInput = z
  .object({
    maxServers: z.number().int().min(0).max(1_000_000).nullable().optional(),
    minPollSeconds: z.number().int().min(10).max(86_400).nullable().optional(),
    listingsPerMinute: z.number().int().min(0).max(1_000_000).nullable().optional(),
  })
  .strict();
export type QuotaInput = z.infer<typeof QuotaInput>;

export function instanceQuota(): Quota {
  const env = loadEnv();
  return { maxServers: env.TOOLWATCH_QUOTA_MAX_SERVERS, minPollSeconds: env.TOOLWATCH_QUOTA_MIN_POLL_SECONDS, listingsPerMinute: env.TOOLWATCH_QUOTA_LISTINGS_PER_MINUTE };
}

type QuotaRow = { maxServers: number | null; minPollSeconds: number | null; listingsPerMinute: number | null };

function effective(row: QuotaRow | null): { quota: Quota; source: QuotaSource } {
  const base = instanceQuota();
  const pick = <K extends keyof Quota>(key: K): [Quota[K], "team" | "instance"] => (row?.[key] != null ? [row[key] as Quota[K], "team"] : [base[key], "instance"]);
  const [maxServers, a] = pick("maxServers");
  const [minPollSeconds, b] = pick("minPollSeconds");
  const [listingsPerMinute, c] = pick("listingsPerMinute");
  return { quota: { maxServers, minPollSeconds, listingsPerMinute }, source: { maxServers: a, minPollSeconds: b, listingsPerMinute: c } };
}

/** The team's quota and where each limit comes from; any member may read their own team's. */
export async function getTeamQuota(ctx: ServiceContext, tx: Tx = ctx.db): Promise<{ quota: Quota; source: QuotaSource; usage: { servers: number } }> {
  const [row, servers] = await Promise.all([
    tx.teamQuota.findUnique({ where: { tenantId: ctx.tenantId } }),
    tx.mcpServer.count({ where: { tenantId: ctx.tenantId } }),
  ]);
  return { ...effective(row), usage: { servers } };
}

/**
 * Refuses a registration that would break the team's quota: more servers than it may have, or a
 * poll interval below its minimum. `adding` servers are about to be created (a batch counts whole).
 * Called inside the creating transaction, under a per-team lock, so parallel requests cannot
 * each see room for one more. Returns the quota (callers default the poll interval to its minimum).
 */
// internal-writer: a per-team advisory lock inside the caller's transaction, no data written
export async function assertWithinQuota(ctx: ServiceContext, tx: Tx, change: { adding: number; pollIntervals: Array<number | undefined> }): Promise<Quota> {
  if (change.adding > 0) await tx.$executeRaw`SELECT pg_advisory_xact_lock(hashtext(${`toolwatch:quota:${ctx.tenantId}`}))`;
  const { quota, usage } = await getTeamQuota(ctx, tx);
  if (ctx.actor.kind === "system") return quota;
  if (change.adding > 0 && usage.servers + change.adding > quota.maxServers) {
    throw new AppError("FORBIDDEN", `Quota: this team may register at most ${quota.maxServers} servers; it has ${usage.servers} and this request adds ${change.adding}. Ask an instance administrator to raise the team's maxServers quota.`, {
      rule: "maxServers",
      limit: quota.maxServers,
      current: usage.servers,
    });
  }
  const tooFrequent = change.pollIntervals.findIndex((s) => s !== undefined && s < quota.minPollSeconds);
  if (tooFrequent >= 0) {
    throw new AppError("INVALID_INPUT", `Quota: pollIntervalSeconds must be at least ${quota.minPollSeconds} for this team (got ${change.pollIntervals[tooFrequent]}).`, {
      rule: "minPollSeconds",
      limit: quota.minPollSeconds,
      ...(change.pollIntervals.length > 1 ? { index: tooFrequent } : {}),
    });
  }
  return quota;
}

/** A signed-in person acting for the instance (not for a team): quotas span teams. */
export type InstanceActor = { userId: string; instanceAdmin: boolean };

function requireInstanceAdmin(actor: InstanceActor): string {
  if (actor.instanceAdmin) return actor.userId;
  throw new AppError("FORBIDDEN", "Team quotas belong to instance administrators: this account may not see or set them");
}

/** Instance administrators: every team with its quota and usage. */
export async function listTeamQuotas(db: Db, actor: InstanceActor): Promise<Array<{ teamId: string; slug: string; name: string; quota: Quota; source: QuotaSource; usage: { servers: number } }>> {
  requireInstanceAdmin(actor);
  const [teams, counts] = await Promise.all([
    db.tenant.findMany({ select: { id: true, slug: true, name: true, quota: true }, orderBy: { slug: "asc" } }),
    db.mcpServer.groupBy({ by: ["tenantId"], _count: { _all: true } }),
  ]);
  const byTeam = new Map(counts.map((c) => [c.tenantId, c._count._all]));
  return teams.map((t) => ({ teamId: t.id, slug: t.slug, name: t.name, ...effective(t.quota), usage: { servers: byTeam.get(t.id) ?? 0 } }));
}

/** Instance administrators: set (or with null, clear back to the instance default) a team's limits. */
// internal-writer: an instance administrator's act across teams: requireInstanceAdmin, not a team permission
export async function setTeamQuota(db: Db, actor: InstanceActor, teamId: string, raw: unknown): Promise<{ quota: Quota; source: QuotaSource }> {
  const by = requireInstanceAdmin(actor);
  const parsed = QuotaInput.safeParse(raw);
  if (!parsed.success) throw new AppError("INVALID_INPUT", parsed.error.issues.map((i) => `${i.path.join(".") || "body"}: ${i.message}`).join("; "));
  if (!z.string().uuid().safeParse(teamId).success) throw new AppError("NOT_FOUND", "Team not found");
  const team = await db.tenant.findUnique({ where: { id: teamId }, select: { id: true } });
  if (!team) throw new AppError("NOT_FOUND", "Team not found");
  const row = await db.teamQuota.upsert({
    where: { tenantId: teamId },
    create: { tenantId: teamId, ...parsed.data, updatedBy: by },
    update: { ...parsed.data, updatedBy: by },
  });
  return effective(row);
}

/**
 * The worker's view: listings per minute for every team with a limit, refreshed periodically
 * (quotas change rarely; a stale minute is fine). Teams without a row use the instance default.
 */
export async function loadListingRates(db: Db): Promise<{ byTeam: Map<string, number>; fallback: number }> {
  const rows = await db.teamQuota.findMany({ where: { listingsPerMinute: { not: null } }, select: { tenantId: true, listingsPerMinute: true } });
  return { byTeam: new Map(rows.map((r) => [r.tenantId, r.listingsPerMinute!])), fallback: instanceQuota().listingsPerMinute };
}
