import { requestRefresh } from "../../../../../../lib/servers/save-server";
import { route, type IdParams } from "../../../../../_lib/http";
import { getRequestContext } from "../../../../../_lib/request-context";

export const dynamic = "force-dynamic";

// 202: the worker that owns the session re-lists; the result arrives as a snapshot event.
export const POST = route(async (request: Request, { params }: IdParams) => {
  const ctx = await getRequestContext(request);
  return Response.json(await requestRefresh(ctx, (await params).id), { status: 202 });
});
