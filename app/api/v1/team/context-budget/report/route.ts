import { getContextBudgetReport } from "../../../../../../lib/tenants/context-budget-report";
import { route, searchParams } from "../../../../../_lib/http";
import { getRequestContext } from "../../../../../_lib/request-context";

export const dynamic = "force-dynamic";

/** The budget page's data: total vs budget, costliest servers, the total per day, the open alert (docs/context-budget.md). */
export const GET = route(async (request: Request) => getContextBudgetReport(await getRequestContext(request), searchParams(request)));
