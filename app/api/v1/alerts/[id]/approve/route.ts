import { approveAlert } from "../../../../../../lib/alerts/approve-alert";
import { readJson, route, type IdParams } from "../../../../../_lib/http";
import { getRequestContext } from "../../../../../_lib/request-context";

export const dynamic = "force-dynamic";

export const POST = route(async (request: Request, { params }: IdParams) => {
  const ctx = await getRequestContext(request);
  // {"hash": the version the reviewer saw, "comment"?}; 409 with details.currentHash when stale.
  return approveAlert(ctx, (await params).id, await readJson(request));
});
