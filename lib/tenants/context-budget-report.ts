import { z } from "zod";
import { openBudgetAlertWhere } from "@/lib/alerts/context-budget-alert";
import { requirePermission } from "@/lib/auth/permissions";
import type { ServiceContext } from "@/lib/context";
import { listCostliestServers, type CostlyServer } from "@/lib/context-tokens/costliest-servers";
import { sumTeamContextTokens, type TeamContextTokens } from "@/lib/context-tokens/team-context-tokens";
import { sumTeamTokensPerDay, type DailyTeamTokens } from "@/lib/context-tokens/team-token-trend";
import { AppError } from "@/lib/errors";
import { cachedServerPage } from "@/lib/servers/server-page-cache";
import { parseInput } from "@/lib/validation";

// The budget page (/team/budget, docs/context-budget.md): the team's total against its budget,
// the servers that cost most, the total per day, and the open context_budget alert.

export const MAX_REPORT_DAYS = 90;
export const MAX_REPORT_SERVERS = 50;

/** Query string of GET /api/v1/team/context-budget/report; both optional. */
export const ContextBudgetReportInput = z.object({
  days: z.coerce
    .number({ message: "days is a whole number of days" })
    .int("days is a whole number of days")
    .min(1, "days is at least 1")
    .max(MAX_REPORT_DAYS, `days is at most ${MAX_REPORT_DAYS}`)
    .default(30),
  top: z.coerce
    .number({ message: "top is a whole number of servers" })
    .int("top is a whole number of servers")
    .min(1, "top is at least 1")
    .max(MAX_REPORT_SERVERS, `top is at most ${MAX_REPORT_SERVERS}`)
    .default(10),
});
export type ContextBudgetReportInput = z.input<typeof ContextBudgetReportInput>;

export type ContextBudgetReport = Omit<TeamContextTokens, "largest"> & {
  budgetTokens: number | null;
  /** totalTokens ÷ budgetTokens × 100, one decimal; null without a budget. May pass 100. */
  percentOfBudget: number | null;
  /** The largest servers by their latest counted snapshot, at most `top`. */
  topServers: CostlyServer[];
  /** One point per UTC day, oldest first, ending today. */
  trend: DailyTeamTokens[];
  /** The team's open (or acknowledged) context_budget alert. */
  alert: { id: string; status: "open" | "acknowledged"; title: string; openedAt: string } | null;
};

export async function getContextBudgetReport(ctx: ServiceContext, input: unknown = {}, now = new Date()): Promise<ContextBudgetReport> {
  requirePermission(ctx, "team:read");
  const { days, top } = parseInput(ContextBudgetReportInput, input);
  // Each team change refetches the overview's token chart and the budget page: repeated reads
  // between changes come from memory, like the fleet list and the overview (never older than 5 s).
  return cachedServerPage(ctx.tenantId, `budget-report\n${days}\n${top}`, () => readReport(ctx, days, top, now));
}

async function readReport(ctx: ServiceContext, days: number, top: number, now: Date): Promise<ContextBudgetReport> {
  const [tenant, team, topServers, trend, alert] = await Promise.all([
    ctx.db.tenant.findUnique({ where: { id: ctx.tenantId }, select: { contextBudgetTokens: true } }),
    sumTeamContextTokens(ctx.db, ctx.tenantId),
    listCostliestServers(ctx.db, ctx.tenantId, top),
    sumTeamTokensPerDay(ctx.db, ctx.tenantId, days, now),
    ctx.db.alert.findFirst({
      where: openBudgetAlertWhere(ctx.tenantId),
      select: { id: true, status: true, title: true, createdAt: true },
      orderBy: { createdAt: "desc" },
    }),
  ]);
  if (!tenant) throw new AppError("NOT_FOUND", "Team not found");
  const totals = { totalTokens: team.totalTokens, servers: team.servers, countedServers: team.countedServers, encoding: team.encoding };
  const budgetTokens = tenant.contextBudgetTokens;
  return {
    ...totals,
    budgetTokens,
    percentOfBudget: budgetTokens ? Math.round((totals.totalTokens / budgetTokens) * 1000) / 10 : null,
    topServers,
    trend,
    alert: alert ? { id: alert.id, status: alert.status as "open" | "acknowledged", title: alert.title, openedAt: alert.createdAt.toISOString() } : null,
  };
}
