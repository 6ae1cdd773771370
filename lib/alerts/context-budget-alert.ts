// context_budget: one alert per team while its tool lists together cost more tokens than the
// team's budget (docs/context-budget.md). Computed from the sums stored on snapshots, never by
// tokenizing, and checked off the listing path (the worker's evaluation queue, and a budget edit).
import type { ServiceContext } from "@/lib/context";
import type { Tx } from "@/lib/db";
import { CONTEXT_TOKENS_LABEL, formatTokens } from "@/lib/context-tokens/encoding";
import { sumTeamContextTokens } from "@/lib/context-tokens/team-context-tokens";
import type { ContextBudgetDetails } from "./alert-dto";
import { openAlert, resolveAlert, updateAlert } from "./alert-store";

const SYSTEM = "system";

/** What changed the team total: a new snapshot of a server (the worker), or nothing in particular (a budget edit). */
export type BudgetTrigger = { serverId: string; snapshotId: string } | null;

export type BudgetOutcome = "opened" | "updated" | "resolved" | null;

type Open = { id: string; serverId: string; severity: "critical" | "high" | "medium" | "low" | "info"; toolName: string | null; details: unknown };

/** The team's one unresolved context_budget alert (open or acknowledged): every reader of it uses this filter. */
export const openBudgetAlertWhere = (tenantId: string) => ({ tenantId, kind: "context_budget" as const, status: { in: ["open" as const, "acknowledged" as const] } });

async function findOpen(tx: Tx, tenantId: string): Promise<Open | null> {
  return tx.alert.findFirst({
    where: openBudgetAlertWhere(tenantId),
    orderBy: { createdAt: "asc" },
    select: { id: true, serverId: true, severity: true, toolName: true, details: true },
  });
}

/**
 * Inside the caller's transaction: opens the team's `context_budget` alert (medium, a warning)
 * when the total of each server's latest snapshot is over the budget, keeps the one open alert's
 * numbers current while it stays over (no second alert, no second webhook), and resolves it
 * ("within_budget") once the total fits again or the budget is turned off. Serialised per team so
 * two servers' snapshots cannot open two alerts.
 */
// internal-writer: the worker's budget check after a snapshot, and a step of updateContextBudget inside its audited transaction
export async function evaluateContextBudget(tx: Tx, tenantId: string, trigger: BudgetTrigger): Promise<BudgetOutcome> {
  await tx.$executeRaw`SELECT pg_advisory_xact_lock(hashtext(${`toolwatch:context_budget:${tenantId}`}))`;
  const tenant = await tx.tenant.findUnique({ where: { id: tenantId }, select: { contextBudgetTokens: true } });
  const budget = tenant?.contextBudgetTokens ?? null;
  const open = await findOpen(tx, tenantId);
  const team = budget === null ? null : await sumTeamContextTokens(tx, tenantId);
  if (budget === null || team === null || team.totalTokens <= budget) {
    if (!open) return null;
    await resolveAlert(tx, tenantId, open, "within_budget", SYSTEM, { notify: true });
    return "resolved";
  }
  const title = `The team's tool lists cost ${formatTokens(team.totalTokens)} tokens, over the context budget of ${formatTokens(budget)} (${CONTEXT_TOKENS_LABEL})`;
  const base = { budgetTokens: budget, totalTokens: team.totalTokens, servers: team.servers, countedServers: team.countedServers, largest: team.largest, encoding: team.encoding };
  if (open) {
    const previous = (open.details ?? {}) as { contextBudget?: ContextBudgetDetails };
    const was = previous.contextBudget;
    if (was && was.totalTokens === base.totalTokens && was.budgetTokens === base.budgetTokens && JSON.stringify(was.largest) === JSON.stringify(base.largest)) return null;
    // What first pushed it over stays named; the numbers follow the team.
    await updateAlert(tx, tenantId, open, { title, details: { contextBudget: { ...base, ...(was?.pushedBy ? { pushedBy: was.pushedBy } : {}) } } });
    return "updated";
  }
  const pushedBy = trigger ? await describePush(tx, tenantId, trigger) : null;
  // The alert table needs a server: the one whose change pushed the total over, else the largest.
  const anchor = pushedBy?.serverId ?? team.largest[0]?.serverId;
  if (!anchor) return null;
  await openAlert(tx, tenantId, {
    serverId: anchor,
    kind: "context_budget",
    severity: "medium",
    title,
    snapshotId: pushedBy?.snapshotId ?? null,
    details: { contextBudget: { ...base, ...(pushedBy ? { pushedBy } : {}) } },
  });
  return "opened";
}

/** The triggering snapshot's server and how many tokens it added against the snapshot before it. */
async function describePush(tx: Tx, tenantId: string, trigger: NonNullable<BudgetTrigger>): Promise<ContextBudgetDetails["pushedBy"] | null> {
  const [row] = await tx.$queryRaw<{ server_name: string; tokens: number | null; previous: number | null; has_previous: boolean }[]>`
    SELECT m.name AS server_name, s.context_tokens AS tokens, p.context_tokens AS previous, (p.id IS NOT NULL) AS has_previous
      FROM snapshot s
      JOIN mcp_server m ON m.id = s.server_id AND m.tenant_id = s.tenant_id
      LEFT JOIN LATERAL (
        SELECT b.id, b.context_tokens FROM snapshot b
         WHERE b.tenant_id = s.tenant_id AND b.server_id = s.server_id AND (b.taken_at, b.id) < (s.taken_at, s.id)
         ORDER BY b.taken_at DESC, b.id DESC LIMIT 1
      ) p ON TRUE
     WHERE s.id = ${trigger.snapshotId}::uuid AND s.tenant_id = ${tenantId}::uuid AND s.server_id = ${trigger.serverId}::uuid`;
  if (!row) return null;
  const delta = row.tokens === null ? null : row.has_previous ? (row.previous === null ? null : row.tokens - row.previous) : row.tokens;
  return { serverId: trigger.serverId, serverName: row.server_name, snapshotId: trigger.snapshotId, deltaTokens: delta };
}

/**
 * The worker's entry: a cheap read first (no budget and no open alert — most teams — is one
 * indexed lookup), then the check in its own short transaction.
 */
export async function checkContextBudget(ctx: ServiceContext, trigger: BudgetTrigger): Promise<BudgetOutcome> {
  const [state] = await ctx.db.$queryRaw<{ budget: number | null; open: boolean }[]>`
    SELECT t.context_budget_tokens AS budget,
           EXISTS (SELECT 1 FROM alert a WHERE a.tenant_id = t.id AND a.status IN ('open', 'acknowledged') AND a.kind = 'context_budget') AS open
      FROM tenant t WHERE t.id = ${ctx.tenantId}::uuid`;
  if (!state || (state.budget === null && !state.open)) return null;
  return ctx.db.$transaction((tx) => evaluateContextBudget(tx, ctx.tenantId, trigger));
}

/** Every team with a budget (after the startup backfill filled in older snapshots' sums). */
export async function checkEveryContextBudget(db: ServiceContext["db"]): Promise<number> {
  const teams = await db.tenant.findMany({ where: { contextBudgetTokens: { not: null } }, select: { id: true } });
  let changed = 0;
  for (const team of teams) {
    const outcome = await checkContextBudget({ tenantId: team.id, actor: { kind: "system", id: "context-budget" }, db }, null);
    if (outcome) changed++;
  }
  return changed;
}
