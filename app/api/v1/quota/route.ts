import { getTeamQuota } from "../../../../lib/tenants/team-quota";
import { route } from "../../../_lib/http";
import { getRequestContext } from "../../../_lib/request-context";

export const dynamic = "force-dynamic";

/** The current team's quota (servers, minimum poll interval, listings per minute) and usage. */
export const GET = route(async (request: Request) => getTeamQuota(await getRequestContext(request)));
