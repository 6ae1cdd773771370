import { getDb } from "../../../../../lib/db";
import { listTeamQuotas } from "../../../../../lib/tenants/team-quota";
import { route } from "../../../../_lib/http";
import { getSignedInUser } from "../../../../_lib/request-context";

export const dynamic = "force-dynamic";

/** Instance administrators (signed in; never an API key): every team's quota and usage. */
export const GET = route(async (request: Request) => {
  const user = await getSignedInUser(request);
  return { items: await listTeamQuotas(getDb(), user) };
});
