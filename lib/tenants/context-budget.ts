import { z } from "zod";
import { evaluateContextBudget, openBudgetAlertWhere } from "@/lib/alerts/context-budget-alert";
import { recordAudit } from "@/lib/audit-log/record-audit";
import { requirePermission } from "@/lib/auth/permissions";
import type { ServiceContext } from "@/lib/context";
import { sumTeamContextTokens, type TeamContextTokens } from "@/lib/context-tokens/team-context-tokens";
import { AppError } from "@/lib/errors";
import { withTransaction } from "@/lib/transaction";
import { parseInput } from "@/lib/validation";

// The team's context budget (docs/context-budget.md): how many tokens its tool lists may cost
// together in a model's context before the team is warned (a `context_budget` alert).

/** 100 million tokens: far above any model's context, so any real budget fits. */
export const MAX_CONTEXT_BUDGET = 100_000_000;

export const ContextBudgetPatch = z.strictObject({
  /** null turns the budget (and its alert) off. */
  budgetTokens: z
    .number({ message: "budgetTokens is a whole number of tokens, or null to turn the budget off" })
    .int("budgetTokens is a whole number of tokens")
    .min(1, "budgetTokens is at least 1")
    .max(MAX_CONTEXT_BUDGET, `budgetTokens is at most ${MAX_CONTEXT_BUDGET}`)
    .nullable(),
});
export type ContextBudgetPatch = z.infer<typeof ContextBudgetPatch>;

export type ContextBudgetDto = TeamContextTokens & {
  budgetTokens: number | null;
  /** The team's open (or acknowledged) context_budget alert, if any. */
  alertId: string | null;
};

async function read(ctx: ServiceContext): Promise<ContextBudgetDto> {
  const [tenant, team, alert] = await Promise.all([
    ctx.db.tenant.findUnique({ where: { id: ctx.tenantId }, select: { contextBudgetTokens: true } }),
    sumTeamContextTokens(ctx.db, ctx.tenantId),
    ctx.db.alert.findFirst({ where: openBudgetAlertWhere(ctx.tenantId), select: { id: true } }),
  ]);
  if (!tenant) throw new AppError("NOT_FOUND", "Team not found");
  return { budgetTokens: tenant.contextBudgetTokens, ...team, alertId: alert?.id ?? null };
}

/** The budget, the team's current total and its largest servers; any member may read them. */
export async function getContextBudget(ctx: ServiceContext): Promise<ContextBudgetDto> {
  requirePermission(ctx, "team:read");
  return read(ctx);
}

/**
 * Sets or clears the budget (admins), audited, and brings the team's alert in line at once in
 * the same transaction: a budget below the current total opens it, a higher one or none resolves it.
 */
export async function updateContextBudget(ctx: ServiceContext, raw: unknown): Promise<ContextBudgetDto> {
  requirePermission(ctx, "server:write");
  const { budgetTokens } = parseInput(ContextBudgetPatch, raw);
  await withTransaction(ctx, async (tx) => {
    const before = await tx.tenant.findUnique({ where: { id: ctx.tenantId }, select: { contextBudgetTokens: true } });
    if (!before) throw new AppError("NOT_FOUND", "Team not found");
    await tx.tenant.update({ where: { id: ctx.tenantId }, data: { contextBudgetTokens: budgetTokens } });
    await recordAudit(tx, ctx, "team.context_budget_updated", { type: "team", id: ctx.tenantId }, { from: before.contextBudgetTokens, to: budgetTokens });
    await evaluateContextBudget(tx, ctx.tenantId, null);
  });
  // The budget page's cached report carries the budget: this process answers with the new one at once.
  return read(ctx);
}
