import { getDb } from "../../../../../../../lib/db";
import { setTeamQuota } from "../../../../../../../lib/tenants/team-quota";
import { readJson, route, type IdParams } from "../../../../../../_lib/http";
import { getSignedInUser } from "../../../../../../_lib/request-context";

export const dynamic = "force-dynamic";

/** Instance administrators: set a team's limits (null = back to the instance default). */
export const PATCH = route(async (request: Request, { params }: IdParams) => {
  const user = await getSignedInUser(request);
  return setTeamQuota(getDb(), user, (await params).id, await readJson(request));
});
