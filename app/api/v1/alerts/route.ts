import { listAlerts } from "../../../../lib/alerts/list-alerts";
import { route, searchParams } from "../../../_lib/http";
import { getRequestContext } from "../../../_lib/request-context";

export const dynamic = "force-dynamic";

// ?status=open,acknowledged&severity=&kind=&serverId=&toolName=&limit=&cursor= — newest first.
export const GET = route(async (request: Request) => {
  const ctx = await getRequestContext(request);
  return listAlerts(ctx, searchParams(request));
});
