import { getAlert } from "../../../../../lib/alerts/get-alert";
import { route, type IdParams } from "../../../../_lib/http";
import { getRequestContext } from "../../../../_lib/request-context";

export const dynamic = "force-dynamic";

export const GET = route(async (request: Request, { params }: IdParams) => {
  const ctx = await getRequestContext(request);
  return getAlert(ctx, (await params).id);
});
