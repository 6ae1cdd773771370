import { acknowledgeAlert } from "../../../../../../lib/alerts/acknowledge-alert";
import { readJson, route, type IdParams } from "../../../../../_lib/http";
import { getRequestContext } from "../../../../../_lib/request-context";

export const dynamic = "force-dynamic";

export const POST = route(async (request: Request, { params }: IdParams) => {
  const ctx = await getRequestContext(request);
  // The body is optional here ({"comment"}); one that is sent must be JSON.
  const body = request.headers.get("content-type") ? await readJson(request) : undefined;
  return acknowledgeAlert(ctx, (await params).id, body);
});
