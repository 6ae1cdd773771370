import { getContextBudget, updateContextBudget } from "@/lib/tenants/context-budget";
import { withTeam } from "@/app/_lib/handler";
import { readJson } from "@/app/_lib/http";

export const dynamic = "force-dynamic";

/** The team's context budget and what its tool lists cost now (docs/context-budget.md). */
export const GET = withTeam(({ ctx }) => getContextBudget(ctx));

export const PATCH = withTeam(async ({ ctx, request }) => updateContextBudget(ctx, await readJson(request)));
