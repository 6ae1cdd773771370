import { getContextBudget, updateContextBudget } from "../../../../../lib/tenants/context-budget";
import { readJson, route } from "../../../../_lib/http";
import { getRequestContext } from "../../../../_lib/request-context";

export const dynamic = "force-dynamic";

/** The team's context budget and what its tool lists cost now (docs/context-budget.md). */
export const GET = route(async (request: Request) => getContextBudget(await getRequestContext(request)));

export const PATCH = route(async (request: Request) => {
  const ctx = await getRequestContext(request);
  return updateContextBudget(ctx, await readJson(request));
});
