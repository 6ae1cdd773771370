import { getContextBudgetReport } from "@/lib/tenants/context-budget-report";
import { withTeam } from "@/app/_lib/handler";

export const dynamic = "force-dynamic";

/** The budget page's data: total vs budget, costliest servers, the total per day, the open alert (docs/context-budget.md). */
export const GET = withTeam(({ ctx, searchParams }) => getContextBudgetReport(ctx, searchParams));
