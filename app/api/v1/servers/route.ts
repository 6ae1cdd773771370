import { listServers } from "../../../../lib/servers/list-servers";
import { route } from "../../../_lib/http";
import { getRequestContext } from "../../../_lib/request-context";

export const dynamic = "force-dynamic";

export const GET = route(async (request: Request) => {
  const ctx = await getRequestContext(request);
  return { items: await listServers(ctx) };
});
